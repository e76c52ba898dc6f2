import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AuctionCommand,
  type ErrorCode,
  type PlaceBid,
  auctionStream,
} from '@auction/contracts';
import { createCategory, seedFixedCategories } from '../category/categories';
import { verifyChain } from '../chain/hash-chain';
import type { CommandOutcome } from '../command-bus/command-bus';
import {
  T0,
  closeAuction,
  createAuction,
  iso,
  placeBid,
  raises,
  retractBid,
} from '../testing/commands';
import { InstrumentedStore, gate } from '../testing/instrumented-store';
import { ManualClock } from '../testing/manual-clock';
import { tempSqliteStore } from '../testing/stores';
import { AuctionActorRegistry } from './actor-registry';

const A = 'auction-1';
const dollars = (n: number) => n * 100;
const codeOf = (o: CommandOutcome): ErrorCode | 'ok' => (o.ok ? 'ok' : o.rejection.code);
const flushes = () => new Promise((resolve) => setImmediate(resolve));
const editBid = (
  bidId: string,
  bidder: string,
  amount: number,
  commandId: string,
): AuctionCommand => ({
  type: 'EditBid',
  data: { auctionId: A, bidId, amount },
  metadata: { commandId, correlationId: commandId, actorId: bidder, at: iso(T0 + 1500) },
});
const storedTypes = async (auctionId = A) =>
  (await env.store.readStream(auctionStream(auctionId))).map((e) => e.type);
