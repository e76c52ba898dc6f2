import { expect } from 'vitest';
import type { CollectionSpec, Doc } from '../read-store/read-store';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import type { RecordedEvent, Projection } from '../runner/projection';
import { applyBatch } from '../runner/projection-runner';
import { ReadStoreUserDirectory } from '../users/user-directory';

/**
 * Projections over a real SQLite read store in memory, fed through the runner's own batch path:
 * `given(events)` applies them; `twice` delivers every event twice (in the same batch and again
 * in a batch of its own), which must change nothing.
 */
export const projectionHarness = async (projections: readonly Projection[]) => {
  const store = new SqliteReadStore({ filename: ':memory:' });
  const specs = new Map<string, CollectionSpec>();
  for (const p of projections) for (const spec of p.collections) specs.set(spec.name, spec);
  await store.ensureCollections([...specs.values()]);
  const users = new ReadStoreUserDirectory(store);
  await users.init();

  const apply = async (events: readonly RecordedEvent[], options: { twice?: boolean } = {}) => {
    for (const projection of projections) {
      if (options.twice) {
        await applyBatch(
          store,
          specs,
          projection,
          events.flatMap((e) => [e, e]),
        );
        for (const event of events) await applyBatch(store, specs, projection, [event]);
      } else {
        await applyBatch(store, specs, projection, events);
      }
    }
  };

  /** Every document of every collection, as stored, in a stable order. */
  const dump = async (): Promise<Record<string, Doc[]>> => {
    const all: Record<string, Doc[]> = {};
    for (const name of [...specs.keys()].sort()) all[name] = await store.find(name);
    return all;
  };

  return { store, users, given: apply, dump, close: () => store.close() };
};

/**
 * The idempotency check every read model passes: the events delivered once, and every event
 * delivered twice into a second store, leave the same documents, byte for byte. Returns them.
 */
export const expectSameOnceAndTwice = async (
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
): Promise<Record<string, Doc[]>> => {
  const once = await projectionHarness(projections);
  const twice = await projectionHarness(projections);
  try {
    await once.given(events);
    await twice.given(events, { twice: true });
    const expected = await once.dump();
    const actual = await twice.dump();
    expect(actual).toEqual(expected);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
    return expected;
  } finally {
    await once.close();
    await twice.close();
  }
};
