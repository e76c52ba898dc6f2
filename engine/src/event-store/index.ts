export * from './event-store';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store';
export {
  EventStoreDbEventStore,
  type EventStoreDbEventStoreOptions,
} from './eventstoredb-event-store';
export { describeEventStoreContract, type EventStoreContractSubject } from './contract';
