import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AuctionCommand,
  AuctionEvent,
  type ErrorCode,
  auctionStream,
} from '@auction/contracts';
import { seedFixedCategories } from '../category/categories';
import { verifyChain } from '../chain/hash-chain';
import type { CommandOutcome } from '../command-bus/command-bus';
import type { RecordedEvent } from '../event-store/event-store';
import { T0, createAuction, iso } from '../test-support/commands';
import { InstrumentedStore } from '../test-support/instrumented-store';
import { tempSqliteStore } from '../test-support/stores';
import { AuctionActorRegistry } from './actor-registry';
import { decide } from './decide';
import { evolve } from './evolve';
import { initialState, stateToJSON } from './state';

const A = 'hot';
const ENDS_AT = T0 + 60_000;
const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 60);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const BIDDERS = ['alice', 'bob', 'carol', 'dave'] as const;

type Intent =
  | { kind: 'bid'; bidder: number; amount: number; atOffset: number }
  | { kind: 'edit'; bidder: number; target: number; amount: number; atOffset: number }
  | { kind: 'retract'; bidder: number; target: number; atOffset: number }
  | { kind: 'close'; atOffset: number };

/** Amounts from a narrow band, so equal and too-low bids race each other often. */
const amount = fc.integer({ min: 99, max: 112 }).map((d) => d * 100);
const atOffset = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 59_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 59_990, max: 60_010 }) },
);
const bidder = fc.integer({ min: 0, max: BIDDERS.length - 1 });
const target = fc.integer({ min: 0, max: 40 });
const intent: fc.Arbitrary<Intent> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('bid' as const), bidder, amount, atOffset }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('edit' as const), bidder, target, amount, atOffset }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('retract' as const), bidder, target, atOffset }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('close' as const),
      atOffset: fc.integer({ min: 60_000, max: 61_000 }),
    }),
  },
);
/** What the n-th append does: go through, fail before writing, or write and then report failure. */
const fault = fc.constantFrom('ok', 'ok', 'ok', 'ok', 'fail-before', 'fail-after');

const toCommands = (intents: Intent[]): AuctionCommand[] =>
  intents.map((it, i) => {
    const metadata = {
      commandId: `cmd-${i}`,
      correlationId: `corr-${i}`,
      actorId: it.kind === 'close' ? 'system' : (BIDDERS[it.bidder] as string),
      at: iso(T0 + it.atOffset),
    };
    switch (it.kind) {
      case 'bid':
        return {
          type: 'PlaceBid',
          data: { auctionId: A, bidId: `bid-${i}`, amount: it.amount },
          metadata,
        };
      case 'edit':
        return {
          type: 'EditBid',
          data: { auctionId: A, bidId: `bid-${it.target}`, amount: it.amount },
          metadata,
        };
      case 'retract':
        return { type: 'RetractBid', data: { auctionId: A, bidId: `bid-${it.target}` }, metadata };
      case 'close':
        return { type: 'CloseAuction', data: { auctionId: A }, metadata };
    }
  });

/** The highest amount among bids placed or edited and not retracted, from the events alone. */
const highestStanding = (events: readonly RecordedEvent[]): number => {
  const standing = new Map<string, number>();
  for (const { type, data } of events) {
    const d = data as { bidId: string; amount: number };
    if (type === 'BidPlaced' || type === 'BidEdited') standing.set(d.bidId, d.amount);
    if (type === 'BidRetracted') standing.delete(d.bidId);
  }
  return Math.max(0, ...standing.values());
};

/**
 * The invariants of design §3-4 over what the store holds after a run: the history is one valid
 * serial order of the acknowledged commands, nothing acknowledged is missing, nothing refused for
 * lack of the store is there, no bid lands at or after the end, the current bid is the highest
 * standing bid, and the chain verifies.
 */
const checkHistory = (
  stored: readonly RecordedEvent[],
  sent: readonly AuctionCommand[],
  outcomes: readonly PromiseSettledResult<CommandOutcome>[],
) => {
  expect(verifyChain(auctionStream(A), stored).ok).toBe(true);
  const byCommand = new Map<string, RecordedEvent[]>();
  for (const e of stored) {
    const id = (e.metadata as { commandId: string }).commandId;
    byCommand.set(id, [...(byCommand.get(id) ?? []), e]);
  }
  sent.forEach((command, i) => {
    const settled = outcomes[i] as PromiseSettledResult<CommandOutcome>;
    const written = byCommand.get(command.metadata.commandId) ?? [];
    if (settled.status === 'rejected') {
      expect((settled.reason as { code?: ErrorCode }).code).toBe('UNAVAILABLE');
      expect(written).toEqual([]);
    } else if (!settled.value.ok) {
      expect(written).toEqual([]);
    } else {
      expect(written.map((e) => e.revision)).toEqual(settled.value.events.map((e) => e.revision));
      expect(written.map((e) => e.type)).toEqual(settled.value.events.map((e) => e.type));
      if (command.type === 'PlaceBid' || command.type === 'EditBid') {
        expect(command.metadata.at < iso(ENDS_AT)).toBe(true);
      }
    }
  });
  let state = initialState;
  const commandsInOrder = [
    ...new Set(stored.map((e) => (e.metadata as { commandId: string }).commandId)),
  ];
  const byId = new Map(sent.map((c) => [c.metadata.commandId, c]));
  for (const commandId of commandsInOrder) {
    const command = byId.get(commandId);
    const written = byCommand.get(commandId) ?? [];
    if (!command) {
      state = written.reduce(
        (s, e) => evolve(s, AuctionEvent.parse({ type: e.type, data: e.data })),
        state,
      );
      continue;
    }
    const decision = decide(command, state);
    if (!decision.ok)
      throw new Error(
        `${commandId} is stored, but replayed it is refused: ${decision.rejection.code}`,
      );
    expect(decision.events).toEqual(written.map((e) => ({ type: e.type, data: e.data })));
    state = decision.events.reduce(evolve, state);
  }
  expect(state.currentBid).toBe(highestStanding(stored));
  for (const e of stored) {
    if (e.type === 'BidPlaced' || e.type === 'BidEdited') {
      expect((e.data as { at: string }).at < iso(ENDS_AT)).toBe(true);
    }
  }
  return state;
};

