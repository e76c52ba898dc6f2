import type { SessionData } from 'express-session';
import { describe, expect, it } from 'vitest';
import { mongoTestDatabases } from '../../testing/mongo-test-databases';
import { MongoSessionStore } from './mongo-session-store';
import { describeSessionStoreContract } from './session-store.contract';

const url = process.env.MONGODB_URL;
const HOUR_MS = 3_600_000;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
const get = (store: MongoSessionStore, sid: string) =>
  new Promise<SessionData | null | undefined>((resolve, reject) =>
    store.get(sid, (error, data) => (error ? reject(asError(error)) : resolve(data))),
  );
const set = (store: MongoSessionStore, sid: string, data: SessionData) =>
  new Promise<void>((resolve, reject) =>
    store.set(sid, data, (error) => (error ? reject(asError(error)) : resolve())),
  );
const touch = (store: MongoSessionStore, sid: string, data: SessionData) =>
  new Promise<void>((resolve, reject) =>
    store.touch(sid, data, (error) => (error ? reject(asError(error)) : resolve())),
  );
const sessionData = (expiresAt: number, user?: string): SessionData => ({
  cookie: { originalMaxAge: HOUR_MS, expires: new Date(expiresAt), httpOnly: true, path: '/' },
  ...(user === undefined ? {} : { passport: { user } }),
});

describe.skipIf(!url)('MongoSessionStore (MONGODB_URL)', () => {
  const mongo = mongoTestDatabases(url, 'auction_sessions_test');
  const { freshDb } = mongo;

  describeSessionStoreContract('MongoDB', () =>
    mongo.subject((client, dbName) => MongoSessionStore.create(client, dbName)),
  );

  it('stores the data as a document, indexed by its user, and leaves the shared client open', async () => {
    const dbName = freshDb();
    const store = await MongoSessionStore.create(mongo.client(), dbName);
    await set(store, 's1', sessionData(Date.now() + HOUR_MS, 'alice'));
    const sessions = mongo.client().db(dbName).collection('sessions');
    expect(await sessions.findOne({ _id: 's1' as never })).toMatchObject({
      session: { passport: { user: 'alice' } },
      expires: expect.any(Date),
      lastModified: expect.any(Date),
    });
    expect(await sessions.indexes()).toContainEqual(
      expect.objectContaining({ key: { 'session.passport.user': 1 } }),
    );
    await store.close();
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('a touch writes the new expiry once the last write is a minute old', async () => {
    const store = await MongoSessionStore.create(mongo.client(), freshDb());
    const expiresAt = Date.now() + 1_000;
    await set(store, 's1', sessionData(expiresAt, 'alice'));
    const read = (await get(store, 's1')) as SessionData & { lastModified?: Date };
    expect(read.lastModified).toBeInstanceOf(Date);
    await touch(store, 's1', {
      ...read,
      lastModified: new Date(Date.now() - 61_000),
      cookie: { ...read.cookie, expires: new Date(expiresAt + HOUR_MS) },
    } as SessionData);
    await new Promise((resolve) => setTimeout(resolve, expiresAt + 100 - Date.now()));
    expect(await get(store, 's1')).not.toBeNull();
  });

  it('shares sessions between nodes: one ends what another started', async () => {
    const dbName = freshDb();
    const [a, b] = await Promise.all([
      MongoSessionStore.create(mongo.client(), dbName),
      MongoSessionStore.create(mongo.client(), dbName),
    ]);
    await set(a, 's1', sessionData(Date.now() + HOUR_MS, 'alice'));
    await set(b, 's2', sessionData(Date.now() + HOUR_MS, 'alice'));
    expect(await b.countForUser('alice')).toBe(2);
    expect(await b.destroyUser('alice')).toBe(2);
    expect(await get(a, 's1')).toBeNull();
  });

  it('deletes expired sessions (TTL index where the server has one, else a sweep on write)', async () => {
    const dbName = freshDb();
    const store = await MongoSessionStore.create(mongo.client(), dbName, { sweepEveryMs: 0 });
    await set(store, 'old', sessionData(Date.now() - 1_000, 'alice'));
    await set(store, 'new', sessionData(Date.now() + HOUR_MS, 'alice'));
    const sessions = mongo.client().db(dbName).collection('sessions');
    const deadline = Date.now() + 5_000;
    while ((await sessions.countDocuments({ _id: 'old' as never })) > 0) {
      if (Date.now() > deadline) throw new Error('the expired session was not deleted');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await sessions.countDocuments({ _id: 'new' as never })).toBe(1);
  });
});
