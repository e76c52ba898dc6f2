// The decider's fold (pure: for views and audits that fold a stream), and the actors' registry (the
// command bus of one process). The actor itself and its snapshots stay inside the engine.
export { evolve, fold, initialState } from './auction/index';
export type { AuctionState, BidState } from './auction/index';
export { AuctionActorRegistry } from './auction/index';
export type { CommandOutcome } from './command-bus/command-bus';
export { KafkaCluster, type ClusterStatus } from './cluster/kafka-cluster';
export { type BroadcastChannel, PositionFeed } from './cluster/position-feed';
export { type Clock, systemClock } from './clock';
export { canonicalJson, commitmentOf, verifyChain } from './chain/hash-chain';
export { saltKeyFrom } from './chain/seal';
export { Engine, type EventLog } from './engine';
export { AccountClosures } from './account/account-closures';
export { ClosingScheduler } from './scheduler/closing-scheduler';
export { EndingSoonScheduler } from './scheduler/ending-soon-scheduler';
export type { EventStore, RecordedEvent, Subscription } from './event-store/event-store';
export { SqliteEventStore } from './event-store/sqlite-event-store';
export { EventStoreDbEventStore } from './event-store/eventstoredb-event-store';
