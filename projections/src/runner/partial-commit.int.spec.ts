import { afterEach, describe, expect, it } from 'vitest';
import { allProjections } from '../index';
import type { CollectionSpec, Doc, ReadStore, Write } from '../read-store/read-store';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { EventLog, T0 } from '../testing/event-log';
import type { RecordedEvent, Projection } from './projection';
import { applyBatch } from './projection-runner';

/**
 * A store that cannot commit a batch atomically (MongoDB without a replica set, FerretDB) may be
 * cut off after any of the batch's writes, with its checkpoint unmoved; the runner then replays
 * the batch from the checkpoint. Whatever landed, the replay must leave what a clean commit does.
 */

const specs = new Map<string, CollectionSpec>(
  allProjections.flatMap((p) => p.collections).map((spec) => [spec.name, spec]),
);
const opened: SqliteReadStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

const storeWith = async (projection: Projection, events: readonly RecordedEvent[]) => {
  const store = new SqliteReadStore({ filename: ':memory:' });
  opened.push(store);
  await store.ensureCollections([...specs.values()]);
  if (events.length > 0) await applyBatch(store, specs, projection, events);
  return store;
};

const dump = async (store: ReadStore, projection: Projection) => {
  const all: Record<string, Doc[]> = {};
  for (const spec of projection.collections) all[spec.name] = await store.find(spec.name);
  return all;
};

/** The writes the batch would commit, taken from the commit call (which then changes nothing). */
const writesOf = async (
  store: ReadStore,
  projection: Projection,
  events: readonly RecordedEvent[],
): Promise<readonly Write[]> => {
  let captured: readonly Write[] = [];
  const capturing = new Proxy(store, {
    get: (target, key, receiver) =>
      key === 'commit'
        ? (_name: string, writes: readonly Write[]) => {
            captured = writes;
            return Promise.resolve();
          }
        : (Reflect.get(target, key, receiver) as unknown),
  });
  await applyBatch(capturing, specs, projection, events);
  return captured;
};

/** Two auctions with outbids, a raised bid, a retraction, an edit, a close and a cancel. */
const history = () => {
  const log = new EventLog();
  log.create('a1', { title: 'Clock', startingPrice: 10_000 });
  log.create('a2', { title: 'Lamp', startingPrice: 10_000, seller: 'sam' });
  const before = log.events.length;
  log.bid('a1', 'alice', 11_000, T0 + 1000, 'b1');
  log.bid('a1', 'bob', 12_000, T0 + 1100, 'b2');
  log.bid('a2', 'carol', 10_500, T0 + 1200, 'b3');
  log.bid('a1', 'alice', 13_000, T0 + 1300, 'b4');
  log.editBid('a1', 'bob', 'b2', 14_000, T0 + 1400);
  log.bid('a2', 'dave', 11_000, T0 + 1500, 'b5');
  log.retract('a1', 'bob', 'b2', T0 + 1600);
  log.edit('a2', { title: 'Brass lamp' }, 'sam', T0 + 1700);
  log.close('a1');
  log.cancel('a2', 'seller', 'sam', T0 + 1800);
  return { prefix: log.events.slice(0, before), batch: log.events.slice(before) };
};

describe('a batch cut off mid-commit, then replayed', () => {
  it.each(allProjections.map((p) => [p.name, p] as const))(
    '%s: every cut point ends as a clean commit does',
    async (_name, projection) => {
      const { prefix, batch } = history();
      const clean = await storeWith(projection, [...prefix, ...batch]);
      const expected = await dump(clean, projection);
      const checkpoint = prefix[prefix.length - 1]?.position ?? 0;
      const writes = await writesOf(await storeWith(projection, prefix), projection, batch);
      expect(writes.length).toBeGreaterThan(0);
      for (let cut = 0; cut <= writes.length; cut++) {
        const store = await storeWith(projection, prefix);
        // What landed before the cut; the checkpoint stays where the batch began.
        await store.commit(projection.name, writes.slice(0, cut), checkpoint);
        await applyBatch(store, specs, projection, batch);
        expect({ cut, docs: await dump(store, projection) }).toEqual({ cut, docs: expected });
      }
    },
  );
});
