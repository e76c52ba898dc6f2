import { type MockInstance, afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestUser, signUpAndLogIn } from '../../testing/fixtures';
import { asSession, logIn, pause } from '../../testing/realtime';
import { cacheOf, me, sessionId } from '../../testing/session-cache';
import { type TestServer, startTestServer } from '../../testing/test-server';
import type { CachedSessionStore } from './session-cache';

/**
 * One node's sessions in memory (`CachedSessionStore` in front of the real store: SQLite, or
 * MongoDB with TEST_STORES=mongodb): a signed-in client's requests stop reading the store, and a
 * logout or an account deletion still ends the session on the very next request.
 */

describe('sessions cached on one node', () => {
  let server: TestServer;
  let user: TestUser;
  let reads: MockInstance<CachedSessionStore['store']['get']>;

  beforeAll(async () => {
    server = await startTestServer({ SESSION_CACHE_MS: '60000' });
    user = await signUpAndLogIn(server);
    // Counts the real store's reads (it still answers them).
    reads = vi.spyOn(cacheOf(server).store, 'get');
  }, 30_000);

  afterAll(async () => {
    reads?.mockRestore();
    await server?.cleanup();
  });

  it('reads a session from the store once, then serves it from memory', async () => {
    const cookie = await logIn(server, user);
    reads.mockClear();
    for (let i = 0; i < 100; i += 1) {
      const res = await me(server, cookie);
      expect(res.status).toBe(200);
      expect(res.body.user._id).toBe(user.id);
    }
    expect(reads).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledWith(sessionId(cookie), expect.any(Function));
  });

  it('hands the store back a session served from memory as the store gave it (its touch works)', async () => {
    const cookie = await logIn(server, user);
    expect((await me(server, cookie)).status).toBe(200);
    const cache = cacheOf(server);
    const id = sessionId(cookie);
    const fromStore = await new Promise<unknown>((resolve, reject) =>
      cache.store.get(id, (error, data) =>
        error ? reject(new Error('session store', { cause: error })) : resolve(data),
      ),
    );
    const fromMemory = await new Promise<unknown>((resolve, reject) =>
      cache.get(id, (error, data) =>
        error ? reject(new Error('session store', { cause: error })) : resolve(data),
      ),
    );
    expect(fromMemory).toEqual(fromStore);
    // connect-mongo's touch reads `lastModified` as a Date: a copy from memory must be one too.
    await new Promise<void>((resolve, reject) =>
      cache.touch(id, fromMemory as Parameters<CachedSessionStore['touch']>[1], (error) =>
        error ? reject(new Error('session store', { cause: error })) : resolve(),
      ),
    );
  });

  it('a logged-out session is refused on the very next request', async () => {
    const cookie = await logIn(server, user);
    expect((await me(server, cookie)).status).toBe(200);
    expect((await me(server, cookie)).status).toBe(200);
    const out = await asSession(server, cookie, 'POST', '/api/v1/auth/logout', {});
    expect(out.status).toBe(200);
    expect((await me(server, cookie)).status).toBe(401);
    expect((await asSession(server, cookie, 'GET', '/api/v1/user/profile')).status).toBe(401);
  });

  it('an account deleted ends all its sessions on the very next request', async () => {
    const leaver = await signUpAndLogIn(server);
    const [first, second] = [await logIn(server, leaver), await logIn(server, leaver)];
    for (const cookie of [first, second]) expect((await me(server, cookie)).status).toBe(200);
    const deleted = await asSession(server, first, 'DELETE', '/api/v1/user/delete-account');
    expect(deleted.status).toBe(200);
    reads.mockClear();
    for (const cookie of [first, second]) expect((await me(server, cookie)).status).toBe(401);
    // Refused because the sessions are gone from memory and the store, not only because the
    // account is (which the account store would say as well).
    expect(reads.mock.calls.map(([sid]) => sid)).toEqual([sessionId(first), sessionId(second)]);
  });

  it('a new login is seen at once: the session the cookie names now holds the user', async () => {
    // An anonymous session with content (here: none yet) is replaced at login by a new id; the
    // old id was destroyed, so a client still sending it is anonymous.
    const cookie = await logIn(server, user);
    expect((await me(server, cookie)).status).toBe(200);
    const again = await asSession(server, cookie, 'POST', '/api/v1/auth/login', {
      email: user.email,
      password: user.password,
    });
    expect(again.status).toBe(200);
    expect((await me(server, cookie)).status).toBe(401);
  });
});

describe('a session changed behind the cache’s back (a missed broadcast)', () => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ SESSION_CACHE_MS: '2000' });
    user = await signUpAndLogIn(server);
  }, 30_000);

  afterAll(async () => {
    await server?.cleanup();
  });

  it('is served from memory at most SESSION_CACHE_MS, then read again', async () => {
    const cookie = await logIn(server, user);
    expect((await me(server, cookie)).status).toBe(200);
    // Ended in the shared store without this node being told, as by a node whose broadcast
    // never arrived.
    const store = cacheOf(server).store;
    await new Promise<void>((resolve, reject) =>
      store.destroy(sessionId(cookie), (error) => (error ? reject(error as Error) : resolve())),
    );
    const started = Date.now();
    expect((await me(server, cookie)).status).toBe(200);
    let status = 200;
    while (status === 200 && Date.now() - started < 5_000) {
      await pause(20);
      status = (await me(server, cookie)).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(2_000 + 1_000);
  });
});
