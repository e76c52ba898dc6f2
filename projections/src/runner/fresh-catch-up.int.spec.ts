import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteEventStore } from '@auction/engine';
import { allProjections } from '../index';
import type { ReadStore } from '../read-store/read-store';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { EventLog, T0 } from '../testing/event-log';
import type { RecordedEvent } from './projection';
import { applyBatch, ProjectionRunner } from './projection-runner';
import { WrittenIds } from './written-ids';

/**
 * A catch-up over an empty read store answers "absent" from memory for every document it has not
 * written (`WrittenIds`), across its batches: it must build what a live build does, and never ask
 * the store for a document that is not there.
 */

const collections = allProjections.flatMap((p) => p.collections.map((c) => c.name)).sort();

/** Three auctions over many small batches: documents made in one batch are read in later ones. */
const history = (): RecordedEvent[] => {
  const log = new EventLog();
  log.category('antiques', 'Antiques');
  log.create('a1', { title: 'Clock', categoryId: 'antiques', startingPrice: 10_000 });
  log.create('a2', { title: 'Lamp', categoryId: 'antiques', startingPrice: 10_000, seller: 'sam' });
  log.create('a3', { title: 'Vase', categoryId: 'antiques', startingPrice: 10_000 });
  log.bid('a1', 'alice', 11_000, T0 + 1000, 'b1');
  log.bid('a2', 'carol', 10_500, T0 + 1100, 'b2');
  log.bid('a1', 'bob', 12_000, T0 + 1200, 'b3');
  log.bid('a3', 'dave', 10_600, T0 + 1300, 'b4');
  log.bid('a1', 'alice', 13_000, T0 + 1400, 'b5');
  log.editBid('a1', 'bob', 'b3', 14_000, T0 + 1500);
  log.bid('a2', 'dave', 11_000, T0 + 1600, 'b6');
  log.retract('a1', 'bob', 'b3', T0 + 1700);
  log.edit('a2', { title: 'Brass lamp' }, 'sam', T0 + 1800);
  log.bid('a3', 'erin', 11_000, T0 + 1900, 'b7');
  log.bid('a2', 'carol', 12_000, T0 + 1950, 'b8');
  log.close('a1');
  log.cancel('a2', 'seller', 'sam', T0 + 2000);
  log.close('a3');
  return log.events;
};

const dumpAll = async (store: ReadStore): Promise<string[]> => {
  const out: string[] = [];
  for (const name of collections) out.push(`${name} ${JSON.stringify(await store.find(name))}`);
  return out;
};

/** The store, counting the reads of documents that were not there. */
const countingAbsentReads = (store: ReadStore) => {
  const counts = { absent: 0 };
  const counted = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key !== 'get') return value.bind(target) as unknown;
      return async (collection: string, id: string) => {
        const doc = await target.get(collection, id);
        if (doc === undefined) counts.absent++;
        return doc;
      };
    },
  });
  return { store: counted, counts };
};

let dir: string;
let events: SqliteEventStore;
const closing: { close(): Promise<void> }[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fresh-catch-up-'));
  events = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
});
afterEach(async () => {
  for (const c of closing.splice(0).reverse()) await c.close();
  await events.close();
  rmSync(dir, { recursive: true, force: true });
});

const runner = (store: ReadStore, options: { batchSize?: number; catchUpBatchSize?: number }) => {
  const r = new ProjectionRunner({
    source: events,
    store,
    projections: allProjections,
    ...options,
  });
  closing.push({ close: () => r.stop() });
  return r;
};

const sqlite = (name: string) => {
  const store = new SqliteReadStore({ filename: join(dir, name) });
  closing.push(store);
  return store;
};

