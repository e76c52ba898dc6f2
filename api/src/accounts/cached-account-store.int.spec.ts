import { randomUUID } from 'node:crypto';
import type { BroadcastMessage } from '@auction/engine';
import { type MockInstance, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClusterChannel } from '../realtime/realtime-link';
import { mongoTestDatabases } from '../testing/mongo-test-databases';
import type { NewAccount } from './account';
import { describeAccountStoreContract } from './account-store.contract';
import { CachedAccountStore } from './cached-account-store';
import { MongoAccountStore } from './mongo-account-store';

const url = process.env.MONGODB_URL;

/** The nodes' broadcast topic, in one process: each message reaches every listener, later. */
const broadcastBus = () => {
  const listeners = new Set<(message: BroadcastMessage) => void>();
  const channel: ClusterChannel = {
    broadcast: async (message) => {
      await Promise.resolve();
      for (const listener of listeners) listener(message);
    },
    onBroadcast: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return channel;
};

const newAccount = (): NewAccount => ({
  id: randomUUID(),
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `ada.${randomUUID().slice(0, 8)}@example.com`,
  imageUrl: null,
  passwordHash: 'scrypt$hash',
  googleSubject: null,
  createdAt: '2025-01-01T00:00:00.000Z',
});

/** The cache fronts MongoDB, where each `byId` is a round trip: it runs on the real server. */
describe.skipIf(!url)('CachedAccountStore over MongoAccountStore (MONGODB_URL)', () => {
  const mongo = mongoTestDatabases(url, 'auction_account_cache_test');

  describeAccountStoreContract('MongoDB behind a per-node cache', () =>
    mongo.subject(
      async (client, dbName) =>
        new CachedAccountStore(await MongoAccountStore.create(client, dbName), {
          maxAgeMs: 60_000,
        }),
    ),
  );

  let mongoStore: MongoAccountStore;
  let clock: number;
  let reads: MockInstance<MongoAccountStore['byId']>;
  const cached = (options: { cluster?: ClusterChannel } = {}) =>
    new CachedAccountStore(mongoStore, { maxAgeMs: 10_000, now: () => clock, ...options });

  beforeEach(async () => {
    clock = 1_000_000;
    mongoStore = await MongoAccountStore.create(mongo.client(), mongo.freshDb());
    reads = vi.spyOn(mongoStore, 'byId');
  });

  afterEach(() => reads.mockRestore());

  it('reads an account once, then answers from memory until maxAgeMs has passed', async () => {
    const store = cached();
    const ada = await store.create(newAccount());
    for (let i = 0; i < 100; i += 1) expect(await store.byId(ada.id)).toEqual(ada);
    expect(reads).toHaveBeenCalledTimes(1);
    clock += 9_999;
    await store.byId(ada.id);
    expect(reads).toHaveBeenCalledTimes(1);
    clock += 1;
    await store.byId(ada.id);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('does not keep an unknown id: an account created later is found at once', async () => {
    const store = cached();
    const account = newAccount();
    expect(await store.byId(account.id)).toBeUndefined();
    await mongoStore.create(account);
    expect(await store.byId(account.id)).toMatchObject({ id: account.id });
  });

  it('drops an account changed through it: erased, role set, Google linked', async () => {
    const store = cached();
    const ada = await store.create(newAccount());
    await store.byId(ada.id);
    await store.setRole(ada.email, 'Auditor');
    expect((await store.byId(ada.id))?.role).toBe('Auditor');
    await store.linkGoogle(ada.id, `google-${ada.id}`);
    expect((await store.byId(ada.id))?.googleSubject).toBe(`google-${ada.id}`);
    await store.erase(ada.id);
    expect(await store.byId(ada.id)).toBeUndefined();
  });

  it('does not keep a read that was in flight when a change arrived', async () => {
    const store = cached();
    const ada = await store.create(newAccount());
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stale = await mongoStore.byId(ada.id);
    // The first read answers with what the store held before the role changed.
    reads.mockImplementationOnce(async () => {
      await held;
      return stale;
    });
    const inFlight = store.byId(ada.id);
    await store.setRole(ada.email, 'Auditor');
    release();
    expect((await inFlight)?.role).toBe('User');
    expect((await store.byId(ada.id))?.role).toBe('Auditor');
  });

  it('a change on one node drops the account on the others (the cluster broadcast)', async () => {
    const bus = broadcastBus();
    const nodeA = cached({ cluster: bus });
    const nodeB = cached({ cluster: bus });
    const ada = await nodeA.create(newAccount());
    await nodeA.byId(ada.id);
    await nodeB.byId(ada.id);
    expect(nodeB.size).toBe(1);
    await nodeA.setRole(ada.email, 'Auditor');
    await vi.waitFor(() => expect(nodeB.size).toBe(0));
    expect((await nodeB.byId(ada.id))?.role).toBe('Auditor');
    // A stopped node no longer listens.
    nodeB.stop();
    await nodeA.erase(ada.id);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(nodeB.size).toBe(1);
  });

  it('forgets the least recently used account beyond maxEntries', async () => {
    const store = new CachedAccountStore(mongoStore, { maxAgeMs: 60_000, maxEntries: 2 });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => store.create(newAccount())));
    for (const account of [a, b, a, c]) await store.byId(account?.id ?? '');
    reads.mockClear();
    await store.byId(a?.id ?? '');
    expect(reads).not.toHaveBeenCalled();
    await store.byId(b?.id ?? '');
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
