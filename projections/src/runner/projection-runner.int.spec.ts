import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteEventStore } from '@auction/engine';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import type { Doc } from '../read-store/read-store';
import type { Projection } from './projection';
import { type EventSource, ProjectionRunner } from './projection-runner';

/** Counts events per stream and remembers the last type: enough to see every event applied once. */
const counter = (name = 'counter', fail?: (position: number) => boolean): Projection => ({
  name,
  collections: [{ name: `${name}_streams`, indexes: ['count'] }],
  async handle(event, uow) {
    if (fail?.(event.position)) throw new Error(`cannot apply ${event.position}`);
    await uow.update<Doc & { count: number; lastType: string }>(
      `${name}_streams`,
      event.streamId,
      (doc) => ({
        count: (doc?.count ?? 0) + 1,
        lastType: event.type,
      }),
    );
  },
});

const ev = (type: string) => ({ id: crypto.randomUUID(), type, data: {}, metadata: {} });

let dir: string;
let events: SqliteEventStore;
let read: SqliteReadStore;
const runners: ProjectionRunner[] = [];
const runner = (projections: Projection[], extra: { retryMs?: number } = {}) => {
  const r = new ProjectionRunner({
    source: events,
    store: read,
    projections,
    batchSize: 7,
    ...extra,
  });
  runners.push(r);
  return r;
};
const count = async (collection: string, id: string) =>
  ((await read.get(collection, id)) as (Doc & { count: number }) | undefined)?.count;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runner-'));
  events = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
  read = new SqliteReadStore({ filename: join(dir, 'read.sqlite') });
});

afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
  await read.close();
  await events.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('projection runner', () => {
  it('catches up on history, then follows live appends; waitFor gives read-your-writes', async () => {
    await events.append(
      's-1',
      Array.from({ length: 20 }, () => ev('A')),
      'no_stream',
    );
    const r = runner([counter()]);
    await r.start();
    expect(await count('counter_streams', 's-1')).toBe(20);
    const { position } = await events.append('s-2', [ev('B'), ev('C')], 'no_stream');
    await r.waitFor(position);
    expect(await count('counter_streams', 's-2')).toBe(2);
    expect(await read.checkpoint('counter')).toBe(position);
    expect((await r.status())[0]).toMatchObject({ name: 'counter', position, behind: 0 });
  });

  it('resumes from its checkpoint after a restart without applying anything twice', async () => {
    await events.append(
      's-1',
      Array.from({ length: 10 }, () => ev('A')),
      'no_stream',
    );
    const first = runner([counter()]);
    await first.start();
    await first.stop();
    const { position } = await events.append(
      's-1',
      Array.from({ length: 5 }, () => ev('A')),
      9,
    );
    const second = runner([counter()]);
    await second.start();
    await second.waitFor(position);
    expect(await count('counter_streams', 's-1')).toBe(15);
  });

  it('rebuilds a projection from zero to the same documents', async () => {
    await events.append(
      's-1',
      Array.from({ length: 12 }, () => ev('A')),
      'no_stream',
    );
    await events.append('s-2', [ev('B')], 'no_stream');
    const r = runner([counter()]);
    await r.start();
    const before = JSON.stringify(await read.find('counter_streams'));
    await r.rebuild('counter');
    expect(JSON.stringify(await read.find('counter_streams'))).toBe(before);
    await expect(r.rebuild('nope')).rejects.toThrow(/Unknown projection/);
  });

  it('reports how far behind a projection is, and waitFor times out when it cannot get there', async () => {
    const r = runner([counter()]);
    await r.start();
    await expect(r.waitFor(1_000_000, undefined, 50)).rejects.toThrow(/did not reach/);
  });

  it('retries a failed batch from its checkpoint; the failure is visible in the status', async () => {
    let failing = true;
    const errors: unknown[] = [];
    const r = new ProjectionRunner({
      source: events,
      store: read,
      projections: [counter('flaky', (p) => failing && p === 3)],
      retryMs: 20,
      onError: (e) => errors.push(e),
    });
    runners.push(r);
    await r.start();
    const { position } = await events.append(
      's-1',
      Array.from({ length: 5 }, () => ev('A')),
      'no_stream',
    );
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0));
    expect((await r.status())[0]?.error).toMatch(/cannot apply 3/);
    failing = false;
    await r.waitFor(position, ['flaky'], 5000);
    expect(await count('flaky_streams', 's-1')).toBe(5);
    expect((await r.status())[0]?.error).toBeUndefined();
  });

  it('catches several projections up with one read of the log, each from its own checkpoint', async () => {
    await events.append(
      's-1',
      Array.from({ length: 40 }, () => ev('A')),
      'no_stream',
    );
    const ahead = runner([counter('ahead')]);
    await ahead.start();
    await ahead.stop();
    await events.append(
      's-1',
      Array.from({ length: 60 }, () => ev('A')),
      39,
    );
    let subscriptions = 0;
    let delivered = 0;
    const counting: EventSource = {
      headPosition: () => events.headPosition(),
      subscribe: (options) => {
        subscriptions++;
        return events.subscribe({
          ...options,
          onEvents: (batch) => {
            delivered += batch.length;
            return options.onEvents(batch);
          },
        });
      },
    };
    const r = new ProjectionRunner({
      source: counting,
      store: read,
      projections: [counter('ahead'), counter('one'), counter('two'), counter('three')],
      catchUpBatchSize: 30,
    });
    runners.push(r);
    await r.start();
    for (const name of ['ahead', 'one', 'two', 'three']) {
      expect(await count(`${name}_streams`, 's-1')).toBe(100);
    }
    // One shared read of the 100 events, then one live subscription each (nothing left to read).
    expect(delivered).toBe(100);
    expect(subscriptions).toBe(5);

    await r.rebuild(['one', 'two']);
    expect(delivered).toBe(200);
    for (const name of ['ahead', 'one', 'two', 'three']) {
      expect(await count(`${name}_streams`, 's-1')).toBe(100);
    }
  });

  it('goes on with the others when one projection fails during a shared catch-up, and retries it alone', async () => {
    await events.append(
      's-1',
      Array.from({ length: 50 }, () => ev('A')),
      'no_stream',
    );
    let failing = true;
    const errors: string[] = [];
    const r = new ProjectionRunner({
      source: events,
      store: read,
      projections: [counter('steady'), counter('flaky', (p) => failing && p === 25)],
      catchUpBatchSize: 10,
      retryMs: 20,
      onError: (e, name) => errors.push(`${name}: ${String(e)}`),
    });
    runners.push(r);
    await r.start();
    expect(await count('steady_streams', 's-1')).toBe(50);
    expect(await read.checkpoint('flaky')).toBe(20);
    expect(errors).toEqual(['flaky: Error: cannot apply 25']);
    failing = false;
    await r.waitFor(50, ['flaky'], 5000);
    expect(await count('flaky_streams', 's-1')).toBe(50);
  });

  it('stops during a shared catch-up without waiting for it to end', async () => {
    await events.append(
      's-1',
      Array.from({ length: 30 }, () => ev('A')),
      'no_stream',
    );
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow: EventSource = {
      headPosition: () => events.headPosition(),
      subscribe: (options) =>
        events.subscribe({
          ...options,
          onEvents: async (batch) => {
            await held;
            return options.onEvents(batch);
          },
        }),
    };
    const r = new ProjectionRunner({
      source: slow,
      store: read,
      projections: [counter('one'), counter('two')],
      catchUpBatchSize: 10,
    });
    const starting = r.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopping = r.stop();
    release();
    await stopping;
    await starting;
    expect(await read.checkpoint('one')).toBeLessThanOrEqual(10);
  });

  it('keeps projections independent: each has its own checkpoint', async () => {
    await events.append('s-1', [ev('A'), ev('A')], 'no_stream');
    const r = runner([counter('one'), counter('two')]);
    await r.start();
    await r.rebuild('two');
    expect(await count('one_streams', 's-1')).toBe(2);
    expect(await count('two_streams', 's-1')).toBe(2);
    expect(await read.checkpoint('one')).toBe(await read.checkpoint('two'));
  });
  describe('the document cache', () => {
    /** The read store, counting the documents read one by one, with a commit that may fail. */
    const counting = () => {
      const reads = { count: 0 };
      let failNext = false;
      const store = new Proxy(read, {
        get: (target, key, receiver) => {
          if (key === 'get') {
            return (collection: string, id: string) => {
              reads.count += 1;
              return target.get(collection, id);
            };
          }
          if (key === 'commit') {
            // Lands the batch, then fails as a connection cut after the write would.
            return async (...args: Parameters<SqliteReadStore['commit']>) => {
              await target.commit(...args);
              if (failNext) {
                failNext = false;
                throw new Error('cut off after the commit');
              }
            };
          }
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      return { store, reads, failOnce: () => (failNext = true) };
    };

    const bidOneByOne = async (r: ProjectionRunner, times: number) => {
      for (let i = 0; i < times; i++) {
        const { position } = await events.append('s-1', [ev('A')], 'any');
        await r.waitFor(position, undefined, 5000);
      }
    };

    it('reads a document from the store once, then from the cache in the batches after', async () => {
      const cached = counting();
      const r = new ProjectionRunner({
        source: events,
        store: cached.store,
        projections: [counter('a')],
      });
      runners.push(r);
      await r.start();
      await bidOneByOne(r, 5);
      const uncached = counting();
      const off = new ProjectionRunner({
        source: events,
        store: uncached.store,
        projections: [counter('b')],
        documentCacheSize: 0,
      });
      runners.push(off);
      await off.start();
      await bidOneByOne(off, 5);
      expect(await count('a_streams', 's-1')).toBe(10);
      expect(await count('b_streams', 's-1')).toBe(10);
      // 'a' read its document once, in the first of its 5 live batches, and never in the 5 after;
      // 'b' caught up on 5 over an empty store (no read), then read it in each of its 5 batches.
      expect(cached.reads.count).toBe(1);
      expect(uncached.reads.count).toBe(5);
    });

    it('forgets what it knew when a batch fails: the store may hold more than it says', async () => {
      const errors: unknown[] = [];
      const { store, reads, failOnce } = counting();
      const r = new ProjectionRunner({
        source: events,
        store,
        projections: [counter('c')],
        retryMs: 10,
        onError: (error) => errors.push(error),
      });
      runners.push(r);
      await r.start();
      await bidOneByOne(r, 2);
      failOnce();
      const { position } = await events.append('s-1', [ev('A')], 'any');
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      await r.waitFor(position, undefined, 5000);
      const before = reads.count;
      await bidOneByOne(r, 2);
      // The batch landed before the failure: the next read asks the store, which counts 3.
      expect(reads.count).toBe(before + 1);
      expect(await count('c_streams', 's-1')).toBe(5);
    });
  });
});
