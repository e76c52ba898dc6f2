import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionData } from 'express-session';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { describeSessionStoreContract } from './session-store.contract';
import { SqliteSessionStore } from './sqlite-session-store';

const HOUR_MS = 3_600_000;

let dir: string;
let now: number;
let store: SqliteSessionStore;

const session = (expiresAt: number, user?: string): SessionData =>
  ({
    cookie: {
      originalMaxAge: expiresAt - now,
      expires: new Date(expiresAt).toISOString(),
      httpOnly: true,
      path: '/',
    },
    ...(user === undefined ? {} : { passport: { user } }),
  }) as unknown as SessionData;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
const get = (sid: string) =>
  new Promise<SessionData | null | undefined>((resolve, reject) =>
    store.get(sid, (error, data) => (error ? reject(asError(error)) : resolve(data))),
  );
const callback =
  (resolve: () => void, reject: (error: Error) => void) =>
  (error?: unknown): void =>
    error ? reject(asError(error)) : resolve();
const set = (sid: string, data: SessionData) =>
  new Promise<void>((resolve, reject) => store.set(sid, data, callback(resolve, reject)));
const touch = (sid: string, data: SessionData) =>
  new Promise<void>((resolve, reject) => store.touch(sid, data, callback(resolve, reject)));
const destroy = (sid: string) =>
  new Promise<void>((resolve, reject) => store.destroy(sid, callback(resolve, reject)));

describeSessionStoreContract('SQLite file', () => {
  const contractDir = mkdtempSync(join(tmpdir(), 'sessions-contract-'));
  const filename = join(contractDir, 'sessions.sqlite');
  let contractStore = new SqliteSessionStore(filename);
  return Promise.resolve({
    store: contractStore,
    reopen: async () => {
      await contractStore.close();
      contractStore = new SqliteSessionStore(filename);
      return contractStore;
    },
    cleanup: async () => {
      await contractStore.close();
      rmSync(contractDir, { recursive: true, force: true });
    },
  });
});

describe('SqliteSessionStore on its own clock', () => {
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sessions-'));
    now = Date.UTC(2025, 0, 1);
    store = new SqliteSessionStore(join(dir, 'sessions.sqlite'), () => now);
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads back what it stored, replaces it on set, forgets it on destroy', async () => {
    expect(await get('s1')).toBeNull();
    const first = session(now + HOUR_MS, 'alice');
    await set('s1', first);
    expect(await get('s1')).toEqual(first);

    const second = session(now + 2 * HOUR_MS, 'bob');
    await set('s1', second);
    expect(await get('s1')).toEqual(second);
    expect(await store.countForUser('alice')).toBe(0);
    expect(await store.countForUser('bob')).toBe(1);

    await destroy('s1');
    expect(await get('s1')).toBeNull();
    await destroy('never-existed');
  });

  it('survives reopening the file', async () => {
    const data = session(now + HOUR_MS, 'alice');
    await set('s1', data);
    await store.close();
    store = new SqliteSessionStore(join(dir, 'sessions.sqlite'), () => now);
    expect(await get('s1')).toEqual(data);
  });

  it('reads an expired session as null, and touch pushes the expiry out', async () => {
    await set('s1', session(now + HOUR_MS, 'alice'));
    now += HOUR_MS - 1;
    expect(await get('s1')).not.toBeNull();
    await touch('s1', session(now + HOUR_MS, 'alice'));
    now += HOUR_MS - 1;
    expect(await get('s1')).not.toBeNull();
    now += 1;
    expect(await get('s1')).toBeNull();
    expect(await store.countForUser('alice')).toBe(0);
  });

  it('a touch within a minute of the written expiry writes nothing; a later one slides it', async () => {
    const expiresAt = now + HOUR_MS;
    await set('s1', session(expiresAt, 'alice'));
    await touch('s1', session(expiresAt + 30_000, 'alice'));
    now = expiresAt;
    expect(await get('s1')).toBeNull();

    await set('s2', session(now + HOUR_MS, 'alice'));
    await touch('s2', session(now + HOUR_MS + 90_000, 'alice'));
    now += HOUR_MS + 60_000;
    expect(await get('s2')).not.toBeNull();
  });

  it('a purge of expired sessions (on some sets) keeps the minute rule for the live ones', async () => {
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    try {
      await set('old', session(now + 1, 'bob'));
      const expiresAt = now + HOUR_MS;
      now += 1;
      await set('s1', session(expiresAt, 'alice'));
      expect(await store.countForUser('bob')).toBe(0);
      await touch('s1', session(expiresAt + 30_000, 'alice'));
      now = expiresAt;
      expect(await get('s1')).toBeNull();
    } finally {
      random.mockRestore();
    }
  });

  it('touch does not bring back a destroyed session', async () => {
    await set('s1', session(now + HOUR_MS, 'alice'));
    await destroy('s1');
    await touch('s1', session(now + 2 * HOUR_MS, 'alice'));
    expect(await get('s1')).toBeNull();
  });

  it('destroyUser ends every session of one user and no one else', async () => {
    await set('a1', session(now + HOUR_MS, 'alice'));
    await set('a2', session(now + HOUR_MS, 'alice'));
    await set('b1', session(now + HOUR_MS, 'bob'));
    await set('anon', session(now + HOUR_MS));
    expect(await store.countForUser('alice')).toBe(2);

    expect(await store.destroyUser('alice')).toBe(2);
    expect(await get('a1')).toBeNull();
    expect(await get('a2')).toBeNull();
    expect(await get('b1')).not.toBeNull();
    expect(await get('anon')).not.toBeNull();
    expect(await store.countForUser('alice')).toBe(0);
    expect(await store.countForUser('bob')).toBe(1);
    expect(await store.destroyUser('alice')).toBe(0);
  });

  it('never serves from memory a session another connection changed or ended', async () => {
    // Another process on the same file (the server's sessions are read on every request).
    const other = new SqliteSessionStore(join(dir, 'sessions.sqlite'), () => now);
    const otherSet = (sid: string, data: SessionData) =>
      new Promise<void>((resolve, reject) => other.set(sid, data, callback(resolve, reject)));
    try {
      await set('s1', session(now + HOUR_MS, 'alice'));
      await set('s2', session(now + HOUR_MS, 'bob'));
      expect(await get('s1')).toEqual(session(now + HOUR_MS, 'alice'));

      await otherSet('s1', session(now + 2 * HOUR_MS, 'carol'));
      expect(await get('s1')).toEqual(session(now + 2 * HOUR_MS, 'carol'));

      expect(await other.destroyUser('bob')).toBe(1);
      expect(await get('s2')).toBeNull();
      await new Promise<void>((resolve, reject) => other.destroy('s1', callback(resolve, reject)));
      expect(await get('s1')).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('countForUser counts only the live sessions of that user', async () => {
    await set('a1', session(now + HOUR_MS, 'alice'));
    await set('a2', session(now + 3 * HOUR_MS, 'alice'));
    await set('b1', session(now + HOUR_MS, 'bob'));
    expect(await store.countForUser('alice')).toBe(2);
    expect(await store.countForUser('nobody')).toBe(0);
    now += 2 * HOUR_MS;
    expect(await store.countForUser('alice')).toBe(1);
    expect(await store.countForUser('bob')).toBe(0);
  });
});
