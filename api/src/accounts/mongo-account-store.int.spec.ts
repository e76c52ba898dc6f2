import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAccountStoreContract } from './account-store.contract';
import { MongoAccountStore } from './mongo-account-store';

const url = process.env.MONGODB_URL;

describe.skipIf(!url)('MongoAccountStore (MONGODB_URL)', () => {
  let client: MongoClient;
  const databases: string[] = [];

  beforeAll(async () => {
    client = await MongoClient.connect(url ?? '', { ignoreUndefined: true });
  });

  afterAll(async () => {
    await Promise.all(databases.map((db) => client.db(db).dropDatabase()));
    await client.close();
  });

  const freshDb = () => {
    const dbName = `auction_accounts_test_${randomUUID().slice(0, 8)}`;
    databases.push(dbName);
    return dbName;
  };

  describeAccountStoreContract('MongoDB', async () => {
    const dbName = freshDb();
    let store = await MongoAccountStore.create(client, dbName);
    return {
      store,
      reopen: async () => {
        await store.close();
        store = await MongoAccountStore.create(client, dbName);
        return store;
      },
      cleanup: async () => {
        await store.close();
        await client.db(dbName).dropDatabase();
      },
    };
  });

  it('keeps one document per account with a unique e-mail index and a unique sparse Google subject index', async () => {
    const dbName = freshDb();
    const store = await MongoAccountStore.create(client, dbName);
    await MongoAccountStore.create(client, dbName);
    const indexes = await client.db(dbName).collection('accounts').indexes();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { emailKey: 1 }, unique: true }));
    expect(indexes).toContainEqual(
      expect.objectContaining({ key: { googleSubject: 1 }, unique: true }),
    );
    await store.create({
      id: 'a1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: ' Ada@Example.com',
      imageUrl: null,
      passwordHash: null,
      googleSubject: null,
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    const doc = await client
      .db(dbName)
      .collection('accounts')
      .findOne({ _id: 'a1' as never });
    expect(doc).toMatchObject({ _id: 'a1', email: 'Ada@Example.com', emailKey: 'ada@example.com' });
    expect(doc).not.toHaveProperty('googleSubject');
    await store.erase('a1');
    expect(await client.db(dbName).collection('accounts').countDocuments()).toBe(0);
    await store.close();
    await expect(client.db(dbName).command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
  });
});
