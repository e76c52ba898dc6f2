import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auctionStream, minimumRaise } from '@auction/contracts';
import { seedFixedCategories } from '../category/categories';
import type { CommandOutcome } from '../command-bus/command-bus';
import type { EventStore, ReadStreamOptions } from '../event-store/event-store';
import type { SqliteEventStore } from '../event-store/sqlite-event-store';
import { T0, createAuction, iso, placeBid, retractBid } from '../testing/commands';
import { tempSqliteStore } from '../testing/stores';
import { AuctionActor } from './actor';
import { AuctionActorRegistry } from './actor-registry';
import type { StoredSnapshot } from '../event-store/snapshot-store';
import { SNAPSHOT_VERSION } from './snapshot';
import { stateToJSON } from './state';

const A = 'auction-snap';
const STREAM = auctionStream(A);

/** The store, recording every stream read: where it started and how many events it returned. */
const spied = (store: SqliteEventStore) => {
  const reads: { fromRevision: number; count: number }[] = [];
  const proxy = new Proxy(store, {
    get(target, property) {
      if (property === 'readStream')
        return async (streamId: string, options: ReadStreamOptions = {}) => {
          const read = await target.readStream(streamId, options);
          if (streamId === STREAM)
            reads.push({ fromRevision: options.fromRevision ?? 0, count: read.length });
          return read;
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { store: proxy as EventStore, reads };
};

/** The actor as a full fold of the stream (no snapshot). */
const fullFold = async (store: EventStore) => (await AuctionActor.load(store, A)).snapshot;
const view = (snapshot: AuctionActor['snapshot']) => ({
  ...snapshot,
  state: stateToJSON(snapshot.state),
  bidOrder: [...snapshot.state.bids.keys()],
});

let env: ReturnType<typeof tempSqliteStore>;
let bus: AuctionActorRegistry;
let reads: { fromRevision: number; count: number }[];
let amount: number;

const bid = async (
  registry: AuctionActorRegistry,
  bidder = 'bidder-1',
): Promise<CommandOutcome> => {
  amount = minimumRaise(amount, 'one-dollar');
  const outcome = await registry.send(placeBid(A, bidder, amount, T0 + 1000));
  expect(outcome.ok).toBe(true);
  return outcome;
};

/** Drops the actor from memory (as an idle eviction or a handoff would) and waits for its snapshot. */
const evict = async (registry: AuctionActorRegistry) => {
  await registry.drop(() => true);
  await registry.snapshotsSaved();
};

beforeEach(async () => {
  env = tempSqliteStore();
  await seedFixedCategories(env.store, iso(T0));
  const spy = spied(env.store);
  reads = spy.reads;
  bus = new AuctionActorRegistry({ store: spy.store });
  amount = 10_000;
  // It ends in a day: a bid may be retracted only before an auction's last hour.
  expect((await bus.send(createAuction(A, { endsAt: T0 + 24 * 3_600_000 }))).ok).toBe(true);
});

afterEach(async () => {
  await bus.close();
  await env.cleanup();
});

describe('actor snapshots', () => {
  it('reloads an evicted actor from its snapshot, reading only the events after it', async () => {
    for (let i = 0; i < 40; i++) await bid(bus, `bidder-${i % 3}`);
    const before = bus.snapshotOf(A);
    await evict(bus);
    expect(await env.store.loadSnapshot(STREAM)).toMatchObject({
      revision: 40,
      version: SNAPSHOT_VERSION,
    });
    reads.length = 0;
    await bid(bus);
    // The snapshot's own last event (to check it is still there), and nothing before it.
    expect(reads[0]).toEqual({ fromRevision: 40, count: 1 });
    expect(reads).toHaveLength(1);
    expect(before && view(before)).toMatchObject({ revision: 40 });
    expect(view(bus.snapshotOf(A) as AuctionActor['snapshot'])).toEqual(
      view(await fullFold(env.store)),
    );
  });

  it('equals the full fold when another writer appended after the snapshot', async () => {
    for (let i = 0; i < 20; i++) await bid(bus);
    await evict(bus);
    const other = new AuctionActorRegistry({ store: env.open(), snapshots: false });
    try {
      for (let i = 0; i < 10; i++) await bid(other, `other-${i % 2}`);
      amount = minimumRaise(amount, 'one-dollar');
      const placed = await other.send(placeBid(A, 'retractor', amount, T0 + 1000, 'bid-r'));
      expect(placed.ok).toBe(true);
      expect((await other.send(retractBid(A, 'retractor', 'bid-r'))).ok).toBe(true);
    } finally {
      await other.close();
    }
    reads.length = 0;
    await bid(bus);
    expect(reads[0]).toEqual({ fromRevision: 20, count: 13 });
    expect(view(bus.snapshotOf(A) as AuctionActor['snapshot'])).toEqual(
      view(await fullFold(env.store)),
    );
  });

  it('answers a command committed before the eviction with its original outcome, appending nothing', async () => {
    const command = placeBid(
      A,
      'bidder-9',
      (amount = minimumRaise(amount, 'one-dollar')),
      T0 + 1000,
    );
    const original = await bus.send(command);
    for (let i = 0; i < 5; i++) await bid(bus);
    await evict(bus);
    const length = (await env.store.readStream(STREAM)).length;
    reads.length = 0;
    expect(await bus.send(command)).toEqual(original);
    expect((await env.store.readStream(STREAM)).length).toBe(length);
    // Loaded from the snapshot (the replay then reads the command's own event).
    expect(reads[0]).toEqual({ fromRevision: 6, count: 1 });
  });

  it.each<[string, (stored: StoredSnapshot) => StoredSnapshot]>([
    ['of another version', (stored) => ({ ...stored, version: 'older-code' })],
    ['whose last event is not in the stream', (stored) => ({ ...stored, revision: 99 })],
    [
      'whose head hash does not match the stream',
      (stored) => ({
        ...stored,
        payload: JSON.stringify({ ...JSON.parse(stored.payload), headHash: '0'.repeat(64) }),
      }),
    ],
    ['that cannot be parsed', (stored) => ({ ...stored, payload: '{"headHash":' })],
    [
      "whose command's bid its state lacks",
      (stored) => {
        const payload = JSON.parse(stored.payload) as { commands: unknown[][] };
        const bidRow = payload.commands.at(-1)?.[8] as unknown[];
        bidRow[0] = 'no-such-bid';
        return { ...stored, payload: JSON.stringify(payload) };
      },
    ],
  ])('ignores a snapshot %s and folds the whole stream', async (_, change) => {
    for (let i = 0; i < 8; i++) await bid(bus);
    await evict(bus);
    const stored = await env.store.loadSnapshot(STREAM);
    if (!stored) throw new Error('no snapshot');
    // Replaced whatever its revision: by another version first, then as changed.
    await env.store.saveSnapshot(STREAM, { ...stored, version: 'x', revision: -5 });
    await env.store.saveSnapshot(STREAM, change(stored));
    reads.length = 0;
    await bid(bus);
    // At most the check of the snapshot's last event, then the whole stream.
    expect(reads.at(-1)).toEqual({ fromRevision: 0, count: 9 });
    expect(reads.length).toBeLessThanOrEqual(2);
    expect(view(bus.snapshotOf(A) as AuctionActor['snapshot'])).toEqual(
      view(await fullFold(env.store)),
    );
  });

  it('keeps the later snapshot of the same version', async () => {
    for (let i = 0; i < 3; i++) await bid(bus);
    await evict(bus);
    const stored = await env.store.loadSnapshot(STREAM);
    if (!stored) throw new Error('no snapshot');
    await env.store.saveSnapshot(STREAM, { ...stored, revision: 1, payload: 'stale' });
    expect(await env.store.loadSnapshot(STREAM)).toEqual(stored);
  });

  it('leaves snapshots on close, so a restart reads only the tail', async () => {
    for (let i = 0; i < 12; i++) await bid(bus);
    await bus.close();
    const spy = spied(env.store);
    bus = new AuctionActorRegistry({ store: spy.store });
    await bid(bus);
    expect(spy.reads[0]).toEqual({ fromRevision: 12, count: 1 });
  });

  it('does not use snapshots when told not to', async () => {
    for (let i = 0; i < 4; i++) await bid(bus);
    await evict(bus);
    const spy = spied(env.store);
    const plain = new AuctionActorRegistry({ store: spy.store, snapshots: false });
    try {
      await bid(plain);
      expect(spy.reads[0]?.fromRevision).toBe(0);
    } finally {
      await plain.close();
    }
  });
});
