import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteEventStore } from '@auction/engine';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoReadStore } from '../read-store/mongo-read-store';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import type { Doc, ReadStore } from '../read-store/read-store';
import type { Projection } from './projection';
import { type LeaseOptions, ProjectionRunner, type ProjectionStatus } from './projection-runner';

/**
 * Several runners sharing one read store, as app nodes in separate processes would: each node has
 * its own connections to the same SQLite files (events and read models), and a writer of its own
 * appends the events.
 */

/** Counts events per stream: a skipped event leaves a count short. */
const counter = (name: string): Projection => ({
  name,
  collections: [{ name: `${name}_streams`, indexes: ['count'] }],
  async handle(event, uow) {
    await uow.update<Doc & { count: number; lastType: string }>(
      `${name}_streams`,
      event.streamId,
      (doc) => ({ count: (doc?.count ?? 0) + 1, lastType: event.type }),
    );
  },
});
const names = ['one', 'two'] as const;

const ev = (type: string) => ({ id: crypto.randomUUID(), type, data: {}, metadata: {} });

interface Failing {
  acquire: boolean | 'hang';
  release: boolean;
}

interface Node {
  readonly holder: string;
  readonly runner: ProjectionRunner;
  /** Batches this node committed, per projection (from `onCommitted`). */
  readonly committed: Map<string, number>;
  /** Positions this node applied, per projection, in order: each event must be applied once. */
  readonly applied: Map<string, number[]>;
  readonly errors: string[];
}

/**
 * A read store whose lease calls can be made to fail, as when the store is out of reach, or to
 * hang (`acquire: 'hang'`), as when it stops answering.
 */
const faulty = (store: ReadStore) => {
  const failing: Failing = { acquire: false, release: false };
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'acquireLease' && failing.acquire === 'hang') {
        return () => new Promise<never>(() => undefined);
      }
      if (
        (property === 'acquireLease' && failing.acquire) ||
        (property === 'releaseLease' && failing.release)
      ) {
        return () => Promise.reject(new Error('read store out of reach'));
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { wrapped, failing };
};

let dir: string;
let log: SqliteEventStore;
let read: SqliteReadStore;
const closing: { close(): Promise<void> }[] = [];
const runners: ProjectionRunner[] = [];

interface NodeOptions {
  readonly lease?: Omit<LeaseOptions, 'holder'>;
  /** Wraps the node's read store (to make its lease calls fail). */
  readonly wrap?: (store: ReadStore) => ReadStore;
  /** Awaited before the node applies each event (to hold its batches back). */
  readonly gate?: (position: number) => Promise<void>;
  /** Told of each batch the node committed, with its checkpoint (as a cluster pushes it). */
  readonly pushed?: (name: string, position: number) => void;
}

const node = (
  holder: string,
  { lease = {}, wrap = (s) => s, gate, pushed }: NodeOptions = {},
): Node => {
  const events = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), pollIntervalMs: 10 });
  const store = new SqliteReadStore({ filename: join(dir, 'read.sqlite') });
  closing.push(events, store);
  const committed = new Map<string, number>(names.map((n) => [n, 0]));
  const applied = new Map<string, number[]>(names.map((n) => [n, []]));
  const errors: string[] = [];
  const recorded = names.map((name): Projection => ({
    ...counter(name),
    handle: async (event, uow) => {
      await gate?.(event.position);
      applied.get(name)!.push(event.position);
      await counter(name).handle(event, uow);
    },
  }));
  const runner = new ProjectionRunner({
    source: events,
    store: wrap(store),
    projections: recorded,
    batchSize: 7,
    retryMs: 20,
    onError: (error) => errors.push(error instanceof Error ? error.message : String(error)),
    onCommitted: (name, _writes, position) => {
      committed.set(name, committed.get(name)! + 1);
      pushed?.(name, position);
    },
    lease: { holder, ttlMs: 2000, renewMs: 50, followPollMs: 10, ...lease },
  });
  runners.push(runner);
  return { holder, runner, committed, applied, errors };
};

/** A node whose read store can be made to fail or hang (`failing`), with a lease of `ttlMs`. */
const faultyNode = (holder: string, ttlMs: number): { node: Node; failing: Failing } => {
  let failing: Failing = { acquire: false, release: false };
  const made = node(holder, {
    lease: { ttlMs },
    wrap: (s) => {
      const f = faulty(s);
      failing = f.failing;
      return f.wrapped;
    },
  });
  return { node: made, failing };
};

const append = async (stream: string, n: number): Promise<number> => {
  const { position } = await log.append(
    stream,
    Array.from({ length: n }, (_, i) => ev(i % 2 ? 'A' : 'B')),
    'any',
  );
  return position;
};
const roles = async (n: Node): Promise<Record<string, ProjectionStatus['role']>> =>
  Object.fromEntries((await n.runner.status()).map((s) => [s.name, s.role]));
