import { expect, it } from 'vitest';
import { describeEventStoreContract } from './contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

if (connectionString === undefined) {
  it('EventStoreDB contract: not configured', () => {
    console.warn(
      'EventStoreDB contract NOT run: set EVENTSTORE_CONNECTION_STRING=esdb://localhost:2113?tls=false to run it',
    );
    expect(process.env.EVENTSTORE_CONNECTION_STRING).toBeUndefined();
  });
} else {
  describeEventStoreContract('EventStoreDB', () => {
    let store = EventStoreDbEventStore.open({ connectionString });
    return Promise.resolve({
      store,
      reopen: async () => {
        await store.close();
        store = EventStoreDbEventStore.open({ connectionString });
        return store;
      },
      cleanup: () => store.close(),
    });
  });
}