/** How many events of the stream were written by this command. */
const writtenBy = async (command: AuctionCommand) =>
  (await env.store.readStream(auctionStream(command.data.auctionId))).filter(
    (e) => (e.metadata as { commandId: string }).commandId === command.metadata.commandId,
  ).length;

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
    const amounts = raises(300, dollars(100));
    const outcomes = await Promise.all(
      amounts.map((amount, i) => bus.send(placeBid(A, `bidder-${i % 7}`, amount))),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(store.appends.length).toBeLessThanOrEqual(2);
    const revisions = outcomes.map((o) => (o.ok ? o.revision : -1));
    expect(revisions).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const stored = await env.store.readStream(auctionStream(A));
    expect(stored).toHaveLength(301);
    expect(verifyChain(auctionStream(A), stored)).toMatchObject({ ok: true, length: 301 });
    const last = outcomes[299];
    expect(last?.ok && last.currentBid).toBe(amounts[299]);
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
    const raise = bus.send(placeBid(A, 'bob', dollars(155)));
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
    expect(codeOf(await bus.send(placeBid(A, 'bob', dollars(155))))).toBe('ok');
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
        bus.send(placeBid(A, 'carol', dollars(305))),
      ]);
      expect(codeOf(stale)).toBe('BID_TOO_LOW');
      expect(codeOf(raised)).toBe('ok');
      expect(raised.ok && raised.revision).toBe(3);
      const stored = await env.store.readStream(auctionStream(A));
      expect(stored.map((e) => (e.data as { amount?: number }).amount)).toEqual([
        undefined,
        dollars(120),
        dollars(300),
        dollars(305),
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
      expect(codeOf(await registry.send(placeBid(A, 'bob', dollars(155))))).toBe('ok');
    } finally {
      await registry.close();
    }
  });

  it('refuses commands once closed, after finishing those in flight', async () => {
    const inFlight = bus.send(placeBid(A, 'alice', dollars(150)));
    await bus.close();
    expect(codeOf(await inFlight)).toBe('ok');
    await expect(bus.send(placeBid(A, 'bob', dollars(155)))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});

describe('a redelivered command (same command id) has its effect once and gets its original outcome', () => {
  it('sent again after it was answered: the same outcome, nothing appended', async () => {
    const bid = placeBid(A, 'alice', dollars(150));
    const first = await bus.send(bid);
    expect(codeOf(first)).toBe('ok');
    expect(codeOf(await bus.send(placeBid(A, 'bob', dollars(160))))).toBe('ok');
    const again = await bus.send(bid);
    expect(again).toStrictEqual(first);
    expect(again.ok && again.currentBid).toBe(dollars(150));
    expect(store.appends).toHaveLength(2);
    expect(await writtenBy(bid)).toBe(1);
    expect(await storedTypes()).toEqual(['AuctionCreated', 'BidPlaced', 'BidPlaced']);
  });

  it('sent twice at once (one batch): both get the same outcome, one event', async () => {
    const bid = placeBid(A, 'alice', dollars(150));
    const [first, second] = await Promise.all([bus.send(bid), bus.send(bid)]);
    expect(codeOf(first)).toBe('ok');
    expect(second).toStrictEqual(first);
    expect(store.appends).toHaveLength(1);
    expect(store.appends[0]?.events).toHaveLength(1);
    expect(await writtenBy(bid)).toBe(1);
  });

  it('sent again while its append is in flight: waits for the same outcome', async () => {
    const held = gate();
    store.before = () => held.promise;
    const bid = placeBid(A, 'alice', dollars(150));
    const first = bus.send(bid);
    await flushes();
    expect(store.appends).toHaveLength(1);
    const second = bus.send(bid);
    const other = bus.send(placeBid(A, 'bob', dollars(160)));
    await flushes();
    held.open();
    const [a, b, c] = await Promise.all([first, second, other]);
    expect(codeOf(a)).toBe('ok');
    expect(b).toBe(a);
    expect(codeOf(c)).toBe('ok');
    expect(store.appends).toHaveLength(2);
    expect(store.appends[1]?.events).toHaveLength(1);
    expect(await writtenBy(bid)).toBe(1);
  });

  it('after the registry dropped its actor, or on a fresh registry: the original outcome from the stream', async () => {
    const clock = new ManualClock(T0);
    const registry = new AuctionActorRegistry({ store, clock, idleMs: 60_000 });
    const fresh = new AuctionActorRegistry({ store: env.open() });
    try {
      const bid = placeBid(A, 'alice', dollars(150));
      const first = await registry.send(bid);
      expect(codeOf(first)).toBe('ok');
      expect(codeOf(await registry.send(placeBid(A, 'bob', dollars(170))))).toBe('ok');
      clock.advance(120_000);
      expect(registry.size).toBe(0);
      const appends = store.appends.length;
      expect(await registry.send(bid)).toStrictEqual(first);
      expect(await fresh.send(bid)).toStrictEqual(first);
      expect(store.appends).toHaveLength(appends);
      expect(await writtenBy(bid)).toBe(1);
    } finally {
      await registry.close();
      await fresh.close();
    }
  });

  it('committed by another node, then sent to this stale actor: the original outcome, learned on the conflict', async () => {
    const other = new AuctionActorRegistry({ store: env.open() });
    try {
      // This actor has read the stream up to the auction's creation; the other node writes on.
      expect(codeOf(await other.send(placeBid(A, 'carol', dollars(120))))).toBe('ok');
      const bid = placeBid(A, 'alice', dollars(150));
      const first = await other.send(bid);
      expect(codeOf(first)).toBe('ok');
      expect(bus.snapshotOf(A)?.revision).toBe(0);
      const again = await bus.send(bid);
      expect(again).toStrictEqual(first);
      expect(await writtenBy(bid)).toBe(1);
      // Its one append was refused (the store holds these event ids elsewhere); the re-read taught it.
      expect(store.appends).toHaveLength(1);
      expect(bus.snapshotOf(A)?.revision).toBe(2);
      expect(codeOf(await bus.send(placeBid(A, 'bob', dollars(150))))).toBe('BID_TOO_LOW');
    } finally {
      await other.close();
    }
  });

  it('committed by another node, then refused by this stale actor: the refusal is checked against the head', async () => {
    const other = new AuctionActorRegistry({ store: env.open() });
    try {
      const bid = placeBid(A, 'alice', dollars(150));
      expect(codeOf(await other.send(bid))).toBe('ok');
      const edit = editBid(bid.data.bidId, 'alice', dollars(200), 'edit-1');
      const first = await other.send(edit);
      expect(codeOf(first)).toBe('ok');
      // Against this actor's state (no bid yet) the edit would be BID_NOT_FOUND.
      const again = await bus.send(edit);
      expect(again).toStrictEqual(first);
      expect(again.ok && again.currentBid).toBe(dollars(200));
      expect(await writtenBy(edit)).toBe(1);
      expect(store.appends).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('a batch whose events another node already stored in place still has its refusals checked against the head', async () => {
    const other = new AuctionActorRegistry({ store: env.open() });
    try {
      const first = placeBid(A, 'alice', dollars(150));
      const second = placeBid(A, 'bob', dollars(160));
      const edit = editBid(second.data.bidId, 'bob', dollars(200), 'edit-bob');
      const there = [];
      for (const command of [first, second, edit]) there.push(await other.send(command));
      // This actor decides both against revision 0: `first` as the other node did, `edit` as
      // BID_NOT_FOUND. The store finds `first`'s event in place and writes nothing.
      const here = await Promise.all([bus.send(first), bus.send(edit)]);
      expect(store.appends).toHaveLength(1);
      expect(here).toStrictEqual([there[0], there[2]]);
      expect(await storedTypes()).toEqual([
        'AuctionCreated',
        'BidPlaced',
        'BidPlaced',
        'BidEdited',
      ]);
    } finally {
      await other.close();
    }
  });

  it('sent to two nodes at once: one commits it, the other answers the same outcome', async () => {
    const other = new AuctionActorRegistry({ store: env.open() });
    try {
      expect(codeOf(await other.send(placeBid(A, 'carol', dollars(120))))).toBe('ok');
      const bid = placeBid(A, 'alice', dollars(150));
      const [here, there] = await Promise.all([bus.send(bid), other.send(bid)]);
      expect(codeOf(here)).toBe('ok');
      expect(here).toStrictEqual(there);
      expect(await writtenBy(bid)).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('CreateAuction retried: the original outcome, not AUCTION_ALREADY_EXISTS', async () => {
    const create = createAuction('auction-2');
    const first = await bus.send(create);
    expect(codeOf(first)).toBe('ok');
    expect(await bus.send(create)).toStrictEqual(first);
    const fresh = new AuctionActorRegistry({ store: env.open() });
    try {
      expect(await fresh.send(create)).toStrictEqual(first);
    } finally {
      await fresh.close();
    }
    expect(await storedTypes('auction-2')).toEqual(['AuctionCreated']);
  });

  it('a command of a failed append was not committed: its retry is decided and committed afresh', async () => {
    const held = gate();
    store.before = async () => {
      if (store.appends.length === 1) {
        await held.promise;
        throw new Error('disk full');
      }
    };
    const bid = placeBid(A, 'alice', dollars(150));
    const first = bus.send(bid);
    await flushes();
    const duplicate = bus.send(bid);
    held.open();
    const failure = await first.catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'UNAVAILABLE' });
    expect(await duplicate.catch((error: unknown) => error)).toBe(failure);
    expect(await writtenBy(bid)).toBe(0);
    const retried = await bus.send(bid);
    expect(codeOf(retried)).toBe('ok');
    expect(retried.ok && retried.revision).toBe(1);
    expect(store.appends).toHaveLength(2);
    expect(await writtenBy(bid)).toBe(1);
    expect(await bus.send(bid)).toStrictEqual(retried);
  });

  it("learned from the stream, the position is that of the command's own last event", async () => {
    const bid = placeBid(A, 'alice', dollars(150));
    const [first, later] = await Promise.all([
      bus.send(bid),
      bus.send(placeBid(A, 'bob', dollars(160))),
    ]);
    expect(store.appends).toHaveLength(1);
    // Both were answered with the position of their append's last event.
    expect(first?.ok && first.position).toBe(later?.ok && later.position);
    expect(await bus.send(bid)).toStrictEqual(first);
    const fresh = new AuctionActorRegistry({ store: env.open() });
    try {
      const again = await fresh.send(bid);
      const [stored] = (await env.store.readStream(auctionStream(A))).filter(
        (e) => (e.metadata as { commandId: string }).commandId === bid.metadata.commandId,
      );
      expect(again).toStrictEqual({ ...first, position: stored?.position });
    } finally {
      await fresh.close();
    }
  });

  it('refusals and no-ops are not in the stream: a retry is decided again', async () => {
    const bid = placeBid(A, 'alice', dollars(150));
    const edit = editBid(bid.data.bidId, 'alice', dollars(200), 'edit-early');
    expect(codeOf(await bus.send(edit))).toBe('BID_NOT_FOUND');
    expect(codeOf(await bus.send(bid))).toBe('ok');
    expect(codeOf(await bus.send(edit))).toBe('ok');
    const close = closeAuction(A, T0 + 4_000_000);
    const closed = await bus.send(close);
    expect(closed.ok && closed.events.map((e) => e.type)).toEqual(['AuctionClosed']);
    expect(await bus.send(close)).toStrictEqual(closed);
    const secondClose = closeAuction(A, T0 + 4_000_001);
    const noop = await bus.send(secondClose);
    expect(noop).toMatchObject({ ok: true, events: [], revision: 3, position: undefined });
    expect(await bus.send(secondClose)).toStrictEqual(noop);
    expect(await storedTypes()).toEqual([
      'AuctionCreated',
      'BidPlaced',
      'BidEdited',
      'AuctionClosed',
    ]);
  });
});

describe('a command id sent again with another request (Idempotency-Key reused)', () => {
  const digest = (text: string) => createHash('sha256').update(text).digest('hex');
  const keyed = (command: AuctionCommand, request: string): AuctionCommand => ({
    ...command,
    metadata: { ...command.metadata, requestDigest: digest(request) },
  });
  const asked = (bid: PlaceBid, amount: number): AuctionCommand =>
    keyed({ ...bid, data: { ...bid.data, amount } }, `bid ${amount}`);

  it('is refused, changing nothing: answered, in flight, after a reload from the stream and from a snapshot', async () => {
    const bid = placeBid(A, 'alice', dollars(150));
    const held = gate();
    store.before = () => held.promise;
    const first = bus.send(asked(bid, dollars(150)));
    await flushes();
    expect(codeOf(await bus.send(asked(bid, dollars(300))))).toBe('IDEMPOTENCY_KEY_REUSED');
    held.open();
    const answered = await first;
    expect(codeOf(answered)).toBe('ok');
    expect(await bus.send(asked(bid, dollars(150)))).toStrictEqual(answered);
    expect(codeOf(await bus.send(asked(bid, dollars(300))))).toBe('IDEMPOTENCY_KEY_REUSED');

    const folded = new AuctionActorRegistry({ store: env.open(), snapshots: false });
    const clock = new ManualClock(T0);
    const snapshotted = new AuctionActorRegistry({ store: env.open(), clock, idleMs: 1000 });
    try {
      expect(codeOf(await folded.send(asked(bid, dollars(300))))).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(codeOf(await snapshotted.send(placeBid(A, 'bob', dollars(200))))).toBe('ok');
      clock.advance(5000);
      expect(snapshotted.size).toBe(0);
      // The dropped actor's snapshot is written with the store's next append.
      expect(codeOf(await snapshotted.send(createAuction('auction-2')))).toBe('ok');
      expect(codeOf(await snapshotted.send(asked(bid, dollars(300))))).toBe(
        'IDEMPOTENCY_KEY_REUSED',
      );
      expect(codeOf(await snapshotted.send(asked(bid, dollars(150))))).toBe('ok');
    } finally {
      await folded.close();
      await snapshotted.close();
    }
    expect(await writtenBy(bid)).toBe(1);
    expect(await storedTypes()).toEqual(['AuctionCreated', 'BidPlaced', 'BidPlaced']);
  });

  it('keeps in the stream only a salted digest of the request', async () => {
    const bid = keyed(placeBid(A, 'alice', dollars(150)), 'bid 15000');
    expect(codeOf(await bus.send(bid))).toBe('ok');
    const [stored] = (await env.store.readStream(auctionStream(A))).slice(-1);
    const metadata = stored?.metadata as { request?: string; salt?: string };
    expect(metadata.request).toMatch(/^[0-9a-f]{64}$/);
    expect(metadata.request).not.toBe(bid.metadata.requestDigest);
    expect(JSON.stringify(stored)).not.toContain(bid.metadata.requestDigest);
  });
});

describe("a bidding command's outcome carries its bid as it stands after the command", () => {
  const B = 'auction-bid-outcome';
  const MINUTE = 60_000;
  const at = (ms: number) => ({ at: iso(T0 + ms) });
  const edit = (
    bidId: string,
    bidder: string,
    change: { amount?: number; maxAmount?: number },
    when: number,
  ): AuctionCommand => ({
    type: 'EditBid',
    data: { auctionId: B, bidId, ...change },
    metadata: { ...placeBid(B, bidder, 0).metadata, ...at(when) },
  });
  const withMax = (command: PlaceBid, maxAmount: number): PlaceBid => ({
    ...command,
    data: { ...command.data, maxAmount },
  });
  const bidOf = (outcome: CommandOutcome) => (outcome.ok ? outcome.bid : undefined);

  /** Places, answers, raises a maximum and edits in the soft-close window; returns each command and outcome. */
  const bidding = async (registry: AuctionActorRegistry) => {
    const create = createAuction(B, {
      endsAt: T0 + 10 * MINUTE,
      increments: 'one-dollar',
      softClose: { windowMs: 2 * MINUTE, extensionMs: 2 * MINUTE },
    });
    const alice = withMax(placeBid(B, 'alice', dollars(100), T0 + 1000), dollars(300));
    const bob = withMax(placeBid(B, 'bob', dollars(150), T0 + 2000), dollars(500));
    const raise = edit(alice.data.bidId, 'alice', { maxAmount: dollars(600) }, 3000);
    const late = edit(bob.data.bidId, 'bob', { amount: dollars(700) }, 9 * MINUTE);
    const sent: [AuctionCommand, CommandOutcome][] = [];
    for (const command of [create, alice, bob, raise, late])
      sent.push([command, await registry.send(command)]);
    return { sent, alice, bob };
  };

  it('after a placement, an automatic answer, a maximum raise and an edit that moved the end', async () => {
    const { sent, alice, bob } = await bidding(bus);
    const [create, placed, answered, raised, edited] = sent.map(([, outcome]) => outcome);
    expect(create && codeOf(create)).toBe('ok');
    expect(create && 'bid' in create).toBe(false);
    const common = { retracted: false, placedAt: iso(T0 + 1000) };
    expect(placed && bidOf(placed)).toStrictEqual({
      ...common,
      bidId: alice.data.bidId,
      bidderId: 'alice',
      amount: dollars(100),
      maxAmount: dollars(300),
      automatic: false,
      entryRevision: 1,
      entryAmount: dollars(100),
    });
    // Bob's maximum outranks Alice's: his own placement is lifted to one dollar over hers.
    expect(answered && bidOf(answered)).toStrictEqual({
      bidId: bob.data.bidId,
      bidderId: 'bob',
      amount: dollars(301),
      maxAmount: dollars(500),
      placedAt: iso(T0 + 2000),
      automatic: true,
      retracted: false,
      entryRevision: 2,
      entryAmount: dollars(150),
    });
    // Her raised maximum takes the lead back through an automatic bid at the same command.
    expect(raised && bidOf(raised)).toStrictEqual({
      ...common,
      bidId: alice.data.bidId,
      bidderId: 'alice',
      amount: dollars(501),
      maxAmount: dollars(600),
      automatic: true,
      entryRevision: 4,
      entryAmount: dollars(100),
    });
    expect(edited && bidOf(edited)).toStrictEqual({
      bidId: bob.data.bidId,
      bidderId: 'bob',
      amount: dollars(700),
      maxAmount: dollars(700),
      placedAt: iso(T0 + 2000),
      automatic: false,
      retracted: false,
      entryRevision: 6,
      entryAmount: dollars(700),
      endsAt: iso(T0 + 11 * MINUTE),
    });
    expect(edited).toMatchObject({ ok: true, currentBid: dollars(700), revision: 6 });
  });

  it('after a retraction and a purchase', async () => {
    const C = 'auction-retract-buy';
    expect(codeOf(await bus.send(createAuction(C, { endsAt: T0 + 24 * 60 * MINUTE })))).toBe('ok');
    const placed = placeBid(C, 'carol', dollars(120));
    expect(codeOf(await bus.send(placed))).toBe('ok');
    const retracted = await bus.send(retractBid(C, 'carol', placed.data.bidId));
    expect(bidOf(retracted)).toMatchObject({
      bidId: placed.data.bidId,
      amount: dollars(120),
      retracted: true,
      entryRevision: 2,
    });
    const D = 'auction-buy-now';
    const create = createAuction(D);
    const withPrice = { ...create, data: { ...create.data, buyNowPrice: dollars(400) } };
    expect(codeOf(await bus.send(withPrice))).toBe('ok');
    const buy: AuctionCommand = {
      type: 'BuyNow',
      data: { auctionId: D, bidId: 'bought', price: dollars(400) },
      metadata: placeBid(D, 'dave', 0).metadata,
    };
    const bought = await bus.send(buy);
    expect(bought).toMatchObject({ ok: true, status: 'Sold' });
    expect(bidOf(bought)).toMatchObject({
      bidId: 'bought',
      bidderId: 'dave',
      amount: dollars(400),
    });
    const closed = await bus.send(closeAuction(C, T0 + 25 * 60 * MINUTE));
    expect(codeOf(closed)).toBe('ok');
    expect('bid' in closed).toBe(false);
  });

  it('redelivered, it is answered alike: from memory, after a reload from the stream and from a snapshot', async () => {
    const registry = new AuctionActorRegistry({ store: env.store });
    const folded = new AuctionActorRegistry({ store: env.open(), snapshots: false });
    const snapshotted = new AuctionActorRegistry({ store: env.open() });
    try {
      const { sent } = await bidding(registry);
      expect(sent.every(([, outcome]) => outcome.ok)).toBe(true);
      expect(sent.map(([, outcome]) => bidOf(outcome)?.entryRevision)).toEqual([
        undefined,
        1,
        2,
        4,
        6,
      ]);
      const length = (await env.store.readStream(auctionStream(B))).length;
      for (const [command, outcome] of sent)
        expect(await registry.send(command)).toStrictEqual(outcome);
      for (const [command, outcome] of sent)
        expect(await folded.send(command)).toStrictEqual(outcome);
      await registry.drop(() => true);
      await registry.snapshotsSaved();
      expect((await env.store.loadSnapshot(auctionStream(B)))?.revision).toBe(length - 1);
      for (const [command, outcome] of sent)
        expect(await snapshotted.send(command)).toStrictEqual(outcome);
      expect(await env.store.readStream(auctionStream(B))).toHaveLength(length);
    } finally {
      await registry.close();
      await folded.close();
      await snapshotted.close();
    }
  });
});