const allPositions = async (): Promise<number[]> =>
  (await log.readAll()).map(({ position }) => position);
const until = (check: () => Promise<void> | void, timeout = 3000) =>
  vi.waitFor(check, { timeout, interval: 5 });

/** What a single runner, alone and from zero, builds from the whole log. */
const replayed = async (): Promise<Record<string, Doc[]>> => {
  const fresh = new SqliteReadStore({ filename: ':memory:' });
  const runner = new ProjectionRunner({
    source: log,
    store: fresh,
    projections: names.map(counter),
  });
  try {
    await runner.start();
    return Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, await fresh.find(`${n}_streams`)] as const)),
    );
  } finally {
    await runner.stop();
    await fresh.close();
  }
};
const shared = async (): Promise<Record<string, Doc[]>> =>
  Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await read.find(`${n}_streams`)] as const)),
  );

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runner-lease-'));
  log = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
  read = new SqliteReadStore({ filename: join(dir, 'read.sqlite') });
  await read.ensureCollections(names.flatMap((n) => counter(n).collections));
});

afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
  for (const c of closing.splice(0)) await c.close();
  await read.close();
  await log.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('projection runner with a lease, on nodes sharing one read store', () => {
  it('runs each projection on exactly one node; the other follows, and waitFor works there', async () => {
    await append('s-1', 10);
    const a = node('a');
    const b = node('b');

    await Promise.all([a.runner.start(), b.runner.start()]);
    const position = await append('s-2', 5);
    await b.runner.waitFor(position);
    await a.runner.waitFor(position);

    expect(await read.checkpoint('one')).toBe(position);
    expect(await read.checkpoint('two')).toBe(position);
    const [rolesA, rolesB] = [await roles(a), await roles(b)];
    for (const name of names) {
      expect([rolesA[name], rolesB[name]].sort()).toEqual(['following', 'running']);
      const runs = rolesA[name] === 'running' ? a : b;
      const follows = runs === a ? b : a;
      expect(runs.committed.get(name)).toBeGreaterThan(0);
      expect(follows.committed.get(name)).toBe(0);
      expect(follows.applied.get(name)).toEqual([]);
      expect(runs.applied.get(name)).toEqual(await allPositions());
      await expect(follows.runner.rebuild(name)).rejects.toThrow(
        `Projection ${name} runs on another node`,
      );
    }
    for (const status of [...(await a.runner.status()), ...(await b.runner.status())]) {
      expect(status).toMatchObject({ position, behind: 0, error: undefined });
      if (status.role === 'following') expect(status.sinceLastBatchMs).toBeUndefined();
    }
    await expect(b.runner.waitFor(position + 1000, undefined, 50)).rejects.toThrow(/did not reach/);
  });

  it('resolves a follower waitFor only once the node running the projection has committed', async () => {
    let open = (): void => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const a = node('a', { gate: (position) => (position > 3 ? opened : Promise.resolve()) });
    await append('s-1', 3);
    await a.runner.start();
    const b = node('b');
    await b.runner.start();
    expect(Object.values(await roles(b))).toEqual(['following', 'following']);

    const position = await append('s-1', 4);
    let resolved = false;
    const waiting = b.runner.waitFor(position).then(() => (resolved = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resolved).toBe(false);
    expect(await read.checkpoint('one')).toBe(3);

    open();
    await waiting;
    expect(await read.checkpoint('one')).toBe(position);
    expect(await read.checkpoint('two')).toBe(position);
    expect(b.committed).toEqual(
      new Map([
        ['one', 0],
        ['two', 0],
      ]),
    );
  });

  it('resolves a follower waitFor on a pushed checkpoint, long before its next poll', async () => {
    const told: { to?: Node } = {};
    // a tells b of each checkpoint it commits, as the cluster's broadcast does.
    const a = node('a', {
      pushed: (name, position) => told.to?.runner.followedCheckpoint(name, position),
    });
    await append('s-1', 3);
    await a.runner.start();
    // Neither its poll nor its lease rounds (which read the checkpoints too) come within the test.
    const b = (told.to = node('b', { lease: { followPollMs: 60_000, renewMs: 60_000 } }));
    await b.runner.start();
    expect(Object.values(await roles(b))).toEqual(['following', 'following']);

    const position = await append('s-1', 4);
    await b.runner.waitFor(position, undefined, 2000);
    expect(b.runner.reached(position)).toBe(true);
    // A pushed checkpoint of a projection the node applies itself changes nothing there.
    a.runner.followedCheckpoint('one', position + 100);
    expect(a.runner.reached(position + 100, ['one'])).toBe(false);
  });

  it('never moves a follower back when a checkpoint read returns less than a push told it', async () => {
    const a = node('a');
    await append('s-1', 3);
    await a.runner.start();
    const b = node('b');
    await b.runner.start();
    const position = await append('s-1', 2);
    await b.runner.waitFor(position, undefined, 5000);
    // A push ahead of what a read of the stored checkpoint returns (a read that began before the
    // holder's write committed): status() reads the checkpoint, and must keep the pushed position.
    b.runner.followedCheckpoint('one', position + 100);
    await b.runner.status();
    expect(b.runner.reached(position + 100, ['one'])).toBe(true);
  });

  it('hands a stopped node’s projections to the follower, which continues from the checkpoint', async () => {
    await append('s-1', 20);
    const a = node('a');
    await a.runner.start();
    const b = node('b');
    await b.runner.start();
    expect(Object.values(await roles(a))).toEqual(['running', 'running']);

    // Events keep coming while a stops and b takes over.
    const writing = (async () => {
      for (let i = 0; i < 15; i++) {
        await append(`s-${i % 3}`, 2);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const stopping = Date.now();
    await a.runner.stop();
    await until(async () => expect(Object.values(await roles(b))).toEqual(['running', 'running']));
    const handover = Date.now() - stopping;
    await writing;
    const head = await append('s-9', 4);
    await b.runner.waitFor(head);

    // The released lease was taken at b's next renewal, not after it would have expired.
    expect(handover).toBeLessThan(1000);
    for (const name of names) {
      expect(a.committed.get(name)).toBeGreaterThan(0);
      expect(b.committed.get(name)).toBeGreaterThan(0);
      const applied = [...a.applied.get(name)!, ...b.applied.get(name)!];
      expect(applied).toEqual(await allPositions());
    }
    expect(await shared()).toEqual(await replayed());
  });

  it('takes over a dead node’s projections once its lease expires', async () => {
    await append('s-1', 5);
    const { node: a, failing } = faultyNode('a', 300);
    await a.runner.start();
    const b = node('b', { lease: { ttlMs: 300 } });
    await b.runner.start();
    // Dies: stops without releasing its leases.
    failing.release = true;
    await a.runner.stop();
    const died = Date.now();

    await until(async () => expect(Object.values(await roles(b))).toEqual(['running', 'running']));
    expect(Date.now() - died).toBeGreaterThanOrEqual(200);
    const head = await append('s-2', 5);
    await b.runner.waitFor(head);
    expect(b.applied.get('one')).toEqual((await allPositions()).slice(5));
    expect(await shared()).toEqual(await replayed());
  });

  it('stops a projection whose lease it cannot renew within the ttl, reporting each failure', async () => {
    await append('s-1', 5);
    const { node: a, failing } = faultyNode('a', 300);
    await a.runner.start();
    expect(Object.values(await roles(a))).toEqual(['running', 'running']);

    failing.acquire = true;
    const stalled = Date.now();
    await until(async () =>
      expect(Object.values(await roles(a))).toEqual(['following', 'following']),
    );
    expect(Date.now() - stalled).toBeLessThan(300 + 400);
    expect(a.errors).toContain('read store out of reach');
    expect(a.errors.some((e) => /lease of projection one was not renewed in time/.test(e))).toBe(
      true,
    );
    // Another node may take it now, and a applies nothing more.
    expect(await read.acquireLease('one', 'thief', 60_000)).toBe(true);
    const before = [...a.applied.get('one')!];
    const position = await append('s-2', 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(a.applied.get('one')).toEqual(before);
    expect(await read.checkpoint('one')).toBe(5);

    // Once the store answers again, a takes back what is free and goes on from the checkpoint.
    failing.acquire = false;
    await a.runner.waitFor(position, ['two']);
    await read.releaseLease('one', 'thief');
    await a.runner.waitFor(position, ['one']);
    expect(a.applied.get('one')).toEqual(await allPositions());
  });

  it('stops a projection when the store stops answering, and takes it back once it answers', async () => {
    await append('s-1', 3);
    const { node: a, failing } = faultyNode('a', 300);
    await a.runner.start();

    failing.acquire = 'hang';
    await until(async () =>
      expect(Object.values(await roles(a))).toEqual(['following', 'following']),
    );
    await until(() =>
      expect(a.errors).toContain('renewing the lease of projection one: no answer within 300 ms'),
    );

    failing.acquire = false;
    const position = await append('s-2', 3);
    await a.runner.waitFor(position);
    expect(a.applied.get('one')).toEqual(await allPositions());
  });

  it('closes the subscription at once when another node has taken its lease', async () => {
    const a = node('a');
    await a.runner.start();
    await append('s-1', 4);
    await a.runner.waitFor(4);

    // As a node whose clock runs ahead would: the lease freed under a and taken.
    await read.releaseLease('one', 'a');
    expect(await read.acquireLease('one', 'thief', 60_000)).toBe(true);
    await until(async () => expect(await roles(a)).toEqual({ one: 'following', two: 'running' }));
    expect(a.errors.some((e) => /lease of projection one is held by another node/.test(e))).toBe(
      true,
    );

    const position = await append('s-2', 6);
    await a.runner.waitFor(position, ['two']);
    expect(a.applied.get('one')).toEqual([1, 2, 3, 4]);
    expect(await read.checkpoint('one')).toBe(4);
    await expect(a.runner.waitFor(position, ['one'], 100)).rejects.toThrow(/did not reach/);
  });

  it('rebuilds a projection on the node holding its lease, and nowhere else', async () => {
    await append('s-1', 9);
    const a = node('a');
    await a.runner.start();
    const b = node('b');
    await b.runner.start();

    await a.runner.rebuild('one');
    await expect(b.runner.rebuild('one')).rejects.toThrow('Projection one runs on another node');

    expect(await shared()).toEqual(await replayed());
    expect((await b.runner.status()).map(({ role, position }) => ({ role, position }))).toEqual([
      { role: 'following', position: 9 },
      { role: 'following', position: 9 },
    ]);
  });

  it('refuses a rebuild, emptying nothing, when its lease has just gone to another node', async () => {
    await append('s-1', 4);
    const a = node('a', { lease: { renewMs: 60_000 } });
    await a.runner.start();
    await read.releaseLease('one', 'a');
    expect(await read.acquireLease('one', 'thief', 60_000)).toBe(true);

    await expect(a.runner.rebuild('one')).rejects.toThrow('Projection one runs on another node');

    expect(await read.checkpoint('one')).toBe(4);
    expect(await read.count('one_streams')).toBe(1);
    expect((await roles(a)).one).toBe('following');
  });

  it('runs every projection without a lease as before, each reported running', async () => {
    await append('s-1', 3);
    const r = new ProjectionRunner({ source: log, store: read, projections: names.map(counter) });
    runners.push(r);
    await r.start();
    expect(await r.status()).toEqual([
      expect.objectContaining({ name: 'one', role: 'running', position: 3 }),
      expect.objectContaining({ name: 'two', role: 'running', position: 3 }),
    ]);
    expect(await read.acquireLease('one', 'other', 1000)).toBe(true);
    await r.rebuild('one');
  });
});

// The MongoDB adapter takes a lease in several round trips (see `acquireLease` there): the
// handover again, with each node on a client of its own, when MONGODB_URL names a server.
const url = process.env.MONGODB_URL ?? '';
// 8 on FerretDB's SQLite backend (scripts/with-mongodb.sh); unset: bulk writes.
const statementsPerCommand = process.env.MONGODB_STATEMENTS_PER_COMMAND
  ? Number(process.env.MONGODB_STATEMENTS_PER_COMMAND)
  : undefined;

describe.skipIf(!url)('projection runner with a lease, on nodes sharing MongoDB', () => {
  it('runs each projection on one node and hands it over without applying an event twice', async () => {
    const dbName = `auction_lease_test_${randomUUID().slice(0, 8)}`;
    const stores: MongoReadStore[] = [];
    const mongoNode = async (holder: string) => {
      const store = await MongoReadStore.connect(url, dbName, { statementsPerCommand });
      stores.push(store);
      return node(holder, { lease: { ttlMs: 1000, renewMs: 50 }, wrap: () => store });
    };
    try {
      await append('s-1', 12);
      const [a, b] = await Promise.all([mongoNode('a'), mongoNode('b')]);
      await Promise.all([a.runner.start(), b.runner.start()]);
      const [rolesA, rolesB] = [await roles(a), await roles(b)];
      for (const name of names) {
        expect([rolesA[name], rolesB[name]].sort()).toEqual(['following', 'running']);
      }
      const first = await append('s-2', 6);
      await Promise.all([a.runner.waitFor(first), b.runner.waitFor(first)]);

      const writing = (async () => {
        for (let i = 0; i < 10; i++) await append(`s-${i % 3}`, 2);
      })();
      await a.runner.stop();
      await until(async () =>
        expect(Object.values(await roles(b))).toEqual(['running', 'running']),
      );
      await writing;
      const head = await append('s-9', 3);
      await b.runner.waitFor(head);

      for (const name of names) {
        expect([...a.applied.get(name)!, ...b.applied.get(name)!].sort((x, y) => x - y)).toEqual(
          await allPositions(),
        );
      }
      const expected = await replayed();
      for (const name of names) {
        expect(await stores[1]!.find(`${name}_streams`)).toEqual(expected[name]);
      }
    } finally {
      for (const r of runners.splice(0)) await r.stop();
      for (const store of stores) await store.close();
      const client = await MongoClient.connect(url);
      await client.db(dbName).dropDatabase();
      await client.close();
    }
  });
});
