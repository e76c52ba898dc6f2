import { type RetractBid, auctionStream } from '@auction/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuctionActorRegistry } from '../auction/actor-registry';
import { Engine } from '../engine';
import { T0, createAuction, iso, placeBid, retractBid } from '../testing/commands';
import { ManualClock } from '../testing/manual-clock';
import { tempSqliteStore } from '../testing/stores';
import { AccountClosures } from './account-closures';

const LEAVER = 'leaver';

let env: ReturnType<typeof tempSqliteStore>;
let closures: AccountClosures;
let engine: Engine;
let otherNode: Engine;

beforeEach(async () => {
  env = tempSqliteStore();
  const clock = new ManualClock(T0 + 10_000);
  closures = new AccountClosures({ store: env.store, clock });
  await closures.load();
  engine = new Engine({ store: env.store, clock, closures });
  // Another node on the same log that has not heard of the closure yet.
  otherNode = new Engine({ store: env.store, clock });
  await engine.seedFixedCategories(iso(T0));
  closures.start(engine);
});

afterEach(async () => {
  await closures.stop();
  await Promise.all([engine.close(), otherNode.close()]);
  await env.cleanup();
});

const closeLeaver = () =>
  engine.closeAccount(LEAVER, {
    commandId: 'close-1',
    actorId: LEAVER,
    correlationId: 'close-1',
    at: iso(T0 + 5000),
  });

const typesOf = async (auctionId: string) =>
  (await env.store.readStream(auctionStream(auctionId))).map((event) => event.type);

const eventually = async (check: () => Promise<void>, ms = 5000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
};

describe('a closed account (its deletion has begun)', () => {
  it('can no longer bid, raise or sell, but can still retract and cancel', async () => {
    // It ends in a day: a bidder may retract only before an auction's last hour.
    const a1 = createAuction('a1', { seller: 'seller', endsAt: T0 + 24 * 3_600_000 });
    expect((await engine.send(a1)).ok).toBe(true);
    const own = await engine.send(createAuction('a2', { seller: LEAVER }));
    const bid = placeBid('a1', LEAVER, 20_000, T0 + 1000);
    expect((await engine.send(bid)).ok).toBe(true);
    await closeLeaver();

    for (const command of [
      placeBid('a1', LEAVER, 30_000, T0 + 6000),
      createAuction('a3', { seller: LEAVER, at: T0 + 6000 }),
    ]) {
      const outcome = await engine.send(command);
      expect(outcome).toMatchObject({ ok: false, rejection: { code: 'ACCOUNT_DELETED' } });
    }
    expect(own.ok).toBe(true);
    const retracted = await engine.send(retractBid('a1', LEAVER, bid.data.bidId, T0 + 7000));
    expect(retracted.ok).toBe(true);
    expect(await typesOf('a3')).toEqual([]);
    // Others bid on as before.
    expect((await engine.send(placeBid('a1', 'rival', 25_000, T0 + 8000))).ok).toBe(true);
  });

  it('is refused by the actors themselves, where another node’s commands are decided', async () => {
    const registry = new AuctionActorRegistry({ store: env.store, refuse: closures.refuse });
    try {
      expect((await registry.send(createAuction('a1', { seller: 'seller' }))).ok).toBe(true);
      await closeLeaver();
      const outcome = await registry.send(placeBid('a1', LEAVER, 20_000, T0 + 6000));
      expect(outcome).toMatchObject({ ok: false, rejection: { code: 'ACCOUNT_DELETED' } });
    } finally {
      await registry.close();
    }
  });

  it('is learned from the log at load: a restarted node refuses too', async () => {
    await closeLeaver();
    const restarted = new AccountClosures({ store: env.store });
    await restarted.load();
    expect(restarted.isClosed(LEAVER)).toBe(true);
    expect(restarted.unfinished()).toEqual([LEAVER]);
    expect(restarted.refuse(placeBid('a1', LEAVER, 20_000))?.code).toBe('ACCOUNT_DELETED');
    expect(restarted.refuse(placeBid('a1', 'rival', 20_000))).toBeUndefined();
  });

  it('has its bids and auctions undone when a node that had not heard decided them', async () => {
    expect((await engine.send(createAuction('a1', { seller: 'seller' }))).ok).toBe(true);
    await closeLeaver();
    const late = placeBid('a1', LEAVER, 20_000, T0 + 6000);
    expect((await otherNode.send(late)).ok).toBe(true);
    expect((await otherNode.send(createAuction('a2', { seller: LEAVER, at: T0 + 6000 }))).ok).toBe(
      true,
    );

    await eventually(async () => {
      expect(await typesOf('a1')).toEqual(['AuctionCreated', 'BidPlaced', 'BidRetracted']);
      expect(await typesOf('a2')).toEqual(['AuctionCreated', 'AuctionCancelled']);
    });
    const [retraction] = (await env.store.readStream(auctionStream('a1'))).slice(2);
    expect(retraction?.data).toMatchObject({
      bidId: late.data.bidId,
      bidderId: LEAVER,
      reason: 'account-deleted',
    });
    // Another node reacting to the same event (it has heard of the closure by then) sends the
    // same command: nothing more is written.
    const heard = new AccountClosures({ store: env.store });
    await heard.load();
    const thirdNode = new Engine({ store: env.store, closures: heard });
    const echoed = await thirdNode.send({
      type: 'RetractBid',
      data: { auctionId: 'a1', bidId: late.data.bidId, reason: 'account-deleted' },
      metadata: {
        commandId: (retraction?.metadata as { commandId: string }).commandId,
        actorId: LEAVER,
        correlationId: 'echo',
        at: iso(T0 + 20_000),
      },
    });
    await thirdNode.close();
    expect(echoed.ok).toBe(true);
    expect(await typesOf('a1')).toEqual(['AuctionCreated', 'BidPlaced', 'BidRetracted']);
  });

  it('lets only a closed account retract for its deletion, past the bidders’ rules', async () => {
    expect((await engine.send(createAuction('a1', { seller: 'seller' }))).ok).toBe(true);
    const bid = placeBid('a1', LEAVER, 20_000, T0 + 1000);
    expect((await engine.send(bid)).ok).toBe(true);
    const forDeletion = (at: number): RetractBid => ({
      type: 'RetractBid',
      data: { auctionId: 'a1', bidId: bid.data.bidId, reason: 'account-deleted' },
      metadata: {
        commandId: `delete-${at}`,
        actorId: LEAVER,
        correlationId: 'delete',
        at: iso(at),
      },
    });
    // Still open: the reason is the server's to give, and its user is refused.
    expect(await engine.send(forDeletion(T0 + 2000))).toMatchObject({
      ok: false,
      rejection: { code: 'FORBIDDEN' },
    });
    // A bidder's own retraction in the auction's last hour is refused; the deletion's is not.
    expect(await engine.send(retractBid('a1', LEAVER, bid.data.bidId, T0 + 2000))).toMatchObject({
      ok: false,
      rejection: { code: 'RETRACTION_CLOSING' },
    });
    await closeLeaver();
    expect((await engine.send(forDeletion(T0 + 7000))).ok).toBe(true);
    expect(await typesOf('a1')).toEqual(['AuctionCreated', 'BidPlaced', 'BidRetracted']);
  });

  it('leaves bids of users still open alone', async () => {
    expect((await engine.send(createAuction('a1', { seller: 'seller' }))).ok).toBe(true);
    await closeLeaver();
    expect((await otherNode.send(placeBid('a1', 'rival', 20_000, T0 + 6000))).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await closures.settled();
    expect(await typesOf('a1')).toEqual(['AuctionCreated', 'BidPlaced']);
  });
});
