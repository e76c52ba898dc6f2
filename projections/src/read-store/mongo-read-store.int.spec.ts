import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { expect, it } from 'vitest';
import { describeReadStoreContract } from './contract';
import { MongoReadStore } from './mongo-read-store';

const url = process.env.MONGODB_URL;

if (url === undefined) {
  it('MongoDB contract: not configured', () => {
    console.warn(
      'MongoDB read-store contract NOT run: set MONGODB_URL=mongodb://localhost:27017 to run it',
    );
    expect(process.env.MONGODB_URL).toBeUndefined();
  });
} else {
  describeReadStoreContract('MongoDB', async () => {
    const dbName = `auction_contract_test_${randomUUID().slice(0, 8)}`;
    let store = await MongoReadStore.connect(url, dbName);
    return {
      store,
      reopen: async () => {
        await store.close();
        store = await MongoReadStore.connect(url, dbName);
        return store;
      },
      cleanup: async () => {
        await store.close();
        const client = await MongoClient.connect(url);
        try {
          await client.db(dbName).dropDatabase();
        } finally {
          await client.close();
        }
      },
    };
  });
}
