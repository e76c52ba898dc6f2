import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GridFsImageStore } from './gridfs-image-store';
import { describeImageStoreContract } from './image-store.contract';

const url = process.env.MONGODB_URL;

describe.skipIf(!url)('GridFsImageStore (MONGODB_URL)', () => {
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
    const dbName = `auction_images_test_${randomUUID().slice(0, 8)}`;
    databases.push(dbName);
    return dbName;
  };

  describeImageStoreContract('GridFS', async () => {
    const dbName = freshDb();
    let store = await GridFsImageStore.create(client, dbName);
    return {
      store,
      reopen: async () => {
        await store.close();
        store = await GridFsImageStore.create(client, dbName);
        return store;
      },
      cleanup: async () => {
        await store.close();
        await client.db(dbName).dropDatabase();
      },
    };
  });

  it('keeps an image as one GridFS file named as in its URL, with its content type; remove deletes file and chunks', async () => {
    const dbName = freshDb();
    const store = await GridFsImageStore.create(client, dbName);
    const data = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(600_000, 7)]);
    const imageUrl = await store.save(data);
    const db = client.db(dbName);
    const files = await db.collection('images.files').find().toArray();
    expect(files).toEqual([
      expect.objectContaining({
        filename: imageUrl.slice('/uploads/'.length),
        length: data.length,
        metadata: { contentType: 'image/jpeg' },
      }),
    ]);
    expect(await db.collection('images.chunks').countDocuments()).toBeGreaterThan(1);

    const other = await GridFsImageStore.create(client, dbName);
    await other.remove(imageUrl);
    expect(await db.collection('images.files').countDocuments()).toBe(0);
    expect(await db.collection('images.chunks').countDocuments()).toBe(0);
    await store.close();
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
