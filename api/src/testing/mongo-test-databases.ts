import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';

/**
 * For a MongoDB adapter's suite (inside a `describe.skipIf(!MONGODB_URL)`): one client for the
 * suite, a fresh database per call of `freshDb`, every one of them dropped after the suite.
 */
export const mongoTestDatabases = (url: string | undefined, prefix: string) => {
  let client: MongoClient | undefined;
  const databases: string[] = [];
  beforeAll(async () => {
    client = await MongoClient.connect(url ?? '', { ignoreUndefined: true });
  });
  afterAll(async () => {
    const opened = client;
    if (!opened) return;
    await Promise.all(databases.map((db) => opened.db(db).dropDatabase()));
    await opened.close();
  });
  const connected = (): MongoClient => {
    if (!client) throw new Error('The MongoDB test client is not connected yet');
    return client;
  };
  const freshDb = (): string => {
    const dbName = `${prefix}_${randomUUID().slice(0, 8)}`;
    databases.push(dbName);
    return dbName;
  };
  return {
    client: connected,
    freshDb,
    /** A contract subject for an adapter made by `create(client, dbName)`, reopened the same way. */
    subject: async <S extends { close(): Promise<void> }>(
      create: (client: MongoClient, dbName: string) => Promise<S>,
    ) => {
      const dbName = freshDb();
      let store = await create(connected(), dbName);
      return {
        store,
        reopen: async () => {
          await store.close();
          store = await create(connected(), dbName);
          return store;
        },
        cleanup: async () => {
          await store.close();
          await connected().db(dbName).dropDatabase();
        },
      };
    },
  };
};
