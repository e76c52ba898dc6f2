import { WatchlistEvent, watchlistStream } from '@auction/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { genesisHash, verifyChain } from '../chain/hash-chain';
import { sealEvents } from '../chain/seal';
import { Engine } from '../engine';
import type { SqliteEventStore } from '../event-store/sqlite-event-store';
import { InstrumentedStore } from '../testing/instrumented-store';
import { tempSqliteStore } from '../testing/stores';
import { WATCH_SNAPSHOT_EVERY } from './watchlist';

const AT = '2026-01-01T00:00:00.000Z';
const HISTORY = 1_200;
let commands = 0;
const metadata = (actorId: string) => {
  const commandId = `command-${++commands}`;
  return { commandId, actorId, correlationId: commandId, at: AT };
};

let env: ReturnType<typeof tempSqliteStore>;
const engines: Engine[] = [];

/** An engine over its own connection to the log, counting what each stream read returns. */
const node = (sqlite: SqliteEventStore = env.store) => {
  const store = new InstrumentedStore(sqlite);
  const engine = new Engine({ store, snapshots: sqlite });
  engines.push(engine);
  return { engine, store };
};

/** The events of `userId`'s watchlist stream one toggle read. */
const eventsRead = async (
  { engine, store }: ReturnType<typeof node>,
  userId: string,
  auctionId: string,
  watching: boolean,
) => {
  const reads = store.streamReads.length;
  const outcome = await engine.watch({ userId, auctionId, watching }, metadata(userId));
  const read = store.streamReads
    .slice(reads)
    .filter(({ streamId }) => streamId === watchlistStream(userId))
    .reduce((sum, { events }) => sum + events, 0);
  return { outcome, read };
};

/** `count` alternating watches and unwatches of one auction, appended as one batch. */
const longHistory = async (userId: string, count: number) => {
  const streamId = watchlistStream(userId);
  const events: WatchlistEvent[] = Array.from({ length: count }, (_, i) => ({
    type: i % 2 === 0 ? 'AuctionWatched' : 'AuctionUnwatched',
    data: { userId, auctionId: 'toggled', at: AT },
  }));
  const sealed = sealEvents(streamId, -1, genesisHash(streamId), events, metadata(userId));
  await env.store.append(streamId, sealed.events, 'no_stream');
};

/** The watched set as the whole stream folds. */
const watchedInLog = async (userId: string): Promise<string[]> => {
  const watched = new Set<string>();
  for (const recorded of await env.store.readStream(watchlistStream(userId))) {
    const event = WatchlistEvent.parse({ type: recorded.type, data: recorded.data });
    if (event.type === 'AuctionWatched') watched.add(event.data.auctionId);
    else watched.delete(event.data.auctionId);
  }
  return [...watched].sort();
};

beforeEach(() => {
  env = tempSqliteStore();
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await env.cleanup();
});

describe('a watch toggle', () => {
  it(`reads as many events with ${HISTORY} events of history as a new user's does`, async () => {
    await longHistory('veteran', HISTORY);
    const warm = node();
    // The first toggle of a stream that has no snapshot yet folds it once and leaves one.
    expect((await eventsRead(warm, 'veteran', 'first', true)).read).toBe(HISTORY);
    const costs = { veteran: [] as number[], newcomer: [] as number[] };
    for (let i = 0; i < 10; i++) {
      for (const user of ['veteran', 'newcomer'] as const) {
        const { outcome, read } = await eventsRead(warm, user, 'a', i % 2 === 0);
        expect(outcome.changed).toBe(true);
        costs[user].push(read);
      }
    }
    // The stream's last event (for the chain) and nothing else, whatever came before it.
    expect(costs.veteran).toEqual(Array(10).fill(1));
    expect(costs.newcomer).toEqual([0, ...Array(9).fill(1)]);
    expect(await watchedInLog('veteran')).toEqual(['first']);
    const stream = await env.store.readStream(watchlistStream('veteran'));
    expect(stream).toHaveLength(HISTORY + 11);
    expect(verifyChain(watchlistStream('veteran'), stream)).toMatchObject({ ok: true });
  });

  it('after a restart, reads the snapshot and fewer events than a snapshot spans', async () => {
    await longHistory('veteran', HISTORY);
    await eventsRead(node(), 'veteran', 'first', true);
    for (let restart = 0; restart < 3; restart++) {
      const fresh = node(env.open());
      const { outcome, read } = await eventsRead(fresh, 'veteran', `after-${restart}`, true);
      expect(outcome.changed).toBe(true);
      expect(read).toBeLessThanOrEqual(WATCH_SNAPSHOT_EVERY);
    }
    expect(await watchedInLog('veteran')).toEqual(['after-0', 'after-1', 'after-2', 'first']);
  });

  it('stays right when another node toggles the same user between two of its own', async () => {
    const [a, b] = [node(), node(env.open())];
    await eventsRead(a, 'u1', 'x', true);
    await eventsRead(b, 'u1', 'x', false);
    await eventsRead(b, 'u1', 'y', true);
    // Node a remembers `x` watched: it reads what b appended before deciding.
    const again = await eventsRead(a, 'u1', 'x', true);
    expect(again.outcome.changed).toBe(true);
    expect(again.read).toBe(3);
    expect((await eventsRead(a, 'u1', 'y', true)).outcome.changed).toBe(false);
    expect(await watchedInLog('u1')).toEqual(['x', 'y']);
  });

  it('writes nothing when it changes nothing, and a retried command writes once', async () => {
    const { engine, store } = node();
    const meta = metadata('u2');
    const first = await engine.watch({ userId: 'u2', auctionId: 'x', watching: true }, meta);
    const retried = await engine.watch({ userId: 'u2', auctionId: 'x', watching: true }, meta);
    const same = await engine.watch(
      { userId: 'u2', auctionId: 'x', watching: true },
      metadata('u2'),
    );
    const never = await engine.watch(
      { userId: 'u2', auctionId: 'never', watching: false },
      metadata('u2'),
    );
    expect([first.changed, retried.changed, same.changed, never.changed]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(new Set([retried.position, same.position, never.position])).toEqual(
      new Set([first.position]),
    );
    expect(store.appends.filter((call) => call.streamId === watchlistStream('u2'))).toHaveLength(1);
  });
});
