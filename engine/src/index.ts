// The decider (pure: for views and audits that fold a stream), and the actors' registry (the
// command bus of one process). The actor itself and its snapshots stay inside the engine.
export { decide, evolve, fold, initialState } from './auction/index';
export type { AuctionState, BidState, Decision } from './auction/index';
export { AuctionActorRegistry, type RegistryOptions } from './auction/index';
export type { CommandBus, CommandOutcome, CommittedEvent } from './command-bus/command-bus';
export type { CommandRouter } from './command-bus/command-router';
export {
  KafkaCluster,
  type KafkaClusterOptions,
  type BroadcastMessage,
  type ClusterStatus,
} from './cluster/kafka-cluster';
export { partitionOf } from './cluster/partitioner';
export {
  PositionFeed,
  POSITIONS_CHANNEL,
  type BroadcastChannel,
  type PositionFeedOptions,
} from './cluster/position-feed';
export { type ClusterNames, clusterNames, topicNamespace } from './cluster/topic-names';
export { type Clock, systemClock } from './clock';
export {
  SECRET_FIELDS,
  canonicalJson,
  commitmentOf,
  eventHash,
  verifyChain,
  type ChainVerdict,
} from './chain/hash-chain';
export { type SaltKey, saltKeyFrom } from './chain/seal';
export { Engine, type EngineOptions, type EventLog } from './engine';
export { AccountClosures, type AccountClosuresOptions } from './account/account-closures';
export type { CreateCategoryCommand, CreateCategoryOutcome } from './category/categories';
export { ClosingScheduler, type ClosingSchedulerOptions } from './scheduler/closing-scheduler';
export {
  EndingSoonScheduler,
  type EndingSoonSchedulerOptions,
} from './scheduler/ending-soon-scheduler';
export type { WatchCommand, WatchOutcome } from './watchlist/watchlist';
export type {
  EventStore,
  NewEvent,
  RecordedEvent,
  ExpectedRevision,
  AppendResult,
  Subscription,
  SubscribeOptions,
} from './event-store/event-store';
export { WrongExpectedRevisionError, DuplicateEventIdError } from './event-store/event-store';
export { SqliteEventStore, type SqliteEventStoreOptions } from './event-store/sqlite-event-store';
export { EventStoreDbEventStore } from './event-store/eventstoredb-event-store';
