import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auctionStream, type ErrorCode } from '@auction/contracts';
import { createCategory, seedFixedCategories } from '../category/categories';
import { verifyChain } from '../chain/hash-chain';
import type { CommandOutcome } from '../command-bus/command-bus';
import { T0, createAuction, iso, placeBid } from '../test-support/commands';
import { InstrumentedStore, gate } from '../test-support/instrumented-store';
import { ManualClock } from '../test-support/manual-clock';
import { tempSqliteStore } from '../test-support/stores';
import { AuctionActorRegistry } from './actor-registry';

const A = 'auction-1';
const dollars = (n: number) => n * 100;
const codeOf = (o: CommandOutcome): ErrorCode | 'ok' => (o.ok ? 'ok' : o.rejection.code);
const flushes = () => new Promise((resolve) => setImmediate(resolve));

let env: ReturnType<typeof tempSqliteStore>;
let store: InstrumentedStore;
let bus: AuctionActorRegistry;

beforeEach(async () => {
  env = tempSqliteStore();
  await seedFixedCategories(env.store, iso(T0));
  store = new InstrumentedStore(env.store);
  bus = new AuctionActorRegistry({ store });
  expect((await bus.send(createAuction(A))).ok).toBe(true);
  store.appends.length = 0;
});

afterEach(async () => {
  await bus.close();
  await env.cleanup();
});

describe('group commit', () => {
  it('appends concurrent bids in few batches, in one order, each answered with its own revision', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        bus.send(placeBid(A, `bidder-${i % 7}`, dollars(100 + i))),
      ),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(store.appends.length).toBeLessThanOrEqual(2);
    const revisions = outcomes.map((o) => (o.ok ? o.revision : -1));
    expect(revisions).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const stored = await env.store.readStream(auctionStream(A));
    expect(stored).toHaveLength(301);
    expect(verifyChain(auctionStream(A), stored)).toMatchObject({ ok: true, length: 301 });
    const last = outcomes[299];
    expect(last?.ok && last.currentBid).toBe(dollars(399));
  });

  it('answers a caller only after its batch is committed', async () => {
    const held = gate();
    store.before = () => held.promise;
    let answered = false;
    const pending = bus.send(placeBid(A, 'alice', dollars(150))).then((o) => {
      answered = true;
      return o;
    });
    for (let i = 0; i < 5; i++) await flushes();
    expect(store.appends).toHaveLength(1);
    expect(answered).toBe(false);
    expect(await env.store.streamRevision(auctionStream(A))).toBe(0);
    held.open();
    expect(codeOf(await pending)).toBe('ok');
    expect(await env.store.streamRevision(auctionStream(A))).toBe(1);
  });

  it('decides queued commands against the in-flight batch and appends them as the next batch', async () => {
    const held = gate();
    store.before = () => (store.appends.length === 1 ? held.promise : undefined);
    const first = bus.send(placeBid(A, 'alice', dollars(150)));
    await flushes();
    expect(store.appends).toHaveLength(1);
    const tooLow = bus.send(placeBid(A, 'bob', dollars(150)));
    const raise = bus.send(placeBid(A, 'bob', dollars(151)));
    await flushes();
    expect(store.appends).toHaveLength(1);
    held.open();
    expect((await Promise.all([first, tooLow, raise])).map(codeOf)).toEqual([
      'ok',
      'BID_TOO_LOW',
      'ok',
    ]);
    expect(store.appends).toHaveLength(2);
    expect(store.appends[1]?.expected).toBe(1);
    expect(store.appends[1]?.events).toHaveLength(1);
  });
});

