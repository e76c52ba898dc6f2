import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Options } from 'express-rate-limit';
import { describe, expect, it } from 'vitest';
import { mongoTestDatabases } from '../testing/mongo-test-databases';
import { MongoRateLimitStore, mongoRateLimitStores } from './mongo-rate-limit-store';
import { limiter } from './rate-limit';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';

const url = process.env.MONGODB_URL;

describe.skipIf(!url)('MongoRateLimitStore (MONGODB_URL)', () => {
  const mongo = mongoTestDatabases(url, 'auction_limits_test');
  const { freshDb } = mongo;

  describeRateLimitStoreContract('MongoDB', () => {
    const dbName = freshDb();
    return Promise.resolve({
      make: mongoRateLimitStores(mongo.client(), dbName),
      cleanup: async () => {
        await mongo.client().db(dbName).dropDatabase();
      },
    });
  });

  it('counts across nodes: two stores with one prefix share the counters', async () => {
    const dbName = freshDb();
    const one = new MongoRateLimitStore(mongo.client(), dbName, 'login:');
    const two = new MongoRateLimitStore(mongo.client(), dbName, 'login:');
    for (const node of [one, two]) await node.init({ windowMs: 600_000, limit: 1_000 } as Options);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).increment('alice')),
    );
    expect(Math.max(...results.map((r) => r.totalHits))).toBe(30);
    expect((await one.get('alice'))?.totalHits).toBe(30);
    await two.resetKey('alice');
    expect(await one.get('alice')).toBeUndefined();
  });

  it('a limit holds across app nodes behind express-rate-limit', async () => {
    const dbName = freshDb();
    const stores = mongoRateLimitStores(mongo.client(), dbName);
    const servers = [1, 2].map(() => {
      const app = express();
      app.use(
        limiter({
          windowMs: 600_000,
          limit: 3,
          key: () => 'everyone',
          message: 'Too many tries',
          store: stores('signup'),
        }),
      );
      app.get('/', (_req, res) => {
        res.json({ ok: true });
      });
      return app.listen(0, '127.0.0.1');
    });
    await Promise.all(servers.map((s) => new Promise((resolve) => s.once('listening', resolve))));
    try {
      const urls = servers.map((s) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/`);
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await fetch(urls[i % 2] ?? '')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    } finally {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });

  it('keeps at most limit + 1 hits per key and window, however many requests come', async () => {
    const dbName = freshDb();
    const store = new MongoRateLimitStore(mongo.client(), dbName, 'bids:');
    await store.init({ windowMs: 600_000, limit: 3 } as Options);
    const totals = [];
    for (let i = 0; i < 12; i++) totals.push((await store.increment('flood')).totalHits);
    expect(totals.slice(0, 3)).toEqual([1, 2, 3]);
    expect(totals.slice(3).every((total) => total > 3)).toBe(true);
    const concurrent = await Promise.all(
      Array.from({ length: 20 }, () => store.increment('flood')),
    );
    expect(concurrent.every((r) => r.totalHits > 3)).toBe(true);
    expect(await mongo.client().db(dbName).collection('rate_limits').countDocuments()).toBe(4);
  });

  it('deletes ended windows (TTL index where the server has one, else a sweep)', async () => {
    const dbName = freshDb();
    const store = new MongoRateLimitStore(mongo.client(), dbName, 'login:', { sweepEveryMs: 0 });
    await store.init({ windowMs: 200, limit: 100 } as Options);
    const { resetTime } = await store.increment('alice');
    await new Promise((resolve) =>
      setTimeout(resolve, (resetTime?.getTime() ?? 0) - Date.now() + 20),
    );
    await store.increment('bob');
    const hits = mongo.client().db(dbName).collection('rate_limits');
    const deadline = Date.now() + 5_000;
    while ((await hits.countDocuments({ k: 'login:alice' })) > 0) {
      if (Date.now() > deadline) throw new Error('the ended window was not deleted');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await hits.countDocuments({ k: 'login:bob' })).toBe(1);
    expect(await hits.indexes()).toContainEqual(expect.objectContaining({ key: { k: 1, w: 1 } }));
  });
});
