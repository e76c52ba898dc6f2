import { describe, expect, it } from 'vitest';
import { mongoTestDatabases } from '../testing/mongo-test-databases';
import { describeAccountStoreContract } from './account-store.contract';
import { MongoAccountStore } from './mongo-account-store';

const url = process.env.MONGODB_URL;

describe.skipIf(!url)('MongoAccountStore (MONGODB_URL)', () => {
  const mongo = mongoTestDatabases(url, 'auction_accounts_test');
  const { freshDb } = mongo;

  describeAccountStoreContract('MongoDB', () =>
    mongo.subject((client, dbName) => MongoAccountStore.create(client, dbName)),
  );

  it('keeps one document per account with a unique e-mail index and a unique sparse Google subject index', async () => {
    const dbName = freshDb();
    const store = await MongoAccountStore.create(mongo.client(), dbName);
    await MongoAccountStore.create(mongo.client(), dbName);
    const indexes = await mongo.client().db(dbName).collection('accounts').indexes();
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
    const doc = await mongo
      .client()
      .db(dbName)
      .collection('accounts')
      .findOne({ _id: 'a1' as never });
    expect(doc).toMatchObject({ _id: 'a1', email: 'Ada@Example.com', emailKey: 'ada@example.com' });
    expect(doc).not.toHaveProperty('googleSubject');
    await store.erase('a1');
    expect(await mongo.client().db(dbName).collection('accounts').countDocuments()).toBe(0);
    await store.close();
    await expect(mongo.client().db(dbName).command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
  });
});
