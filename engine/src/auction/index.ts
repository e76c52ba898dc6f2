export { decide } from './decide';
export { evolve, fold } from './evolve';
export { initialState, stateToJSON } from './state';
export type { AuctionState, BidState, Decision } from './decider-types';
export { AuctionActor, type ActorOptions, type Snapshot } from './actor';
export { AuctionActorRegistry, type RegistryOptions } from './actor-registry';
export { SNAPSHOT_VERSION } from './snapshot';
export type { SnapshotStore, StoredSnapshot } from '../event-store/snapshot-store';
