import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from './event-store';

/** What the contract suite needs from an adapter under test. */
export interface EventStoreContractSubject {
  readonly store: EventStore;
  /** Closes the store and opens it again on the same data (durable adapters only). */
  readonly reopen?: () => Promise<EventStore>;
  /** Closes whichever store is open and removes its data. */
  readonly cleanup: () => Promise<void>;
}

/** What an adapter promises beyond the port; the suite checks only what is declared. */
export interface EventStoreContractCapabilities {
  /** A retry with expected revision `any` is a no-op too (the port promises it only for exact ones). */
  readonly idempotentAny?: boolean;
}

const WAIT_MS = 10_000;

/**
 * The one suite every event store adapter passes. Each test opens a fresh subject; stream ids and
 * event types carry a random suffix, so the suite also runs against a shared server. It can be
 * wrapped in `describe.skipIf(...)`, which reports every test as skipped.
 */
export function describeEventStoreContract(
  name: string,
  open: () => Promise<EventStoreContractSubject>,
  capabilities: EventStoreContractCapabilities = {},
): void {
  describe(`event store contract: ${name}`, () => {
    let subject: EventStoreContractSubject;
    let store: EventStore;
    let run: string;
    let start: number | undefined;
    const subscriptions: Subscription[] = [];

    const streamId = (label: string): string => `contract_${label}-${run}`;
    const eventType = (label: string): string => `Contract${label}_${run}`;
    const event = (label: string, data: unknown = { label }, metadata: unknown = {}): NewEvent => ({
      id: randomUUID(),
      type: eventType(label),
      data,
      metadata,
    });
    const events = (label: string, count: number): NewEvent[] =>
      Array.from({ length: count }, (_, index) => event(label, { label, index }));
    const ids = (recorded: readonly { id: string }[]): string[] => recorded.map(({ id }) => id);
    const subscribe = (...args: Parameters<EventStore['subscribe']>): Subscription => {
      const subscription = store.subscribe(...args);
      subscriptions.push(subscription);
      return subscription;
    };

    beforeEach(async () => {
      run = randomUUID().slice(0, 8);
      subject = await open();
      store = subject.store;
      start = await store.headPosition();
    });

    afterEach(async () => {
      await Promise.all(subscriptions.splice(0).map((subscription) => subscription.close()));
      await subject.cleanup();
    });

    describe('append', () => {
      it("creates a stream with 'no_stream' and records every field", async () => {
        const stream = streamId('create');
        const appended = [
          event('Created', { title: 'Lamp' }, { user: 'u1' }),
          event('Edited', { title: 'Desk lamp' }, { user: 'u1' }),
        ];
        const before = Date.now();

        const result = await store.append(stream, appended, 'no_stream');

        const recorded = await store.readStream(stream);
        expect(
          recorded.map(({ id, streamId: s, revision, type, data, metadata }) => ({
            id,
            streamId: s,
            revision,
            type,
            data,
            metadata,
          })),
        ).toEqual(appended.map((e, revision) => ({ ...e, streamId: stream, revision })));
        expect(result).toEqual({ nextRevision: 1, position: recorded[1]?.position });
        for (const { recordedAt } of recorded) {
          expect(new Date(recordedAt).toISOString()).toBe(recordedAt);
          expect(Date.parse(recordedAt)).toBeGreaterThanOrEqual(before - 60_000);
        }
        expect(await store.streamRevision(stream)).toBe(1);
      });

      it('continues a stream at the expected revision', async () => {
        const stream = streamId('continue');
        await store.append(stream, [event('A')], 'no_stream');

        const second = await store.append(stream, [event('B'), event('C')], 0);
        const third = await store.append(stream, [event('D')], 2);

        expect(second.nextRevision).toBe(2);
        expect(third.nextRevision).toBe(3);
        expect(third.position).toBeGreaterThan(second.position);
        const recorded = await store.readStream(stream);
        expect(recorded.map(({ revision }) => revision)).toEqual([0, 1, 2, 3]);
        expect(recorded.map(({ type }) => type)).toEqual(['A', 'B', 'C', 'D'].map(eventType));
      });

      it("appends with 'any' to a new and to an existing stream", async () => {
        const stream = streamId('any');

        const first = await store.append(stream, [event('A')], 'any');
        const second = await store.append(stream, [event('B'), event('C')], 'any');

        expect(first.nextRevision).toBe(0);
        expect(second.nextRevision).toBe(2);
        expect((await store.readStream(stream)).map(({ revision }) => revision)).toEqual([0, 1, 2]);
      });

      const conflicts: {
        readonly case: string;
        readonly existing: number;
        readonly expected: ExpectedRevision;
        readonly actual: number | 'no_stream';
      }[] = [
        { case: 'a revision below the current one', existing: 3, expected: 1, actual: 2 },
        { case: 'a revision above the current one', existing: 3, expected: 5, actual: 2 },
        { case: 'the previous revision (a lost race)', existing: 2, expected: 0, actual: 1 },
        {
          case: "'no_stream' on an existing stream",
          existing: 1,
          expected: 'no_stream',
          actual: 0,
        },
        { case: 'a revision on a missing stream', existing: 0, expected: 0, actual: 'no_stream' },
        {
          case: 'a high revision on a missing stream',
          existing: 0,
          expected: 5,
          actual: 'no_stream',
        },
      ];
      for (const conflict of conflicts) {
        it(`refuses ${conflict.case} and writes nothing`, async () => {
          const stream = streamId('conflict');
          if (conflict.existing > 0) {
            await store.append(stream, events('Existing', conflict.existing), 'no_stream');
          }
          const before = await store.readStream(stream);
          const head = await store.headPosition();

          const error: unknown = await store
            .append(stream, [event('Refused'), event('Refused')], conflict.expected)
            .catch((e: unknown) => e);

          expect(error).toBeInstanceOf(WrongExpectedRevisionError);
          expect(error).toMatchObject({
            streamId: stream,
            expected: conflict.expected,
            actual: conflict.actual,
          });
          expect(await store.readStream(stream)).toEqual(before);
          expect(await store.streamRevision(stream)).toBe(
            conflict.existing > 0 ? conflict.existing - 1 : undefined,
          );
          const refused = await store.readAll({
            afterPosition: head ?? 0,
            eventTypes: [eventType('Refused')],
          });
          expect(refused).toEqual([]);
        });
      }

      it('appends a batch atomically, with consecutive revisions and positions', async () => {
        const stream = streamId('batch');
        const batch = events('Bid', 50);

        const result = await store.append(stream, batch, 'no_stream');

        const recorded = await store.readStream(stream);
        expect(ids(recorded)).toEqual(ids(batch));
        expect(recorded.map(({ revision }) => revision)).toEqual(batch.map((_, i) => i));
        expect(result).toEqual({ nextRevision: 49, position: recorded[49]?.position });
        const first = recorded[0];
        if (first === undefined) throw new Error('nothing recorded');
        const following = await store.readAll({ afterPosition: first.position, maxCount: 49 });
        expect(following).toEqual(recorded.slice(1));
      });

      it('gives strictly increasing global positions across streams, in commit order', async () => {
        const streams = ['a', 'b', 'c'].map(streamId);
        const results = [];
        for (let round = 0; round < 3; round += 1) {
          for (const stream of streams) {
            results.push(
              await store.append(
                stream,
                [event('Step', { round }), event('Step', { round })],
                round === 0 ? 'no_stream' : round * 2 - 1,
              ),
            );
          }
        }

        const positions = results.map(({ position }) => position);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect(new Set(positions).size).toBe(positions.length);
        const all = await store.readAll({ afterPosition: start, eventTypes: [eventType('Step')] });
        expect(all).toHaveLength(18);
        expect(all.map(({ position }) => position)).toEqual(
          [...all.map(({ position }) => position)].sort((a, b) => a - b),
        );
        expect(new Set(all.map(({ position }) => position)).size).toBe(18);
        expect(all.filter((_, i) => i % 2 === 1).map(({ position }) => position)).toEqual(
          positions,
        );
        expect(all.map((e) => e.streamId)).toEqual(
          [0, 1, 2].flatMap(() => streams.flatMap((s) => [s, s])),
        );
      });

      it('treats a retry of stored events as a no-op returning the original result', async () => {
        const stream = streamId('retry');
        const batch = events('Placed', 2);
        const original = await store.append(stream, batch, 'no_stream');

        expect(await store.append(stream, batch, 'no_stream')).toEqual(original);
        expect(await store.readStream(stream)).toHaveLength(2);

        const next = [event('Placed')];
        const continued = await store.append(stream, next, 1);
        expect(await store.append(stream, batch, 'no_stream')).toEqual(original);
        expect(await store.append(stream, next, 1)).toEqual(continued);
        expect(await store.readStream(stream)).toHaveLength(3);
        expect(await store.streamRevision(stream)).toBe(2);
      });

      it.skipIf(capabilities.idempotentAny !== true)(
        "treats a retry with 'any' of stored events as a no-op",
        async () => {
          const stream = streamId('retry-any');
          const batch = events('Placed', 2);
          const original = await store.append(stream, batch, 'no_stream');
          const next = [event('Placed')];
          const continued = await store.append(stream, next, 'any');

          expect(await store.append(stream, batch, 'any')).toEqual(original);
          expect(await store.append(stream, next, 'any')).toEqual(continued);
          expect(await store.readStream(stream)).toHaveLength(3);
        },
      );

      it('refuses a retry whose ids only partly match the stored events, writing nothing', async () => {
        const stream = streamId('partial');
        const batch = events('Placed', 2);
        await store.append(stream, batch, 'no_stream');
        const [first, second] = batch;
        if (first === undefined || second === undefined) throw new Error('no events');

        for (const attempt of [
          [first, second, event('Placed')],
          [first, event('Placed')],
        ]) {
          const error: unknown = await store
            .append(stream, attempt, 'no_stream')
            .catch((e: unknown) => e);
          expect([DuplicateEventIdError, WrongExpectedRevisionError]).toContainEqual(
            (error as object).constructor,
          );
        }
        expect(ids(await store.readStream(stream))).toEqual(ids(batch));
      });

      it('accepts an empty append without writing', async () => {
        const stream = streamId('empty');
        const result = await store.append(stream, events('A', 2), 'no_stream');

        expect(await store.append(stream, [], 1)).toMatchObject({ nextRevision: 1 });
        expect(await store.append(stream, [], 'any')).toMatchObject({ nextRevision: 1 });
        await expect(store.append(stream, [], 0)).rejects.toBeInstanceOf(
          WrongExpectedRevisionError,
        );
        expect(await store.readStream(stream)).toHaveLength(2);
        expect(await store.streamRevision(stream)).toBe(result.nextRevision);
      });
    });

    describe('reading', () => {
      it('reads a missing stream as empty', async () => {
        expect(await store.readStream(streamId('missing'))).toEqual([]);
        expect(await store.streamRevision(streamId('missing'))).toBeUndefined();
      });

      it('reads revision ranges of a stream, both bounds inclusive', async () => {
        const stream = streamId('range');
        const batch = events('E', 6);
        await store.append(stream, batch, 'no_stream');
        const read = async (fromRevision?: number, toRevision?: number) =>
          ids(await store.readStream(stream, { fromRevision, toRevision }));

        expect(await read()).toEqual(ids(batch));
        expect(await read(2)).toEqual(ids(batch.slice(2)));
        expect(await read(undefined, 2)).toEqual(ids(batch.slice(0, 3)));
        expect(await read(1, 3)).toEqual(ids(batch.slice(1, 4)));
        expect(await read(4, 4)).toEqual(ids(batch.slice(4, 5)));
        expect(await read(5, 99)).toEqual(ids(batch.slice(5)));
        expect(await read(6)).toEqual([]);
        expect(await read(3, 2)).toEqual([]);
      });

      it('tracks the stream revision and the head position', async () => {
        const stream = streamId('revision');
        await store.append(stream, events('E', 3), 'no_stream');
        expect(await store.streamRevision(stream)).toBe(2);

        const result = await store.append(stream, events('E', 2), 2);

        expect(await store.streamRevision(stream)).toBe(4);
        expect(await store.headPosition()).toBeGreaterThanOrEqual(result.position);
      });

      it('reads the log after a position, bounded, filtered by event type', async () => {
        const [one, two] = [streamId('one'), streamId('two')];
        const marker = await store.append(one, [event('Marker')], 'no_stream');
        const batch = await store.append(one, [event('X'), event('Y'), event('Z')], 0);
        await store.append(two, [event('Y'), event('X')], 'no_stream');
        await store.append(one, [event('X'), event('Z')], 3);
        const ours = (all: RecordedEvent[]) =>
          all.filter((e) => e.streamId === one || e.streamId === two);
        const typesOf = (all: RecordedEvent[]) =>
          all.map(({ type }) => type.slice('Contract'.length, -run.length - 1));

        const everything = ours(await store.readAll({ afterPosition: marker.position }));
        expect(typesOf(everything)).toEqual(['X', 'Y', 'Z', 'Y', 'X', 'X', 'Z']);
        const third = everything[2];
        if (third === undefined) throw new Error('missing events');

        const types = [eventType('X'), eventType('Z')];
        const xz = await store.readAll({ afterPosition: marker.position, eventTypes: types });
        expect(typesOf(xz)).toEqual(['X', 'Z', 'X', 'X', 'Z']);
        expect(xz).toEqual(everything.filter((e) => types.includes(e.type)));

        expect(
          await store.readAll({ afterPosition: marker.position, eventTypes: types, maxCount: 3 }),
        ).toEqual(xz.slice(0, 3));
        expect(await store.readAll({ afterPosition: third.position, eventTypes: types })).toEqual(
          xz.slice(2),
        );
        expect(
          await store.readAll({ afterPosition: marker.position, eventTypes: [eventType('Y')] }),
        ).toEqual(everything.filter((e) => e.type === eventType('Y')));
        expect(
          await store.readAll({ afterPosition: marker.position, eventTypes: [eventType('None')] }),
        ).toEqual([]);
        const [x, y, z] = everything;
        expect(await store.readAll({ afterPosition: x?.position, maxCount: 2 })).toEqual([y, z]);
        expect(await store.readAll({ afterPosition: marker.position, maxCount: 0 })).toEqual([]);
        expect(batch.position).toBe(z?.position);
        expect(
          await store.readAll({ afterPosition: start, eventTypes: [eventType('Marker')] }),
        ).toHaveLength(1);
      });

      it('round-trips data and metadata as JSON', async () => {
        const stream = streamId('json');
        const data = {
          title: 'Ölgemälde «Nacht» — 夜の絵 🎨',
          combining: 'e\u0301',
          nested: { deep: { list: [1, 'two', { three: [3] }, null, true, false] } },
          empty: { object: {}, list: [], text: '' },
          numbers: [0, -1, 42, 1.5, -0.25, 1e-7, 123456789.125, Number.MAX_SAFE_INTEGER],
          nothing: null,
          quote: 'a "quoted" \\ backslash\nnew line\ttab',
        };
        const metadata = {
          commandId: randomUUID(),
          actor: 'ユーザー',
          previousHash: 'ab'.repeat(32),
          at: '2030-01-01T00:00:00.000Z',
        };
        await store.append(stream, [event('Json', data, metadata)], 'no_stream');

        const [recorded] = await store.readStream(stream);
        expect(recorded?.data).toEqual(data);
        expect(recorded?.metadata).toEqual(metadata);
        const [fromLog] = await store.readAll({
          afterPosition: start,
          eventTypes: [eventType('Json')],
        });
        expect(fromLog).toEqual(recorded);
      });

      it('keeps everything appended across a reopen (when the adapter can reopen)', async () => {
        const stream = streamId('durable');
        await store.append(stream, events('Kept', 3), 'no_stream');
        await store.append(streamId('other'), events('Kept', 2), 'no_stream');
        await store.append(stream, events('Kept', 4), 2);
        const kept = { afterPosition: start, eventTypes: [eventType('Kept')] };
        const before = await store.readAll(kept);
        const head = await store.headPosition();

        if (subject.reopen !== undefined) store = await subject.reopen();

        expect(await store.readAll(kept)).toEqual(before);
        expect(await store.readStream(stream)).toEqual(before.filter((e) => e.streamId === stream));
        expect(await store.streamRevision(stream)).toBe(6);
        expect(await store.headPosition()).toBeGreaterThanOrEqual(head ?? 0);
        const next = await store.append(stream, [event('Kept')], 6);
        expect(next.nextRevision).toBe(7);
        expect(next.position).toBeGreaterThan(before[before.length - 1]?.position ?? 0);
      });
    });

    describe('subscribe', () => {
      interface Received {
        readonly batches: (readonly RecordedEvent[])[];
        readonly events: RecordedEvent[];
      }
      const received = (): Received => ({ batches: [], events: [] });
      const collect =
        (into: Received, then?: (batch: readonly RecordedEvent[]) => Promise<void>) =>
        async (batch: readonly RecordedEvent[]) => {
          into.batches.push(batch);
          into.events.push(...batch);
          await then?.(batch);
        };
      const expectOrdered = (all: readonly RecordedEvent[]) => {
        const positions = all.map(({ position }) => position);
        positions.slice(1).forEach((position, i) => {
          expect(position).toBeGreaterThan(positions[i] ?? Infinity);
        });
      };

      it('delivers history, then live events, without gaps or duplicates', async () => {
        const stream = streamId('live');
        const other = streamId('live-other');
        const reactions = streamId('live-reaction');
        const marker = await store.append(stream, [event('Marker')], 'no_stream');
        await store.append(stream, events('Bid', 7), 0);
        const types = [eventType('Bid')];
        const got = received();
        let reacted = false;
        let otherRevision: ExpectedRevision = 'no_stream';

        const subscription = subscribe({
          afterPosition: marker.position,
          eventTypes: types,
          batchSize: 3,
          onEvents: collect(got, async (batch) => {
            if (!reacted && batch.some((e) => e.data !== null && 'live' in (e.data as object))) {
              reacted = true;
              await store.append(reactions, [event('Bid', { reaction: true })], 'no_stream');
            }
          }),
        });
        await subscription.caughtUp;
        expect(got.events.length).toBeGreaterThanOrEqual(7);

        for (let i = 0; i < 10; i += 1) {
          await store.append(stream, [event('Bid', { live: i }), event('Noise')], 'any');
          if (i % 3 === 0) {
            const { nextRevision } = await store.append(other, [event('Bid')], otherRevision);
            otherRevision = nextRevision;
          }
        }
        const expected = async () =>
          ids(await store.readAll({ afterPosition: marker.position, eventTypes: types }));
        await waitFor(async () => got.events.length >= (await expected()).length && reacted);
        await settle();

        expect(ids(got.events)).toEqual(await expected());
        expect(got.events).toHaveLength(7 + 10 + 4 + 1);
        expectOrdered(got.events);
        expect(got.batches.every((b) => b.length > 0 && b.length <= 3)).toBe(true);
        expect(subscription.position()).toBe(got.events[got.events.length - 1]?.position);
      });

      it('stays gap-free while appends race with slow deliveries', async () => {
        const writerStreams = [streamId('race-1'), streamId('race-2')];
        const handlerStream = streamId('race-handler');
        const marker = await store.append(streamId('race-marker'), [event('Marker')], 'any');
        const types = [eventType('Race')];
        const got = received();
        let fromHandler = 0;
        const subscription = subscribe({
          afterPosition: marker.position,
          eventTypes: types,
          batchSize: 4,
          onEvents: collect(got, async () => {
            await sleep(2);
            if (fromHandler < 5) {
              fromHandler += 1;
              await store.append(handlerStream, [event('Race', { fromHandler })], 'any');
            }
            await sleep(2);
          }),
        });
        const writers = writerStreams.map(async (stream) => {
          for (let i = 0; i < 15; i += 1) {
            await store.append(stream, [event('Race', { i }), event('Race', { i })], 'any');
            if (i % 4 === 0) await sleep(1);
          }
        });
        await Promise.all([subscription.caughtUp, ...writers]);
        const expected = async () =>
          ids(await store.readAll({ afterPosition: marker.position, eventTypes: types }));
        await waitFor(
          async () => fromHandler === 5 && got.events.length === (await expected()).length,
        );
        await settle();

        expect(got.events).toHaveLength(60 + 5);
        expect(ids(got.events)).toEqual(await expected());
        expect(new Set(ids(got.events)).size).toBe(got.events.length);
        expectOrdered(got.events);
      });

      it('respects afterPosition and eventTypes', async () => {
        const stream = streamId('filter');
        await store.append(stream, [event('A'), event('B'), event('A')], 'no_stream');
        const [, second] = await store.readStream(stream);
        if (second === undefined) throw new Error('missing events');
        const onlyA = received();
        const onlyB = received();
        const both = received();

        const subs = [
          subscribe({
            afterPosition: second.position,
            eventTypes: [eventType('A')],
            onEvents: collect(onlyA),
          }),
          subscribe({
            afterPosition: start,
            eventTypes: [eventType('B')],
            onEvents: collect(onlyB),
          }),
          subscribe({
            afterPosition: second.position,
            eventTypes: [eventType('A'), eventType('B')],
            onEvents: collect(both),
          }),
        ];
        await Promise.all(subs.map(({ caughtUp }) => caughtUp));
        await store.append(stream, [event('B'), event('C'), event('A')], 2);
        await waitFor(() => both.events.length === 3);
        await settle();

        const recorded = await store.readStream(stream);
        const at = (...revisions: number[]) => revisions.map((r) => recorded[r]?.id);
        expect(ids(onlyA.events)).toEqual(at(2, 5));
        expect(ids(onlyB.events)).toEqual(at(1, 3));
        expect(ids(both.events)).toEqual(at(2, 3, 5));
      });

      it('catches up at once when there is no history', async () => {
        const head = await store.append(streamId('quiet'), [event('Quiet')], 'no_stream');
        const got = received();

        const subscription = subscribe({
          afterPosition: head.position,
          eventTypes: [eventType('Quiet')],
          onEvents: collect(got),
        });
        await subscription.caughtUp;

        expect(got.events).toEqual([]);
        expect(subscription.position()).toBe(head.position);
      });

      it('stops delivering once closed, after the delivery in flight', async () => {
        const stream = streamId('close');
        await store.append(stream, [event('C')], 'no_stream');
        const got = received();
        let release: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let entered = false;
        const subscription = subscribe({
          afterPosition: start,
          eventTypes: [eventType('C')],
          onEvents: collect(got, async () => {
            entered = true;
            await gate;
          }),
        });
        await waitFor(() => entered);

        let closed = false;
        const closing = subscription.close().then(() => (closed = true));
        await sleep(50);
        expect(closed).toBe(false);
        release();
        await closing;

        await store.append(stream, [event('C'), event('C')], 0);
        await sleep(500);
        expect(got.events).toHaveLength(1);
      });

      it('stops and reports when the handler fails', async () => {
        const stream = streamId('fail');
        await store.append(stream, [event('F'), event('F')], 'no_stream');
        const failure = new Error('projection failed');
        const errors: unknown[] = [];
        let calls = 0;

        subscribe({
          afterPosition: start,
          eventTypes: [eventType('F')],
          batchSize: 1,
          onEvents: () => {
            calls += 1;
            throw failure;
          },
          onError: (error) => errors.push(error),
        });
        await waitFor(() => errors.length > 0);
        await store.append(stream, [event('F')], 1);
        await sleep(500);

        expect(errors).toEqual([failure]);
        expect(calls).toBe(1);
      });
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Lets a subscription deliver anything it wrongly still has (duplicates would show up). */
function settle(): Promise<void> {
  return sleep(300);
}

async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for the condition');
    await sleep(10);
  }
}
