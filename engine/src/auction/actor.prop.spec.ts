import Database from 'better-sqlite3';
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
import { T0, closeAuction, createAuction, iso } from '../testing/commands';
import { type AppendCall, InstrumentedStore } from '../testing/instrumented-store';
import { ManualClock } from '../testing/manual-clock';
import { tempSqliteStore } from '../testing/stores';
import { AuctionActorRegistry } from './actor-registry';
import { decide } from './decide';
import { evolve } from './evolve';
import type { AuctionState } from './decider-types';
import { initialState, stateToJSON } from './state';

const A = 'hot';
const ENDS_AT = T0 + 60_000;
const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 60);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const BIDDERS = ['alice', 'bob', 'carol', 'dave'] as const;

type Intent =
  | { kind: 'bid'; bidder: number; amount: number; atOffset: number }
  | { kind: 'edit'; bidder: number; target: number; own: boolean; amount: number; atOffset: number }
  | { kind: 'retract'; bidder: number; target: number; own: boolean; atOffset: number }
  | { kind: 'close'; atOffset: number };

/** Amounts from a narrow band, so equal and too-low bids race each other often. */
const amount = fc.integer({ min: 99, max: 112 }).map((d) => d * 100);
const atOffset = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 59_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 59_990, max: 60_010 }) },
);
const bidder = fc.integer({ min: 0, max: BIDDERS.length - 1 });
const target = fc.integer({ min: 0, max: 40 });
/** Whether an edit or retraction comes from the bidder of its target (when that is a bid). */
const own = fc.boolean();
const intent: fc.Arbitrary<Intent> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('bid' as const), bidder, amount, atOffset }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      bidder,
      target,
      own,
      amount,
      atOffset,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('retract' as const), bidder, target, own, atOffset }),
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
/**
 * A redelivery of the `of`-th command (modulo the number of commands): the same command object
 * sent again, at a random moment (`late`: only once its first delivery was answered, as a retry
 * after a timeout is), through node 1 or 0 of two, after the registry dropped its idle actors
 * (`evict`: the next send reloads the actor from the store, as after a handoff).
 */
const duplicate = fc.record({
  of: fc.nat(),
  node: fc.boolean(),
  evict: fc.boolean(),
  late: fc.boolean(),
});
type Duplicate = { of: number; node: boolean; evict: boolean; late: boolean };

/**
 * A redelivery after a handoff: through node 1, once the first delivery was answered; half of them
 * aimed at the edits, retractions and closes (whose duplicates a stale actor would refuse).
 */
const handedOff = (d: Duplicate, plan: readonly (readonly [Intent, boolean])[]): Duplicate => {
  const others = plan.flatMap(([it], i) => (it.kind === 'bid' ? [] : [i]));
  const aimed = d.of % 2 === 1 && others.length > 0;
  const of = aimed ? (others[Math.floor(d.of / 2) % others.length] as number) : d.of;
  return { ...d, of, node: true, late: true };
};

/** One delivery of a command: which command, through which node, when, after an eviction or not. */
interface Delivery {
  readonly command: number;
  readonly node: number;
  readonly evict: boolean;
  /** Sent only once the command's first delivery (the one at index `command`) has settled. */
  readonly late: boolean;
}

const deliveriesOf = (
  count: number,
  nodeOf: (i: number) => number,
  duplicates: readonly Duplicate[],
  nodes: number,
): Delivery[] => [
  ...Array.from({ length: count }, (_, i) => ({
    command: i,
    node: nodeOf(i),
    evict: false,
    late: false,
  })),
  ...duplicates.map((d) => ({
    command: d.of % count,
    node: nodes > 1 && d.node ? 1 : 0,
    evict: d.evict,
    late: d.late,
  })),
];