describe('a catch-up over an empty read store', () => {
  it.each([1, 2, 3, 7])(
    'in batches of %i equals a live build, byte for byte, and never reads a document that is not there',
    async (catchUpBatchSize) => {
      const all = history();
      const append = async (part: readonly RecordedEvent[]) => {
        for (const e of part) {
          await events.append(
            e.streamId,
            [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }],
            'any',
          );
        }
      };
      const live = sqlite('live.sqlite');
      const liveRunner = runner(live, { batchSize: 2 });
      await liveRunner.start();
      await append(all);
      await liveRunner.waitFor((await events.headPosition()) ?? 0);

      const fresh = countingAbsentReads(sqlite('fresh.sqlite'));
      await runner(fresh.store, { catchUpBatchSize }).start();
      expect(await dumpAll(fresh.store)).toEqual(await dumpAll(live));
      expect(fresh.counts.absent).toBe(0);
    },
  );

  it('over a store that is not empty reads the store, as before, and ends the same', async () => {
    const all = history();
    const half = Math.floor(all.length / 2);
    const append = async (part: readonly RecordedEvent[]) => {
      for (const e of part) {
        await events.append(
          e.streamId,
          [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }],
          'any',
        );
      }
    };
    const live = sqlite('live.sqlite');
    const liveRunner = runner(live, { batchSize: 2 });
    await liveRunner.start();
    await append(all.slice(0, half));
    const store = countingAbsentReads(sqlite('kept.sqlite'));
    const first = runner(store.store, { catchUpBatchSize: 3 });
    await first.start();
    await first.stop();
    expect(store.counts.absent).toBe(0);
    await append(all.slice(half));
    await liveRunner.waitFor((await events.headPosition()) ?? 0);
    await runner(store.store, { catchUpBatchSize: 3 }).start();
    // The documents the second half makes are looked for in the store first.
    expect(store.counts.absent).toBeGreaterThan(0);
    expect(await dumpAll(store.store)).toEqual(await dumpAll(live));
  });

  it('gives the event loop turns while it applies a large batch', async () => {
    const store = sqlite('turns.sqlite');
    const specs = new Map(allProjections.flatMap((p) => p.collections).map((c) => [c.name, c]));
    await store.ensureCollections([...specs.values()]);
    const catalog = allProjections.find((p) => p.name === 'catalog');
    if (!catalog) throw new Error('no catalog projection');
    let turns = 0;
    const count = () => {
      turns++;
    };
    setImmediate(count);
    await applyBatch(store, specs, catalog, history(), { written: new WrittenIds(0), turnMs: 0 });
    expect(turns).toBe(1);
    setImmediate(count);
    await applyBatch(store, specs, catalog, history());
    // Without a pace, the embedded store answers at once: no turn before the batch is committed.
    expect(turns).toBe(1);
  });
});

/** The indexes of ours in a SQLite read store's file, with their definitions. */
const indexesIn = (filename: string): string[] => {
  const db = new Database(filename, { readonly: true });
  try {
    return (
      db
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'rm_%(%'")
        .all() as { sql: string }[]
    )
      .map((row) => row.sql)
      .sort();
  } finally {
    db.close();
  }
};