/** Runs every send to completion, letting the scheduler pick which pending append goes next. */
const drive = async (s: fc.Scheduler, sends: Promise<CommandOutcome>[]) => {
  let settled = false;
  const all = Promise.allSettled(sends).then((r) => {
    settled = true;
    return r;
  });
  while (!settled) {
    if (s.count() > 0) await s.waitOne();
    else await new Promise((resolve) => setImmediate(resolve));
  }
  return all;
};

describe('actors under random interleavings (fc.scheduler)', () => {
  it('one actor: the committed history is a valid serial order and holds every acknowledged command', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(intent, { minLength: 1, maxLength: 40 }),
        fc.array(fault, { maxLength: 30 }),
        async (s, intents, faults) => {
          const env = tempSqliteStore();
          const store = new InstrumentedStore(env.store);
          const bus = new AuctionActorRegistry({ store });
          try {
            await seedFixedCategories(env.store, iso(T0));
            expect((await bus.send(createAuction(A, { endsAt: ENDS_AT }))).ok).toBe(true);
            let appendNo = 0;
            store.before = async () => {
              const n = appendNo++;
              await s.schedule(Promise.resolve(), `append #${n}`);
              if (faults[n] === 'fail-before') throw new Error(`fault before append #${n}`);
            };
            store.after = (call) => {
              if (faults[appendNo - 1] === 'fail-after')
                throw new Error(`fault after ${call.events.length} events`);
            };
            const commands = toCommands(intents);
            const sends = commands.map((command, i) =>
              s.schedule(Promise.resolve(), `arrive ${i}`).then(() => bus.send(command)),
            );
            const outcomes = await drive(s, sends);
            const state = checkHistory(
              await env.store.readStream(auctionStream(A)),
              commands,
              outcomes,
            );
            expect(stateToJSON(bus.snapshotOf(A)?.state ?? initialState)).toEqual(
              stateToJSON(state),
            );
          } finally {
            await bus.close();
            await env.cleanup();
          }
        },
      ),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });

  it('two actors on one stream over one store (two nodes): still one valid serial order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.tuple(intent, fc.boolean()), { minLength: 1, maxLength: 40 }),
        async (s, plan) => {
          const env = tempSqliteStore();
          const storeA = new InstrumentedStore(env.store);
          const storeB = new InstrumentedStore(env.open());
          const nodes = [
            new AuctionActorRegistry({ store: storeA }),
            new AuctionActorRegistry({ store: storeB }),
          ];
          try {
            await seedFixedCategories(env.store, iso(T0));
            expect((await nodes[0]?.send(createAuction(A, { endsAt: ENDS_AT })))?.ok).toBe(true);
            for (const st of [storeA, storeB]) {
              st.before = (call) =>
                s
                  .schedule(
                    Promise.resolve(),
                    `${st === storeA ? 'A' : 'B'} append ${call.events.length}`,
                  )
                  .then(() => undefined);
            }
            const commands = toCommands(plan.map(([i]) => i));
            const sends = commands.map((command, i) =>
              s
                .schedule(Promise.resolve(), `arrive ${i}`)
                .then(() => (nodes[plan[i]?.[1] ? 1 : 0] as AuctionActorRegistry).send(command)),
            );
            const outcomes = await drive(s, sends);
            expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
            const stored = await env.store.readStream(auctionStream(A));
            const state = checkHistory(stored, commands, outcomes);
            const head = stored.length - 1;
            const upToDate = nodes
              .map((n) => n.snapshotOf(A))
              .filter((snap) => snap?.revision === head);
            expect(upToDate.length).toBeGreaterThan(0);
            for (const snap of upToDate)
              expect(stateToJSON(snap?.state ?? initialState)).toEqual(stateToJSON(state));
          } finally {
            for (const n of nodes) await n.close();
            await env.cleanup();
          }
        },
      ),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });
});