const actorOf = (intents: readonly Intent[], it: Intent): string => {
  if (it.kind === 'close') return 'system';
  const targeted = it.kind === 'bid' || !it.own ? undefined : intents[it.target];
  return BIDDERS[targeted?.kind === 'bid' ? targeted.bidder : it.bidder] as string;
};

const toCommands = (intents: Intent[]): AuctionCommand[] =>
  intents.map((it, i) => {
    const metadata = {
      commandId: `cmd-${i}`,
      correlationId: `corr-${i}`,
      actorId: actorOf(intents, it),
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

/** Events per command id, in stream order. */
const byCommandId = (stored: readonly RecordedEvent[]) => {
  const byCommand = new Map<string, RecordedEvent[]>();
  for (const e of stored) {
    const id = (e.metadata as { commandId: string }).commandId;
    byCommand.set(id, [...(byCommand.get(id) ?? []), e]);
  }
  return byCommand;
};

/**
 * The invariants of design §3-4 over what the store holds after a run: the history is one valid
 * serial order of the commands, each command's events are stored once (one contiguous run), no bid
 * lands at or after the end, the current bid is the highest standing bid, and the chain verifies.
 * Returns the final state and the state right after each command's events.
 */
const checkHistory = (stored: readonly RecordedEvent[], sent: readonly AuctionCommand[]) => {
  expect(verifyChain(auctionStream(A), stored).ok).toBe(true);
  const byCommand = byCommandId(stored);
  for (const written of byCommand.values()) {
    const first = written[0] as RecordedEvent;
    expect(written.map((e) => e.revision)).toEqual(written.map((_, i) => first.revision + i));
  }
  let state = initialState;
  const after = new Map<string, AuctionState>();
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
    if (command.type === 'PlaceBid' || command.type === 'EditBid') {
      expect(command.metadata.at < iso(ENDS_AT)).toBe(true);
    }
    state = decision.events.reduce(evolve, state);
    after.set(commandId, state);
  }
  expect(state.currentBid).toBe(highestStanding(stored));
  for (const e of stored) {
    if (e.type === 'BidPlaced' || e.type === 'BidEdited') {
      expect((e.data as { at: string }).at < iso(ENDS_AT)).toBe(true);
    }
  }
  return { state, after };
};

type Answered = CommandOutcome & { ok: true };
const wroteEvents = (
  settled: PromiseSettledResult<CommandOutcome>,
): settled is {
  status: 'fulfilled';
  value: Answered;
} => settled.status === 'fulfilled' && settled.value.ok && settled.value.events.length > 0;

/**
 * Exactly-once effect over every delivery (originals and duplicates alike). Per command: a command
 * with events in the store was acknowledged, and every delivery acknowledged with events got the
 * same outcome, the one the stream tells (its events, revision, and the state right after them);
 * only the position may differ between actors (each answers with the end of the append it knows
 * of, or, learned from the stream, the command's own last event: see `command-dedup.ts`), and it
 * is always the position of one of the auction's events at or after the command's last one. Once
 * acknowledged, no delivery of it sent later is refused or fails (`strict`, with one node: none
 * answered later either; across nodes a delivery decided on another node before the commit, and
 * refused there, may be answered after it: refusals are not in the stream, so they are not
 * deduplicated); a command without events in the store was never acknowledged with events; and
 * what fails, fails for lack of the store.
 */
const checkDeliveries = (
  stored: readonly RecordedEvent[],
  sent: readonly AuctionCommand[],
  deliveries: readonly Delivery[],
  outcomes: readonly PromiseSettledResult<CommandOutcome>[],
  timeline: Timeline,
  after: ReadonlyMap<string, AuctionState>,
  strict: boolean,
) => {
  const byCommand = byCommandId(stored);
  const positions = new Set(stored.map((e) => e.position));
  sent.forEach((command, c) => {
    const written = byCommand.get(command.metadata.commandId) ?? [];
    const mine = deliveries.flatMap((d, k) => (d.command === c ? [k] : []));
    for (const k of mine) expect(timeline.answered[k]).toBeDefined();
    const answeredAt = (k: number) => timeline.answered[k] as number;
    const byAnswer = [...mine].sort((a, b) => answeredAt(a) - answeredAt(b));
    const settledOf = (k: number) => outcomes[k] as PromiseSettledResult<CommandOutcome>;
    for (const k of mine) {
      const s = settledOf(k);
      if (s.status === 'rejected') {
        // The only store failures are the appends the test fails on purpose.
        expect((s.reason as { code?: ErrorCode }).code).toBe('UNAVAILABLE');
        expect(((s.reason as Error).cause as Error).message).toMatch(/^fault (before|after)/);
      }
    }
    const acks = byAnswer.filter((k) => wroteEvents(settledOf(k)));
    if (written.length === 0) {
      expect(acks).toEqual([]);
      return;
    }
    const firstAck = acks[0] as number;
    expect(firstAck).toBeDefined();
    const first = (settledOf(firstAck) as { value: Answered }).value;
    const last = written[written.length - 1] as RecordedEvent;
    const state = after.get(command.metadata.commandId) as AuctionState;
    expect(first.events.map((e) => [e.id, e.revision, e.type, e.data, e.metadata])).toEqual(
      written.map((e) => [e.id, e.revision, e.type, e.data, e.metadata]),
    );
    expect(first.revision).toBe(last.revision);
    expect([first.currentBid, first.leadingBidId, first.status]).toEqual([
      state.currentBid,
      state.leadingBidId,
      state.status,
    ]);
    const later = mine.filter((k) =>
      strict
        ? answeredAt(k) > answeredAt(firstAck)
        : (timeline.sent[k] as number) > answeredAt(firstAck),
    );
    for (const k of later) {
      const s = settledOf(k);
      if (!wroteEvents(s))
        throw new Error(`${command.metadata.commandId} acknowledged, then ${JSON.stringify(s)}`);
    }
    for (const k of acks) {
      const s = settledOf(k) as { value: Answered };
      expect({ ...s.value, position: first.position }).toEqual(first);
      expect(positions.has(s.value.position as number)).toBe(true);
      expect(s.value.position).toBeGreaterThanOrEqual(last.position);
    }
  });
};

/** When each delivery was handed to its node and when it settled, on one counter. */
interface Timeline {
  readonly sent: number[];
  readonly answered: number[];
  /** The stream's last revision (as the store holds it) when each delivery was sent, answered. */
  readonly headAtSend: number[];
  readonly headAtAnswer: number[];
}

/** Reads the auction stream's last revision straight from the SQLite file, synchronously. */
const headReader = (filename: string) => {
  const db = new Database(filename, { readonly: true, fileMustExist: true });
  const query = db.prepare<[string], { revision: number | null }>(
    'SELECT MAX(revision) AS revision FROM events WHERE stream_id = ?',
  );
  return {
    head: () => query.get(auctionStream(A))?.revision ?? -1,
    close: () => db.close(),
  };
};

/**
 * Refusals and no-ops are not in the stream, so they are checked against it another way: each is
 * what the decider answers on the stream as it stood at some moment between the delivery's send
 * (or that of the pending delivery of the same command it joined) and its answer (a stale actor
 * must not refuse what the stream has since allowed, or a command another node committed). Not `sinceSend` when an append found its events already in
 * place (both nodes decided the same commands on the same state): its batch's refusals were
 * decided on the state before those events, which the other node may have stored before they were
 * even sent, so only "some state before the answer" is promised. Such a refusal is of a command
 * not committed at the time (the head is checked after that append), and no delivery sent after
 * an acknowledgement is refused (`checkDeliveries`).
 */
const checkUnwritten = (
  stored: readonly RecordedEvent[],
  sent: readonly AuctionCommand[],
  deliveries: readonly Delivery[],
  outcomes: readonly PromiseSettledResult<CommandOutcome>[],
  timeline: Timeline,
  sinceSend: boolean,
) => {
  const states = [initialState];
  for (const e of stored)
    states.push(
      evolve(
        states[states.length - 1] as AuctionState,
        AuctionEvent.parse({ type: e.type, data: e.data }),
      ),
    );
  deliveries.forEach((delivery, k) => {
    const settled = outcomes[k] as PromiseSettledResult<CommandOutcome>;
    if (settled.status === 'rejected') return;
    const outcome = settled.value;
    if (outcome.ok && outcome.events.length > 0) return;
    if (!outcome.ok && outcome.rejection.code === 'CONCURRENCY_CONFLICT') return;
    const command = sent[delivery.command] as AuctionCommand;
    // A delivery that arrived while an earlier one of the same command was pending on the same
    // node waited for that one's outcome: the window opens at the earliest such send.
    const joined = deliveries.flatMap((other, j) =>
      other.command === delivery.command &&
      other.node === delivery.node &&
      (timeline.sent[j] as number) < (timeline.sent[k] as number) &&
      (timeline.answered[j] as number) > (timeline.sent[k] as number)
        ? [timeline.headAtSend[j] as number]
        : [],
    );
    const from = sinceSend ? Math.min(timeline.headAtSend[k] as number, ...joined) : 0;
    const to = timeline.headAtAnswer[k] as number;
    const fits = Array.from({ length: to - from + 1 }, (_, i) => from + i).some((revision) => {
      const decision = decide(command, states[revision + 1] as AuctionState);
      return outcome.ok
        ? decision.ok && decision.events.length === 0
        : !decision.ok && decision.rejection.code === outcome.rejection.code;
    });
    if (!fits)
      throw new Error(
        `${command.metadata.commandId} answered ${JSON.stringify(outcome)}, which fits no revision in ${from}..${to}`,
      );
  });
};

/** Sends every delivery at a moment the scheduler picks, noting when it was sent and answered. */
const deliver = (
  s: fc.Scheduler,
  commands: readonly AuctionCommand[],
  deliveries: readonly Delivery[],
  nodes: readonly AuctionActorRegistry[],
  head: () => number,
) => {
  const timeline: Timeline = { sent: [], answered: [], headAtSend: [], headAtAnswer: [] };
  let tick = 0;
  const sends: Promise<CommandOutcome>[] = [];
  deliveries.forEach((delivery, k) => {
    const label = `arrive ${k}: command ${delivery.command} at ${delivery.node}`;
    const arrival = delivery.late
      ? (sends[delivery.command] as Promise<CommandOutcome>)
          .catch(() => undefined)
          .then(() => s.schedule(Promise.resolve(), `${label}, late`))
      : s.schedule(Promise.resolve(), label);
    const sent = arrival
      .then(async () => {
        const node = nodes[delivery.node] as AuctionActorRegistry;
        if (delivery.evict) {
          // From a macrotask, as the registry's sweep does: not between an actor's load and the
          // send that asked for it (where the registry would drop the actor it is about to use).
          await new Promise((resolve) => setImmediate(resolve));
          node.evictIdle();
        }
        timeline.sent[k] = tick++;
        timeline.headAtSend[k] = head();
        return node.send(commands[delivery.command] as AuctionCommand);
      })
      .finally(() => {
        timeline.answered[k] = tick++;
        timeline.headAtAnswer[k] = head();
      });
    sends.push(sent);
  });
  return { sends, timeline };
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
  it('one actor, redeliveries and reloads: one valid serial order, each command once, each duplicate answered as its original', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(intent, { minLength: 1, maxLength: 40 }),
        fc.array(duplicate, { maxLength: 20 }),
        fc.array(fault, { maxLength: 30 }),
        async (s, intents, duplicates, faults) => {
          const env = tempSqliteStore();
          const store = new InstrumentedStore(env.store);
          // idleMs 0 on a clock that never moves: `evictIdle` drops the actor whenever it is idle.
          const bus = new AuctionActorRegistry({ store, clock: new ManualClock(T0), idleMs: 0 });
          const peek = headReader(env.filename);
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
            const deliveries = deliveriesOf(commands.length, () => 0, duplicates, 1);
            const { sends, timeline } = deliver(s, commands, deliveries, [bus], peek.head);
            const outcomes = await drive(s, sends);
            const stored = await env.store.readStream(auctionStream(A));
            const { state, after } = checkHistory(stored, commands);
            checkDeliveries(stored, commands, deliveries, outcomes, timeline, after, true);
            checkUnwritten(stored, commands, deliveries, outcomes, timeline, true);
            const snapshot = bus.snapshotOf(A);
            if (snapshot) expect(stateToJSON(snapshot.state)).toEqual(stateToJSON(state));
          } finally {
            await bus.close();
            peek.close();
            await env.cleanup();
          }
        },
      ),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });

  it('two actors on one stream over one store (two nodes), redeliveries through either: still one valid serial order, each duplicate answered as its original', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.tuple(intent, fc.boolean()), { minLength: 1, maxLength: 40 }),
        fc.array(duplicate, { maxLength: 20 }),
        fc.boolean(),
        async (s, plan, duplicates, handoff) => {
          const env = tempSqliteStore();
          const storeA = new InstrumentedStore(env.store);
          const storeB = new InstrumentedStore(env.open());
          const clock = new ManualClock(T0);
          const nodes = [
            new AuctionActorRegistry({ store: storeA, clock, idleMs: 0 }),
            new AuctionActorRegistry({ store: storeB, clock, idleMs: 0 }),
          ];
          const peek = headReader(env.filename);
          const headBefore = new WeakMap<AppendCall, number>();
          let inPlace = false;
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
                  .then(() => void headBefore.set(call, peek.head()));
              // An append that succeeds on a stream not where it expected found its events in
              // place (the other node stored these very commands) and wrote nothing.
              st.after = (call) => {
                if (headBefore.get(call) !== (call.expected === 'no_stream' ? -1 : call.expected))
                  inPlace = true;
              };
            }
            if (handoff) {
              // Node B reads the stream now, then node A takes every command and B every
              // redelivery, once A answered (the partition moved): B's actor is as stale as it gets.
              const early = await nodes[1]?.send(closeAuction(A, T0));
              expect(early?.ok === false && early.rejection.code).toBe('AUCTION_NOT_ENDED');
            }
            const commands = toCommands(plan.map(([i]) => i));
            const deliveries = deliveriesOf(
              commands.length,
              (i) => (!handoff && plan[i]?.[1] ? 1 : 0),
              handoff ? duplicates.map((d) => handedOff(d, plan)) : duplicates,
              2,
            );
            const { sends, timeline } = deliver(s, commands, deliveries, nodes, peek.head);
            const outcomes = await drive(s, sends);
            expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
            const stored = await env.store.readStream(auctionStream(A));
            const { state, after } = checkHistory(stored, commands);
            checkDeliveries(stored, commands, deliveries, outcomes, timeline, after, false);
            checkUnwritten(stored, commands, deliveries, outcomes, timeline, !inPlace);
            const head = stored.length - 1;
            const snapshots = nodes.map((n) => n.snapshotOf(A));
            for (const snap of snapshots.filter((snap) => snap?.revision === head))
              expect(stateToJSON(snap?.state ?? initialState)).toEqual(stateToJSON(state));
            if (!duplicates.some((d) => d.evict))
              expect(snapshots.filter((snap) => snap?.revision === head).length).toBeGreaterThan(0);
          } finally {
            for (const n of nodes) await n.close();
            peek.close();
            await env.cleanup();
          }
        },
      ),
      { numRuns: NUM_RUNS, seed: SEED },
    );
  });
});
