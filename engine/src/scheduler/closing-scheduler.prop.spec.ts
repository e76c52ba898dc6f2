import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { auctionStream, minimumRaise } from '@auction/contracts';
import { AuctionActorRegistry } from '../auction/actor-registry';
import { seedFixedCategories } from '../category/categories';
import { T0, createAuction, iso, placeBid } from '../testing/commands';
import { ManualClock } from '../testing/manual-clock';
import { tempSqliteStore } from '../testing/stores';
import { ClosingScheduler } from './closing-scheduler';

const numRuns = Math.max(10, Math.round(Number(process.env.FC_NUM_RUNS ?? 300) / 10));
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const LENGTH = 10 * 60_000;

/**
 * The real actor and the real closing scheduler on a manual clock, with bids landing around the
 * end as it stands: a bid before that end is never refused (the auction never ends while a bid in
 * its window is unanswered), one at or after it always is, and the auction closes exactly once,
 * no earlier than the end the soft close moved it to.
 */
const bidsAroundTheEnd = fc.asyncProperty(
  fc.record({
    windowMs: fc.constantFrom(1_000, 30_000, 120_000),
    extensionMs: fc.constantFrom(1_000, 45_000, 120_000),
    // When each bid lands, relative to the end as it stands (at or after it: too late).
    offsets: fc.array(
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: -150_000, max: -1 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, 1, 2_000) },
      ),
      { minLength: 1, maxLength: 8 },
    ),
  }),
  async ({ windowMs, extensionMs, offsets }) => {
    const env = tempSqliteStore();
    const clock = new ManualClock(T0);
    const bus = new AuctionActorRegistry({ store: env.store, clock });
    const scheduler = new ClosingScheduler({ store: env.store, bus, clock, retryMs: 5_000 });
    // A timer the scheduler sets for a time already passed runs on the next tick, as a real one would.
    const settle = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      clock.advance(0);
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    try {
      await seedFixedCategories(env.store, iso(T0));
      await bus.send(
        createAuction('a1', { endsAt: T0 + LENGTH, softClose: { windowMs, extensionMs } }),
      );
      await scheduler.start();
      let end = T0 + LENGTH;
      let amount = 0;
      for (const [i, offset] of offsets.entries()) {
        clock.advance(Math.max(0, end + offset - clock.now()));
        await settle();
        const now = clock.now();
        const next = amount === 0 ? 10_000 : minimumRaise(amount, 'one-dollar');
        const outcome = await bus.send(placeBid('a1', `bidder-${i % 3}`, next, now));
        expect(outcome.ok, `bid ${i} at end${now - end >= 0 ? '+' : ''}${now - end} ms`).toBe(
          now < end,
        );
        if (!outcome.ok) continue;
        amount = next;
        if (end - now <= windowMs) end = Math.max(end, now + extensionMs);
      }
      clock.advance(Math.max(0, end - clock.now()) + 1);
      const closes = async () =>
        (await env.store.readStream(auctionStream('a1'))).filter((e) => e.type === 'AuctionClosed');
      await vi.waitFor(async () => {
        clock.advance(0);
        expect(await closes()).toHaveLength(1);
      });
      clock.advance(LENGTH);
      await settle();
      const [closed] = await closes();
      expect(await closes()).toHaveLength(1);
      expect(Date.parse((closed?.data as { at: string }).at)).toBeGreaterThanOrEqual(end);
    } finally {
      await scheduler.stop();
      await bus.close();
      await env.cleanup();
    }
  },
);

describe('closing scheduler with soft close', () => {
  it(
    'never ends an auction while a bid before its moving end is unanswered, and closes it once',
    async () => {
      await fc.assert(bidsAroundTheEnd, { numRuns, seed });
    },
    Math.max(60_000, numRuns * 2_000),
  );
});