describe('failures', () => {
  it('a failed batch rejects exactly its own commands; the next batch is re-decided on the reloaded state', async () => {
    const held = gate();
    store.before = async () => {
      if (store.appends.length === 1) {
        await held.promise;
        throw new Error('disk full');
      }
    };
    const doomed = bus.send(placeBid(A, 'alice', dollars(200)));
    await flushes();
    const queued = bus.send(placeBid(A, 'bob', dollars(150)));
    await flushes();
    held.open();
    await expect(doomed).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const outcome = await queued;
    expect(codeOf(outcome)).toBe('ok');
    expect(outcome.ok && outcome.revision).toBe(1);
    const stored = await env.store.readStream(auctionStream(A));
    expect(stored.map((e) => e.type)).toEqual(['AuctionCreated', 'BidPlaced']);
    expect(stored[1]?.data).toMatchObject({ bidderId: 'bob', amount: dollars(150) });
    expect(verifyChain(auctionStream(A), stored).ok).toBe(true);
  });

  it('an append that committed but reported failure still answers its callers with success', async () => {
    store.after = () => {
      if (store.appends.length === 1) throw new Error('connection reset after commit');
    };
    const outcome = await bus.send(placeBid(A, 'alice', dollars(150)));
    expect(codeOf(outcome)).toBe('ok');
    expect(outcome.ok && outcome.revision).toBe(1);
    expect(await env.store.readStream(auctionStream(A))).toHaveLength(2);
    expect(codeOf(await bus.send(placeBid(A, 'bob', dollars(151))))).toBe('ok');
  });

  it('an actor that cannot re-read its stream is replaced on the next command', async () => {
    store.before = () => {
      throw new Error('store down');
    };
    const realRead = store.readStream.bind(store);
    store.readStream = () => Promise.reject(new Error('store down'));
    await expect(bus.send(placeBid(A, 'alice', dollars(150)))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    store.before = undefined;
    store.readStream = realRead;
    expect(codeOf(await bus.send(placeBid(A, 'alice', dollars(150))))).toBe('ok');
  });
});

describe('another writer on the same stream', () => {
  it('reloads and re-decides on a wrong expected revision', async () => {
    const other = new AuctionActorRegistry({ store: env.open() });
    try {
      expect(codeOf(await bus.send(placeBid(A, 'alice', dollars(120))))).toBe('ok');
      expect(codeOf(await other.send(placeBid(A, 'bob', dollars(300))))).toBe('ok');
      const [stale, raised] = await Promise.all([
        bus.send(placeBid(A, 'carol', dollars(200))),
        bus.send(placeBid(A, 'carol', dollars(301))),
      ]);
      expect(codeOf(stale)).toBe('BID_TOO_LOW');
      expect(codeOf(raised)).toBe('ok');
      expect(raised.ok && raised.revision).toBe(3);
      const stored = await env.store.readStream(auctionStream(A));
      expect(stored.map((e) => (e.data as { amount?: number }).amount)).toEqual([
        undefined,
        dollars(120),
        dollars(300),
        dollars(301),
      ]);
      expect(verifyChain(auctionStream(A), stored).ok).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('registry', () => {
  it('refuses an auction in a category that does not exist', async () => {
    const outcome = await bus.send(createAuction('auction-2', { categoryId: 'no-such-category' }));
    expect(codeOf(outcome)).toBe('CATEGORY_NOT_FOUND');
    expect(await env.store.streamRevision(auctionStream('auction-2'))).toBeUndefined();
  });

  it('a category name reservation is not a category: its stream cannot be named by an id', async () => {
    const created = await createCategory(env.store, {
      categoryId: 'garden',
      name: 'Antique Tools',
      description: 'Old tools',
      commandId: 'c-garden',
      actorId: 'admin',
      correlationId: 'c-garden',
      at: iso(T0),
    });
    expect(created.ok).toBe(true);
    for (const categoryId of ['name-antique-tools', 'name-antiques']) {
      const outcome = await bus.send(createAuction(`in-${categoryId}`, { categoryId }));
      expect(codeOf(outcome)).toBe('CATEGORY_NOT_FOUND');
    }
    expect(codeOf(await bus.send(createAuction('in-garden', { categoryId: 'garden' })))).toBe('ok');
  });

  it('drops idle actors and reloads them from the store on demand', async () => {
    const clock = new ManualClock(T0);
    const registry = new AuctionActorRegistry({ store, clock, idleMs: 60_000 });
    try {
      expect(codeOf(await registry.send(placeBid(A, 'alice', dollars(150))))).toBe('ok');
      expect(registry.size).toBe(1);
      clock.advance(30_000);
      expect(registry.size).toBe(1);
      clock.advance(60_000);
      expect(registry.size).toBe(0);
      expect(codeOf(await registry.send(placeBid(A, 'bob', dollars(150))))).toBe('BID_TOO_LOW');
      expect(codeOf(await registry.send(placeBid(A, 'bob', dollars(151))))).toBe('ok');
    } finally {
      await registry.close();
    }
  });

  it('refuses commands once closed, after finishing those in flight', async () => {
    const inFlight = bus.send(placeBid(A, 'alice', dollars(150)));
    await bus.close();
    expect(codeOf(await inFlight)).toBe('ok');
    await expect(bus.send(placeBid(A, 'bob', dollars(151)))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});