describe('a catch-up over an empty SQLite read store, as a bulk load', () => {
  const append = async (part: readonly RecordedEvent[]) => {
    for (const e of part) {
      await events.append(
        e.streamId,
        [{ id: e.id, type: e.type, data: e.data, metadata: e.metadata }],
        'any',
      );
    }
  };

  it('keeps no index while it loads, and ends with every index and document of a live build', async () => {
    const all = history();
    const live = sqlite('live.sqlite');
    const liveRunner = runner(live, { batchSize: 2 });
    await liveRunner.start();
    await append(all);
    await liveRunner.waitFor((await events.headPosition()) ?? 0);

    const freshFile = join(dir, 'bulk.sqlite');
    const fresh = sqlite('bulk.sqlite');
    const duringLoad: string[][] = [];
    const bulk = new ProjectionRunner({
      source: events,
      store: fresh,
      projections: allProjections,
      catchUpBatchSize: 5,
      bulkLoadEvents: 1,
      onCommitted: (projection) => {
        if (projection === 'catalog') duringLoad.push(indexesIn(freshFile));
      },
    });
    closing.push({ close: () => bulk.stop() });
    await bulk.start();
    expect(duringLoad.length).toBeGreaterThan(1);
    for (const indexes of duringLoad) expect(indexes).toEqual([]);
    expect(indexesIn(freshFile)).toEqual(indexesIn(join(dir, 'live.sqlite')));
    expect(await dumpAll(fresh)).toEqual(await dumpAll(live));
  });

  it('a runner stopped mid-load leaves the indexes to the next start, which ends with the documents of a live build', async () => {
    const all = history();
    const live = sqlite('live.sqlite');
    const liveRunner = runner(live, { batchSize: 2 });
    await liveRunner.start();
    await append(all);
    await liveRunner.waitFor((await events.headPosition()) ?? 0);

    const filename = join(dir, 'stopped.sqlite');
    const first = new SqliteReadStore({ filename });
    let stopping: Promise<void> | undefined;
    const stopped = new ProjectionRunner({
      source: events,
      store: first,
      projections: allProjections,
      catchUpBatchSize: 4,
      bulkLoadEvents: 1,
      onCommitted: () => {
        stopping ??= stopped.stop();
      },
    });
    await stopped.start();
    await stopping;
    expect(indexesIn(filename)).toEqual([]);
    await first.close();
    const next = sqlite('stopped.sqlite');
    await runner(next, { catchUpBatchSize: 4 }).start();
    expect(indexesIn(filename)).toEqual(indexesIn(join(dir, 'live.sqlite')));
    expect(await dumpAll(next)).toEqual(await dumpAll(live));
  });

  it('a load cut short leaves its indexes to the next start, and queries answer the same without them', async () => {
    await append(history());
    const filename = join(dir, 'cut.sqlite');
    const specs = allProjections.flatMap((p) => p.collections);
    const first = new SqliteReadStore({ filename });
    await first.ensureCollections(specs);
    const expected = indexesIn(filename);
    const load = await first.beginBulkLoad(specs.map((c) => c.name));
    expect(indexesIn(filename)).toEqual([]);
    const catalog = allProjections.filter((p) => p.name === 'catalog');
    const apply = new ProjectionRunner({ source: events, store: first, projections: catalog });
    await apply.start();
    await apply.stop();
    const scanned = await first.find('catalog_bids', {
      where: { auctionId: 'a1', retracted: false },
      orderBy: [{ field: 'amount', direction: 'desc' }],
    });
    expect(scanned.map((bid) => bid._id)).toEqual(['b5', 'b1']);
    // The process ends here: `end` never runs.
    void load;
    await first.close();
    const next = sqlite('cut.sqlite');
    await next.ensureCollections(specs);
    expect(indexesIn(filename)).toEqual(expected);
    expect(
      (
        await next.find('catalog_bids', {
          where: { auctionId: 'a1', retracted: false },
          orderBy: [{ field: 'amount', direction: 'desc' }],
        })
      ).map((bid) => bid._id),
    ).toEqual(['b5', 'b1']);
  });
});

describe('WrittenIds', () => {
  it('answers "maybe" for every document added, whatever the ids', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b_c', 'notifications_items'), fc.string()), {
          maxLength: 300,
        }),
        fc.nat({ max: 1 << 20 }),
        (docs, bits) => {
          const written = new WrittenIds(bits);
          for (const [collection, id] of docs) written.add(collection, id);
          for (const [collection, id] of docs) expect(written.mayHold(collection, id)).toBe(true);
        },
      ),
    );
  });

  it('answers "absent" for nearly every document never added', () => {
    const written = WrittenIds.forEvents(10_000);
    for (let i = 0; i < 50_000; i++)
      written.add('notifications_items', `event-${i}:user-${i % 97}`);
    let maybe = 0;
    for (let i = 0; i < 50_000; i++) {
      if (written.mayHold('notifications_items', `other-${i}:user-${i % 97}`)) maybe++;
      if (written.mayHold('catalog_bids', `event-${i}:user-${i % 97}`)) maybe++;
    }
    // About 10 bits a document, three probes: some 1.5 % of "maybe"s.
    expect(maybe).toBeLessThan(2_500);
  });
});
