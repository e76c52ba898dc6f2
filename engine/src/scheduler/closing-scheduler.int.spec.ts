import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auctionStream } from '@auction/contracts';
import { AuctionActorRegistry } from '../auction/actor-registry';
import { seedFixedCategories } from '../category/categories';
import type { CommandBus } from '../command-bus/command-bus';
import { T0, createAuction, iso, placeBid } from '../testing/commands';
import { ManualClock } from '../testing/manual-clock';
import { tempSqliteStore } from '../testing/stores';
import { ClosingScheduler, type ClosingSchedulerOptions } from './closing-scheduler';

const HOUR = 3_600_000;
let env: ReturnType<typeof tempSqliteStore>;
let bus: AuctionActorRegistry;
let clock: ManualClock;
const schedulers: ClosingScheduler[] = [];

const lastEvent = async (auctionId: string) =>
  (await env.store.readStream(auctionStream(auctionId))).at(-1);
const closedEvents = async (auctionId: string) =>
  (await env.store.readStream(auctionStream(auctionId))).filter((e) => e.type === 'AuctionClosed');
const startScheduler = async (
  over: CommandBus = bus,
  ownership?: ClosingSchedulerOptions['ownership'],
) => {
  const scheduler = new ClosingScheduler({
    store: env.store,
    bus: over,
    clock,
    retryMs: 5000,
    ...(ownership ? { ownership } : {}),
  });
  schedulers.push(scheduler);
  await scheduler.start();
  return scheduler;
};

beforeEach(async () => {
  env = tempSqliteStore();
  await seedFixedCategories(env.store, iso(T0));
  clock = new ManualClock(T0);
  bus = new AuctionActorRegistry({ store: env.store, clock });
});

afterEach(async () => {
  for (const s of schedulers.splice(0)) await s.stop();
  await bus.close();
  await env.cleanup();
});

