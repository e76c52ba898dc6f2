import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEventStoreContract } from './contract';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type NewEvent,
  type RecordedEvent,
} from './event-store';
import { SqliteEventStore } from './sqlite-event-store';

const POLL_MS = 50;

function tempFile(): { filename: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-event-store-'));
  return {
    filename: path.join(dir, 'events.db'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

describeEventStoreContract(
  'SQLite file',
  () => {
    const { filename, remove } = tempFile();
    let store = new SqliteEventStore({ filename, pollIntervalMs: POLL_MS });
    return Promise.resolve({
      store,
      reopen: async () => {
        await store.close();
        store = SqliteEventStore.open({ filename, pollIntervalMs: POLL_MS });
        return store;
      },
      cleanup: async () => {
        await store.close();
        remove();
      },
    });
  },
  { idempotentAny: true },
);

describeEventStoreContract(
  'SQLite in memory',
  () => {
    const store = new SqliteEventStore({ filename: ':memory:' });
    return Promise.resolve({ store, cleanup: () => store.close() });
  },
  { idempotentAny: true },
);

describe('SqliteEventStore', () => {
  const opened: SqliteEventStore[] = [];
  const removals: (() => void)[] = [];
  const open = (filename: string) => {
    const store = new SqliteEventStore({ filename, pollIntervalMs: POLL_MS });
    opened.push(store);
    return store;
  };
  const onFile = () => {
    const { filename, remove } = tempFile();
    removals.push(remove);
    return filename;
  };
  const event = (type = 'Happened'): NewEvent => ({
    id: randomUUID(),
    type,
    data: { type },
    metadata: {},
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    removals.splice(0).forEach((remove) => remove());
  });

  it('runs in WAL mode with synchronous=FULL and a busy timeout', () => {
    const store = open(onFile());

    expect(store.pragma('journal_mode')).toBe('wal');
    expect(store.pragma('synchronous')).toBe(2);
    expect(store.pragma('busy_timeout')).toBeGreaterThanOrEqual(1000);
  });

  it('reports an empty log and answers an empty append on a missing stream', async () => {
    const store = open(':memory:');

    expect(await store.headPosition()).toBeUndefined();
    expect(await store.readAll()).toEqual([]);
    expect(await store.append('s', [], 'no_stream')).toEqual({ nextRevision: -1, position: -1 });
    await expect(store.append('s', [], 0)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.headPosition()).toBeUndefined();
  });

  it('refuses ids already stored elsewhere, atomically', async () => {
    const store = open(':memory:');
    const [a, b, c] = [event(), event(), event()];
    await store.append('one', [a, b], 'no_stream');
    const fresh = event();

    const attempts: [string, NewEvent[]][] = [
      ['one', [a, b, c]],
      ['one', [b, a]],
      ['one', [fresh, a]],
      ['two', [a, b]],
      ['two', [fresh, fresh]],
    ];
    for (const [stream, events] of attempts) {
      await expect(store.append(stream, events, 'any')).rejects.toBeInstanceOf(
        DuplicateEventIdError,
      );
    }
    await expect(store.append('one', [a, c], 1)).rejects.toBeInstanceOf(DuplicateEventIdError);

    expect((await store.readAll()).map(({ id }) => id)).toEqual([a.id, b.id]);
    expect(await store.readStream('two')).toEqual([]);
  });

  it('detects a conflicting append made through another connection to the same file', async () => {
    const filename = onFile();
    const [first, second] = [open(filename), open(filename)];
    await first.append('auction-1', [event()], 'no_stream');
    expect(await second.streamRevision('auction-1')).toBe(0);

    const results = await Promise.allSettled([
      first.append('auction-1', [event('FromFirst')], 0),
      second.append('auction-1', [event('FromSecond')], 0),
    ]);

    expect(results.map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(WrongExpectedRevisionError);
    expect(await first.readStream('auction-1')).toHaveLength(2);
    await expect(second.append('auction-1', [event()], 'no_stream')).rejects.toMatchObject({
      actual: 1,
    });
  });

  it('delivers to a subscriber events appended through another connection', async () => {
    const filename = onFile();
    const [reader, writer] = [open(filename), open(filename)];
    await writer.append('s', [event()], 'no_stream');
    const received: RecordedEvent[] = [];
    const subscription = reader.subscribe({
      onEvents: (batch) => {
        received.push(...batch);
      },
    });
    await subscription.caughtUp;

    for (let i = 0; i < 5; i += 1) await writer.append('s', [event(), event()], 'any');

    await waitFor(() => received.length === 11);
    expect(received.map(({ id }) => id)).toEqual((await writer.readAll()).map(({ id }) => id));
    await subscription.close();
  });

  it('tells the positions it commits, and a word of another connection’s wakes its subscriptions', async () => {
    const filename = onFile();
    // Polls far apart: only the word can bring the events within the test's bound.
    const reader = new SqliteEventStore({ filename, pollIntervalMs: 60_000 });
    opened.push(reader);
    const writer = open(filename);
    const committed: number[] = [];
    writer.onAppended((position) => committed.push(position));
    const received: RecordedEvent[] = [];
    const subscription = reader.subscribe({
      onEvents: (batch) => {
        received.push(...batch);
      },
    });
    await subscription.caughtUp;

    // Two appends of one turn are one group: one word, its highest position.
    const [first, second] = await Promise.all([
      writer.append('a', [event()], 'no_stream'),
      writer.append('b', [event(), event()], 'no_stream'),
    ]);
    expect(committed).toEqual([Math.max(first.position, second.position)]);
    // A refused append commits nothing: no word.
    await expect(writer.append('a', [event()], 'no_stream')).rejects.toThrow(
      WrongExpectedRevisionError,
    );
    expect(committed).toHaveLength(1);

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(0);
    reader.appendedElsewhere(committed[0] ?? 0);
    await waitFor(() => received.length === 3, 1000);
    expect(received.map(({ position }) => position).at(-1)).toBe(committed[0]);
    await subscription.close();
  });

  it('commits the appends of one turn, across streams, in one transaction', async () => {
    const filename = onFile();
    const [store, other] = [open(filename), open(filename)];
    await store.append('taken', [event()], 'no_stream');
    const stored = event();
    await store.append('elsewhere', [stored], 'no_stream');
    const before = store.groupCommits();

    const results = await Promise.allSettled([
      ...Array.from({ length: 50 }, (_, i) => store.append(`auction-${i}`, [event()], 'no_stream')),
      store.append('taken', [event()], 'no_stream'),
      store.append('auction-0', [event()], 'no_stream'),
      store.append('auction-1', [event()], 0),
      store.append('fresh', [event(), stored], 'no_stream'),
    ]);

    expect(store.groupCommits()).toEqual({
      commits: before.commits + 1,
      appends: before.appends + 54,
    });
    const [conflict, sameTurnConflict, after, duplicate] = results.slice(50);
    expect(results.slice(0, 50).every(({ status }) => status === 'fulfilled')).toBe(true);
    expect(conflict).toMatchObject({ status: 'rejected', reason: { actual: 0 } });
    expect(sameTurnConflict).toMatchObject({ status: 'rejected', reason: { actual: 0 } });
    expect(after).toMatchObject({ status: 'fulfilled', value: { nextRevision: 1 } });
    expect(duplicate).toMatchObject({ status: 'rejected', reason: { eventId: stored.id } });
    // Answered after the commit: another connection already reads every accepted append.
    expect(await other.readStream('fresh')).toEqual([]);
    expect(await other.streamRevision('auction-1')).toBe(1);
    expect((await other.readAll()).length).toBe(2 + 50 + 1);
    const positions = results
      .slice(0, 50)
      .map((result) => (result.status === 'fulfilled' ? result.value.position : 0));
    expect(new Set(positions).size).toBe(50);
  });

  it('fails every append of a group whose commit fails, and writes none of them', async () => {
    const filename = onFile();
    const store = new SqliteEventStore({ filename, busyTimeoutMs: 50 });
    opened.push(store);
    await store.append('s', [event()], 'no_stream');
    const lock = new Database(filename);
    lock.exec('BEGIN IMMEDIATE');

    const results = await Promise.allSettled([
      store.append('s', [event()], 0),
      store.append('t', [event()], 'no_stream'),
    ]);
    lock.exec('ROLLBACK');
    lock.close();

    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await store.readAll()).toHaveLength(1);
    expect(await store.append('t', [event()], 'no_stream')).toMatchObject({ nextRevision: 0 });
  });

  it('writes the appends it accepted before it closes', async () => {
    const filename = onFile();
    const store = new SqliteEventStore({ filename });
    const appended = store.append('s', [event(), event()], 'no_stream');
    await store.close();

    expect(await appended).toMatchObject({ nextRevision: 1 });
    expect(await open(filename).readStream('s')).toHaveLength(2);
  });

  it('lets a handler close its own subscription', async () => {
    const store = open(':memory:');
    await store.append('s', [event(), event()], 'no_stream');
    let calls = 0;
    const subscription = store.subscribe({
      batchSize: 1,
      onEvents: async () => {
        calls += 1;
        await subscription.close();
      },
    });

    await waitFor(() => calls > 0);
    await subscription.close();
    await expect(subscription.caughtUp).rejects.toThrow(/closed before it caught up/);
    expect(calls).toBe(1);
  });
});

async function waitFor(condition: () => boolean, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('Timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
