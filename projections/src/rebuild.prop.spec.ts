import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuctionCommand } from '@auction/contracts';
import { AuctionEvent } from '@auction/contracts';
import { SqliteEventStore, evolve, initialState, type AuctionState } from '@auction/engine';
import { timelineArbitrary } from '@auction/testkit';
import { allProjections } from './index';
import type { Doc } from './read-store/read-store';
import { SqliteReadStore } from './read-store/sqlite-read-store';
import { ProjectionRunner } from './runner/projection-runner';
import { EventLog } from './testing/event-log';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 15);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const collections = allProjections.flatMap((p) => p.collections.map((c) => c.name)).sort();

/** Bid ids are UUIDs the API makes, unique across auctions; the generated ones are per auction. */
const globalBidIds = (command: AuctionCommand): AuctionCommand =>
  'bidId' in command.data
    ? ({
        ...command,
        data: { ...command.data, bidId: `${command.data.auctionId}-${command.data.bidId}` },
      } as AuctionCommand)
    : command;

/** Several auctions' timelines, interleaved in a random order that keeps each one's own order. */
const historyArbitrary = fc
  .array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 3 })
  .chain((ids) =>
    fc.tuple(
      fc.tuple(
        ...[...new Set(ids)].map((i) =>
          timelineArbitrary({ auctionId: `auction-${i}`, maxLength: 25 }),
        ),
      ),
      fc.array(fc.nat(), { minLength: 200, maxLength: 200 }),
    ),
  )
  .map(([timelines, picks]) => {
    const queues = timelines.map((t) => [...t]);
    const merged: AuctionCommand[] = [];
    for (let i = 0; queues.some((q) => q.length > 0); i++) {
      const open = queues.filter((q) => q.length > 0);
      const next = open[(picks[i % picks.length] ?? 0) % open.length]?.shift();
      if (next) merged.push(globalBidIds(next));
    }
    return merged;
  });

/** The events the decider yields for the accepted commands (refusals leave no trace). */
const eventsOf = (commands: readonly AuctionCommand[]) => {
  const log = new EventLog();
  const categories = new Set<string>();
  for (const command of commands) {
    if (command.type === 'CreateAuction' && !categories.has(command.data.categoryId)) {
      categories.add(command.data.categoryId);
      log.category(command.data.categoryId, `Category ${command.data.categoryId}`);
    }
    try {
      log.send(command);
    } catch {
      // a refused command writes nothing
    }
  }
  return log.events;
};

const dumpAll = async (store: SqliteReadStore) => {
  const out: string[] = [];
  for (const name of collections) out.push(`${name} ${JSON.stringify(await store.find(name))}`);
  return out;
};

describe('read models', () => {
  it('built live in random batches equal a rebuild from zero, byte for byte, and agree with a fold of the events', async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArbitrary,
        fc.array(fc.integer({ min: 1, max: 15 }), { minLength: 1, maxLength: 10 }),
        async (commands, chunks) => {
          const dir = mkdtempSync(join(tmpdir(), 'rebuild-'));
          const events = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
          const live = new SqliteReadStore({ filename: join(dir, 'live.sqlite') });
          const fresh = new SqliteReadStore({ filename: join(dir, 'fresh.sqlite') });
          const liveRunner = new ProjectionRunner({
            source: events,
            store: live,
            projections: allProjections,
            batchSize: 4,
          });
          const freshRunner = new ProjectionRunner({
            source: events,
            store: fresh,
            projections: allProjections,
          });
          try {
            const history = eventsOf(commands);
            await liveRunner.start();
            let offset = 0;
            for (let i = 0; offset < history.length; i++) {
              const size = chunks[i % chunks.length] ?? 5;
              for (const e of history.slice(offset, offset + size)) {
                await events.append(
                  e.streamId,
                  [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }],
                  'any',
                );
              }
              offset += size;
            }
            const head = (await events.headPosition()) ?? 0;
            await liveRunner.waitFor(head);
            await freshRunner.start();
            await freshRunner.waitFor(head);
            expect(await dumpAll(live)).toEqual(await dumpAll(fresh));

            const folded = new Map<string, AuctionState>();
            for (const e of history) {
              if (!e.streamId.startsWith('auction-')) continue;
              const event = AuctionEvent.parse({ type: e.type, data: e.data });
              const id = event.data.auctionId;
              folded.set(id, evolve(folded.get(id) ?? initialState, event));
            }
            for (const [id, state] of folded) {
              const doc = (await live.get('catalog_auctions', id)) as Doc & Record<string, unknown>;
              expect(doc).toMatchObject({
                status: state.status,
                currentBid: state.currentBid,
                leadingBidId: state.leadingBidId,
                winnerId: state.winnerId,
                finalPrice: state.finalPrice,
                startingPrice: state.startingPrice,
                endsAt: state.endsAt,
              });
              const standing = [...state.bids.values()].filter((b) => !b.retracted);
              const bids = await live.find('catalog_bids', {
                where: { auctionId: id, retracted: false },
              });
              expect(bids.map((b) => [b._id, b.amount]).sort()).toEqual(
                standing.map((b) => [b.bidId, b.amount]).sort(),
              );
              expect(doc.bidCount).toBe(standing.length);
            }
          } finally {
            await liveRunner.stop();
            await freshRunner.stop();
            await live.close();
            await fresh.close();
            await events.close();
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });
});