describe('closing scheduler', () => {
  it('closes an auction at its end time, Sold to the highest bidder', async () => {
    await bus.send(createAuction('a1', { endsAt: T0 + HOUR }));
    await bus.send(placeBid('a1', 'alice', 15_000, T0 + 10));
    await bus.send(placeBid('a1', 'bob', 16_000, T0 + 20));
    await startScheduler();
    clock.advance(HOUR - 1);
    await new Promise((r) => setTimeout(r, 20));
    expect((await lastEvent('a1'))?.type).toBe('BidPlaced');
    clock.advance(1);
    await vi.waitFor(async () => expect((await lastEvent('a1'))?.type).toBe('AuctionClosed'));
    expect((await lastEvent('a1'))?.data).toMatchObject({
      outcome: 'Sold',
      winnerId: 'bob',
      finalPrice: 16_000,
      at: iso(T0 + HOUR),
    });
  });

  it('follows an end that bids in the soft-close window keep moving, and closes once, at the last', async () => {
    const window = 2 * 60_000;
    await bus.send(
      createAuction('a1', {
        endsAt: T0 + HOUR,
        softClose: { windowMs: window, extensionMs: window },
      }),
    );
    await startScheduler();
    let end = T0 + HOUR;
    // Three bids, each a second before the end as it stands, each moving it two minutes on.
    for (const [i, bidder] of ['alice', 'bob', 'carol'].entries()) {
      clock.advance(end - 1000 - clock.now());
      const outcome = await bus.send(placeBid('a1', bidder, 15_000 + i * 1000, clock.now()));
      expect(outcome.ok).toBe(true);
      end = clock.now() + window;
      expect((await lastEvent('a1'))?.data).toMatchObject({ endsAt: iso(end) });
      // The old end passes: the scheduler asks, is told the new end, and waits for it.
      clock.advance(1000);
      await new Promise((r) => setTimeout(r, 20));
      expect(await closedEvents('a1')).toEqual([]);
    }
    clock.advance(end - clock.now() - 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await closedEvents('a1')).toEqual([]);
    clock.advance(1);
    await vi.waitFor(async () => expect(await closedEvents('a1')).toHaveLength(1));
    expect((await lastEvent('a1'))?.data).toMatchObject({
      outcome: 'Sold',
      winnerId: 'carol',
      at: iso(end),
    });
    clock.advance(HOUR);
    await new Promise((r) => setTimeout(r, 20));
    expect(await closedEvents('a1')).toHaveLength(1);
  });

  it('learns of auctions created after it started, and of end times that move', async () => {
    await startScheduler();
    await bus.send(createAuction('a1', { endsAt: T0 + HOUR }));
    await bus.send({
      type: 'EditAuction',
      data: { auctionId: 'a1', endsAt: iso(T0 + 2 * HOUR) },
      metadata: {
        commandId: 'c-edit',
        correlationId: 'c-edit',
        actorId: 'seller',
        at: iso(T0 + 5),
      },
    });
    await vi.waitFor(() => expect(schedulersPending()).toEqual([['a1', T0 + 2 * HOUR]]));
    clock.advance(HOUR);
    await new Promise((r) => setTimeout(r, 20));
    expect(await closedEvents('a1')).toHaveLength(0);
    clock.advance(HOUR);
    await vi.waitFor(async () => expect(await closedEvents('a1')).toHaveLength(1));
    expect((await lastEvent('a1'))?.data).toMatchObject({ outcome: 'Expired' });
  });

  it('on start, closes every auction whose end passed while it was down, and only those', async () => {
    await bus.send(createAuction('past-1', { endsAt: T0 + 60_000 }));
    await bus.send(createAuction('past-2', { endsAt: T0 + 120_000 }));
    await bus.send(createAuction('future', { endsAt: T0 + 24 * HOUR }));
    await bus.send(createAuction('cancelled', { endsAt: T0 + 60_000 }));
    await bus.send({
      type: 'CancelAuction',
      data: { auctionId: 'cancelled', reason: 'seller' },
      metadata: {
        commandId: 'c-cancel',
        correlationId: 'c-cancel',
        actorId: 'seller',
        at: iso(T0 + 5),
      },
    });
    clock.advance(HOUR);
    const scheduler = await startScheduler();
    expect(await closedEvents('past-1')).toHaveLength(1);
    expect(await closedEvents('past-2')).toHaveLength(1);
    expect(await closedEvents('future')).toHaveLength(0);
    expect(await closedEvents('cancelled')).toHaveLength(0);
    expect([...scheduler.pending().keys()]).toEqual(['future']);
  });

  it('two schedulers closing the same auction write one AuctionClosed', async () => {
    await bus.send(createAuction('a1', { endsAt: T0 + 60_000 }));
    const otherBus = new AuctionActorRegistry({ store: env.open(), clock });
    try {
      clock.advance(HOUR);
      await Promise.all([startScheduler(), startScheduler(otherBus)]);
      expect(await closedEvents('a1')).toHaveLength(1);
    } finally {
      await otherBus.close();
    }
  });

  it('closes only the auctions this node owns, and closes the overdue ones it takes over', async () => {
    for (const id of ['mine', 'theirs']) await bus.send(createAuction(id, { endsAt: T0 + HOUR }));
    const owned = new Set(['mine']);
    const listeners = new Set<() => void>();
    await startScheduler(bus, {
      owns: (id) => owned.has(id),
      onOwnershipChange: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    clock.advance(HOUR);
    await vi.waitFor(async () => expect(await closedEvents('mine')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(await closedEvents('theirs')).toHaveLength(0);
    // The other node died; its partition, with the overdue auction, moves here.
    owned.add('theirs');
    for (const listener of listeners) listener();
    await vi.waitFor(async () => expect(await closedEvents('theirs')).toHaveLength(1));
    expect(schedulersPending()).toEqual([]);
  });

  it('retries a close the store could not take', async () => {
    await bus.send(createAuction('a1', { endsAt: T0 + 60_000 }));
    let failures = 1;
    const flaky: CommandBus = {
      send: (command) =>
        failures-- > 0 ? Promise.reject(new Error('store down')) : bus.send(command),
      close: () => Promise.resolve(),
    };
    clock.advance(HOUR);
    await startScheduler(flaky);
    expect(await closedEvents('a1')).toHaveLength(0);
    clock.advance(5000);
    await vi.waitFor(async () => expect(await closedEvents('a1')).toHaveLength(1));
  });
});

const schedulersPending = () => [...(schedulers[0]?.pending() ?? new Map<string, number>())];
