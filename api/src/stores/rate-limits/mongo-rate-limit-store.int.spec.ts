import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Options } from 'express-rate-limit';
import { describe, expect, it } from 'vitest';
import { mongoTestDatabases } from '../../testing/mongo-test-databases';
import { MongoClient } from 'mongodb';
import {
  MongoRateLimitStore,
  ferretDbVersion,
  mongoRateLimitStores,
  rateLimitCollection,
} from './mongo-rate-limit-store';
import { limiter } from '../../http/middleware/rate-limit';
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
    // One after another: concurrent requests on two nodes are the next test's.
    const totals = [];
    for (let i = 0; i < 30; i++)
      totals.push((await (i % 2 ? one : two).increment('alice')).totalHits);
    expect(totals).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
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

  it('stores one document per key and window, however many requests come, and a long key by its hash', async () => {
    const dbName = freshDb();
    const store = new MongoRateLimitStore(mongo.client(), dbName, 'bids:');
    await store.init({ windowMs: 600_000, limit: 3 } as Options);
    const totals = [];
    for (let i = 0; i < 12; i++) totals.push((await store.increment('flood')).totalHits);
    expect(totals).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    await Promise.all(Array.from({ length: 50 }, () => store.increment('flood')));
    const long = 'x'.repeat(100_000);
    expect((await store.increment(long)).totalHits).toBe(1);
    expect((await store.get(long))?.totalHits).toBe(1);
    const windows = mongo
      .client()
      .db(dbName)
      .collection<{ _id: string; n: number }>(rateLimitCollection('bids:'));
    const docs = await windows.find().toArray();
    expect(docs.map((d) => d.n).sort((a, b) => a - b)).toEqual([1, 62]);
    for (const doc of docs) expect(doc._id.length).toBeLessThan(100);
  });

  it('counts exactly on one node under concurrency, and within nodes × limit on several', async () => {
    const dbName = freshDb();
    // Each node its own client (its own connections), as separate processes would have.
    const clients = await Promise.all([1, 2, 3].map(() => MongoClient.connect(url ?? '')));
    try {
      const nodes = clients.map((client) => new MongoRateLimitStore(client, dbName, 'bids:'));
      const limit = 20;
      for (const node of nodes) await node.init({ windowMs: 600_000, limit } as Options);
      const perNode = 60;
      // The first requests of every node race to create the key's document: none may fail.
      const results = await Promise.all(
        Array.from({ length: perNode * nodes.length }, (_, i) =>
          (nodes[i % nodes.length] as MongoRateLimitStore).increment('alice'),
        ),
      );
      const totals = results.map((r) => r.totalHits);
      const passed = totals.filter((total) => total <= limit).length;
      if (await ferretDbVersion(mongo.client())) {
        // Updates lost between nodes: each node still lets through no more than the limit.
        expect(passed).toBeGreaterThanOrEqual(limit);
        expect(passed).toBeLessThanOrEqual(limit * nodes.length);
      } else {
        expect([...totals].sort((a, b) => a - b)).toEqual(
          Array.from({ length: totals.length }, (_, i) => i + 1),
        );
        expect(passed).toBe(limit);
      }
      // One node alone is exact on any server: its requests never race one another.
      const alone = nodes[0] as MongoRateLimitStore;
      const seen = await Promise.all(
        Array.from({ length: 50 }, async () => (await alone.increment('bob')).totalHits),
      );
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await nodes[1]?.get('bob'))?.totalHits).toBe(50);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('on a server that loses updates, a node counts its own: a lost update cannot take its count back', async () => {
    const dbName = freshDb();
    const options = { lossyUpdates: true };
    const one = new MongoRateLimitStore(mongo.client(), dbName, 'bids:', options);
    const two = new MongoRateLimitStore(mongo.client(), dbName, 'bids:', options);
    for (const node of [one, two]) await node.init({ windowMs: 600_000, limit: 5 } as Options);
    for (let i = 0; i < 5; i++) await one.increment('alice');
    // What another node's update does on FerretDB when it read the document before these five:
    // writes it back with its own count.
    const windows = mongo
      .client()
      .db(dbName)
      .collection<{ _id: string; n: number }>(rateLimitCollection('bids:'));
    expect((await windows.updateMany({}, { $set: { n: 1 } })).modifiedCount).toBe(1);
    expect((await one.increment('alice')).totalHits).toBe(6);
    expect((await one.get('alice'))?.totalHits).toBe(6);
    expect((await two.increment('alice')).totalHits).toBe(3);
    // A reset on another node is a new document: this node's own count starts again too.
    await two.resetKey('alice');
    expect((await one.increment('alice')).totalHits).toBe(1);
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
    const windows = mongo
      .client()
      .db(dbName)
      .collection<{ _id: string }>(rateLimitCollection('login:'));
    const deadline = Date.now() + 5_000;
    while ((await windows.countDocuments({ _id: { $regex: ':login:alice$' } })) > 0) {
      if (Date.now() > deadline) throw new Error('the ended window was not deleted');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await windows.countDocuments({ _id: { $regex: ':login:bob$' } })).toBe(1);
  });
});
