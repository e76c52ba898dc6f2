import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auctionStream, minimumRaise } from '@auction/contracts';
import { seedFixedCategories } from '../category/categories';
import { verifyChain } from '../chain/hash-chain';
import type { CommandOutcome } from '../command-bus/command-bus';
import type { SqliteEventStore } from '../event-store/sqlite-event-store';
import { T0, createAuction, iso, placeBid } from '../testing/commands';
import { tempSqliteStore } from '../testing/stores';
import { AuctionActorRegistry } from './actor-registry';

const A = 'durable';
const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 25);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

/**
 * A burst of concurrent raises, then a clean shutdown, or the store closed under the actor:
 * before its queued batch is flushed, or just after.
 */
const segment = fc.record({
  bids: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 25 }),
  ending: fc.constantFrom('graceful', 'abrupt-before-flush', 'abrupt-after-flush'),
});

describe('durability', () => {
  it('whatever was acknowledged is in the store after it is closed and reopened, even abruptly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 5 }), async (segments) => {
        const env = tempSqliteStore();
        await seedFixedCategories(env.store, iso(T0));
        let store: SqliteEventStore = env.store;
        let bus = new AuctionActorRegistry({ store });
        const acknowledged = new Map<string, number>();
        let amount = 10_000;
        try {
          expect((await bus.send(createAuction(A))).ok).toBe(true);
          for (const { bids, ending } of segments) {
            const sends = bids.map((b, i) => {
              amount = minimumRaise(amount, 'one-dollar');
              return bus.send(placeBid(A, `bidder-${b}`, amount, T0 + 1000 + i));
            });
            // Observed from the start: a send may fail while the store is still closing.
            const settled = Promise.allSettled(sends);
            if (ending === 'abrupt-after-flush')
              await new Promise((resolve) => setImmediate(resolve));
            if (ending !== 'graceful') await store.close();
            const outcomes = await settled;
            for (const o of outcomes) {
              if (o.status === 'fulfilled') {
                const outcome: CommandOutcome = o.value;
                if (outcome.ok) for (const e of outcome.events) acknowledged.set(e.id, e.revision);
              } else {
                expect((o.reason as { code?: string }).code).toBe('UNAVAILABLE');
              }
            }
            await bus.close();
            if (ending === 'graceful') await store.close();
            store = env.open();
            bus = new AuctionActorRegistry({ store });
            const stored = await store.readStream(auctionStream(A));
            const storedAt = new Map(stored.map((e) => [e.id, e.revision]));
            for (const [id, revision] of acknowledged) expect(storedAt.get(id)).toBe(revision);
            expect(verifyChain(auctionStream(A), stored).ok).toBe(true);
          }
          const next = await bus.send(
            placeBid(A, 'late', minimumRaise(amount, 'one-dollar'), T0 + 50_000),
          );
          expect(next.ok).toBe(true);
        } finally {
          await bus.close();
          await env.cleanup();
        }
      }),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });
});
