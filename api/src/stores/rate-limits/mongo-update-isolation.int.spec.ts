import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferretDbVersion } from './mongo-rate-limit-store';

const url = process.env.MONGODB_URL;

/** Concurrent `$inc`s on one document. */
const CONCURRENT = 200;
/** Independent clients (each its own connection pool), as several app nodes would be. */
const CLIENTS = 4;

interface Counter {
  _id: string;
  n: number;
}

/**
 * Whether the server applies a read-modify-write update to one document atomically: the premise of
 * the rate-limit store's design (`mongo-rate-limit-store.ts`). MongoDB does; FerretDB v1 (SQLite
 * backend) reads the document, applies the operator in its own process and writes the whole
 * document back by `_id` without a transaction around the two, so concurrent updates overwrite one
 * another. Pinned here both ways: a FerretDB that stops losing them fails this suite, and the
 * store's `lossyUpdates` detection and its docs should then change with it.
 */
describe.skipIf(!url)('one document, concurrent $inc updates (MONGODB_URL)', () => {
  const dbName = `auction_isolation_test_${Math.random().toString(36).slice(2, 10)}`;
  let clients: MongoClient[] = [];
  let ferret: string | undefined;

  beforeAll(async () => {
    clients = await Promise.all(
      Array.from({ length: CLIENTS }, () => MongoClient.connect(url ?? '')),
    );
    ferret = await ferretDbVersion(clients[0] as MongoClient);
  });
  afterAll(async () => {
    await clients[0]?.db(dbName).dropDatabase();
    await Promise.all(clients.map((c) => c.close()));
  });

  const counters = (i: number) =>
    (clients[i % CLIENTS] as MongoClient).db(dbName).collection<Counter>('counters');

  /** `CONCURRENT` increments spread over the clients; what each saw and what the document ends at. */
  const race = async (
    id: string,
    increment: (i: number) => Promise<number | undefined>,
  ): Promise<{ final: number; seen: number[]; duplicateKeyErrors: number }> => {
    let duplicateKeyErrors = 0;
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        try {
          const n = await increment(i);
          if (n !== undefined) seen.push(n);
        } catch (error) {
          // Two first upserts of one `_id`: the loser's is refused, it does not count.
          if ((error as { code?: number }).code !== 11000) throw error;
          duplicateKeyErrors++;
        }
      }),
    );
    const final = (await counters(0).findOne({ _id: id }))?.n ?? 0;
    return { final, seen, duplicateKeyErrors };
  };

  it('findOneAndUpdate with $inc and upsert, on an existing document', async () => {
    await counters(0).insertOne({ _id: 'fau', n: 0 });
    const { final, seen } = await race('fau', async (i) => {
      const doc = await counters(i).findOneAndUpdate(
        { _id: 'fau' },
        { $inc: { n: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return doc?.n;
    });
    if (ferret) {
      // Most increments vanish: two updates read the same count and both write it plus one.
      expect(final).toBeLessThan(CONCURRENT);
      expect(new Set(seen).size).toBeLessThan(CONCURRENT);
    } else {
      expect(final).toBe(CONCURRENT);
      expect([...seen].sort((a, b) => a - b)).toEqual(
        Array.from({ length: CONCURRENT }, (_, i) => i + 1),
      );
    }
  });

  it('updateOne with $inc', async () => {
    await counters(0).insertOne({ _id: 'update', n: 0 });
    const { final } = await race('update', async (i) => {
      await counters(i).updateOne({ _id: 'update' }, { $inc: { n: 1 } });
      return undefined;
    });
    if (ferret) expect(final).toBeLessThan(CONCURRENT);
    else expect(final).toBe(CONCURRENT);
  });

  it('upserts racing to create the document: the losers get a duplicate key error or an update', async () => {
    const { final, seen, duplicateKeyErrors } = await race('fresh', async (i) => {
      const doc = await counters(i).findOneAndUpdate(
        { _id: 'fresh' },
        { $inc: { n: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      return doc?.n;
    });
    expect(seen.length + duplicateKeyErrors).toBe(CONCURRENT);
    if (ferret) {
      expect(final).toBeLessThan(seen.length);
    } else {
      // MongoDB retries such an upsert itself; an error left over does not count, the rest do.
      expect(final).toBe(seen.length);
    }
  });

  it('one connection, one update in flight at a time: nothing is lost, on FerretDB too', async () => {
    const single = await MongoClient.connect(url ?? '', { maxPoolSize: 1 });
    try {
      const c = single.db(dbName).collection<Counter>('counters');
      await c.insertOne({ _id: 'serial', n: 0 });
      const seen = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const doc = await c.findOneAndUpdate(
            { _id: 'serial' },
            { $inc: { n: 1 } },
            { returnDocument: 'after' },
          );
          return doc?.n ?? 0;
        }),
      );
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    } finally {
      await single.close();
    }
  });
});
