import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timelineArbitrary } from '@auction/testkit';
import { auctionStream } from '@auction/contracts';
import type { CommandOutcome } from '../command-bus/command-bus';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { AuctionActor, type Snapshot } from './actor';
import { AuctionActorRegistry } from './actor-registry';
import { decodeSnapshot, encodeSnapshot } from './snapshot';
import { stateToJSON } from './state';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 60);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const A = 'auction-1';

const view = (snapshot: Snapshot) => ({
  revision: snapshot.revision,
  headHash: snapshot.headHash,
  state: stateToJSON(snapshot.state),
  // The map's own order too: whatever iterates the bids sees them alike.
  bidOrder: [...snapshot.state.bids.keys()],
});

describe('snapshot + tail', () => {
  it('equals the full fold of the stream, and keeps every command exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        timelineArbitrary({ auctionId: A, maxLength: 30 }),
        fc.array(fc.boolean(), { minLength: 31, maxLength: 31 }),
        async (commands, evictAfter) => {
          const store = new SqliteEventStore({ filename: ':memory:' });
          const bus = new AuctionActorRegistry({
            store,
            categoryExists: () => Promise.resolve(true),
          });
          try {
            const outcomes: [(typeof commands)[number], CommandOutcome][] = [];
            for (const [index, command] of commands.entries()) {
              outcomes.push([command, await bus.send(command)]);
              if (evictAfter[index]) {
                await bus.drop(() => true);
                await bus.snapshotsSaved();
              }
            }
            // Where the registry's actor (snapshots and tails, as many times as evicted) stands.
            const live = bus.snapshotOf(A);
            await bus.drop(() => true);
            await bus.snapshotsSaved();
            const full = (await AuctionActor.load(store, A)).snapshot;
            if (live) expect(view(live)).toEqual(view(full));
            const reloaded = (await AuctionActor.load(store, A, {}, store)).snapshot;
            expect(view(reloaded)).toEqual(view(full));
            // A redelivered command is answered as the first time, and nothing is appended.
            const length = (await store.readStream(auctionStream(A))).length;
            for (const [command, outcome] of outcomes) {
              if (!outcome.ok || outcome.events.length === 0) continue;
              expect(await bus.send(command)).toEqual(outcome);
            }
            expect((await store.readStream(auctionStream(A))).length).toBe(length);
          } finally {
            await bus.close();
            await store.close();
          }
        },
      ),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });

  it('decodes what it encodes', async () => {
    await fc.assert(
      fc.asyncProperty(timelineArbitrary({ auctionId: A, maxLength: 30 }), async (commands) => {
        const store = new SqliteEventStore({ filename: ':memory:' });
        const bus = new AuctionActorRegistry({
          store,
          categoryExists: () => Promise.resolve(true),
          snapshots: false,
        });
        try {
          for (const command of commands) await bus.send(command);
          const actor = await AuctionActor.load(store, A);
          const stored = actor.toStoredSnapshot();
          if (!stored) return;
          const decoded = decodeSnapshot(stored);
          expect(decoded && view(decoded.view)).toEqual(view(actor.snapshot));
          const again =
            decoded &&
            encodeSnapshot(
              decoded.view,
              decoded.commands.map((c) => [c.commandId, c.record]),
            );
          expect(again).toEqual(stored);
        } finally {
          await bus.close();
          await store.close();
        }
      }),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });
});
