import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { mongoTestDatabases } from '../../testing/mongo-test-databases';
import { GridFsImageStore } from './gridfs-image-store';
import { describeImageStoreContract } from './image-store.contract';
import { UPLOADS_PATH } from './image-store';

const url = process.env.MONGODB_URL;

describe.skipIf(!url)('GridFsImageStore (MONGODB_URL)', () => {
  const mongo = mongoTestDatabases(url, 'auction_images_test');
  const { freshDb } = mongo;

  describeImageStoreContract('GridFS', () =>
    mongo.subject((client, dbName) => GridFsImageStore.create(client, dbName)),
  );

  it('keeps an image as one GridFS file named as in its URL, with its content type; remove deletes file and chunks', async () => {
    const dbName = freshDb();
    const store = await GridFsImageStore.create(mongo.client(), dbName);
    const data = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(600_000, 7)]);
    const imageUrl = await store.save(data);
    const db = mongo.client().db(dbName);
    const files = await db.collection('images.files').find().toArray();
    expect(files).toEqual([
      expect.objectContaining({
        filename: imageUrl.slice('/uploads/'.length),
        length: data.length,
        metadata: { contentType: 'image/jpeg' },
      }),
    ]);
    expect(await db.collection('images.chunks').countDocuments()).toBeGreaterThan(1);

    const other = await GridFsImageStore.create(mongo.client(), dbName);
    await other.remove(imageUrl);
    expect(await db.collection('images.files').countDocuments()).toBe(0);
    expect(await db.collection('images.chunks').countDocuments()).toBe(0);
    await store.close();
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('leaves no chunk of an upload that fails midway (the driver aborts it)', async () => {
    const dbName = freshDb();
    const store = await GridFsImageStore.create(mongo.client(), dbName);
    const db = mongo.client().db(dbName);
    const failing = new Readable({ read() {} });
    failing.push(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(900_000, 7)]));
    const saving = store.save(failing);
    const started = Date.now();
    while ((await db.collection('images.chunks').countDocuments()) === 0) {
      if (Date.now() - started > 5000) throw new Error('no chunk was written');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    failing.destroy(new Error('client went away'));
    await expect(saving).rejects.toThrow('client went away');
    const settled = Date.now();
    while (
      (await db.collection('images.chunks').countDocuments()) > 0 &&
      Date.now() - settled < 3000
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await db.collection('images.chunks').countDocuments()).toBe(0);
    expect(await db.collection('images.files').countDocuments()).toBe(0);
  });
});

describe.skipIf(!url)('GridFsImageStore serving a file removed under it (MONGODB_URL)', () => {
  const mongo = mongoTestDatabases(url, 'auction_images_race_test');

  it('answers 404, not a 200 cut off, when the chunks are gone by the time it reads them', async () => {
    const dbName = mongo.freshDb();
    const store = await GridFsImageStore.create(mongo.client(), dbName);
    const imageUrl = await store.save(
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(900, 7)]),
    );
    // The file found, its chunks already removed: as when an auction is cancelled mid-request.
    await mongo.client().db(dbName).collection('images.chunks').deleteMany({});
    const app = express();
    app.use(UPLOADS_PATH, (req, res, next) => store.serve(req, res, next));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}${imageUrl}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('etag')).toBeNull();
    } finally {
      server.closeAllConnections();
      server.close();
      await store.close();
    }
  });
});
