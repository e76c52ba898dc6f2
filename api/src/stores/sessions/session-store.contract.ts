import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import session, { type SessionData } from 'express-session';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserSessionStore } from './session-store';

/** What the contract suite needs from an adapter under test. */
export interface SessionStoreContractSubject {
  /** A store on the system clock (sessions expire in real time). */
  readonly store: UserSessionStore;
  /** Closes the store and opens it again on the same data. */
  readonly reopen: () => Promise<UserSessionStore>;
  /** Closes whichever store is open and removes its data. */
  readonly cleanup: () => Promise<void>;
}

const HOUR_MS = 3_600_000;
/** Long enough for a round trip to any store, short enough to wait for in a test. */
const SHORT_MS = 1_500;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A session as express-session hands it to a store (cookie serialised as JSON would have it). */
const sessionData = (expiresAt: number, user?: string, extra: object = {}): SessionData =>
  ({
    cookie: {
      originalMaxAge: expiresAt - Date.now(),
      expires: new Date(expiresAt).toISOString(),
      httpOnly: true,
      secure: false,
      path: '/',
      sameSite: 'lax',
    },
    ...(user === undefined ? {} : { passport: { user } }),
    ...extra,
  }) as unknown as SessionData;

/**
 * What a session reads back as, comparable across adapters: JSON (dates as strings), without the
 * bookkeeping an adapter may add (connect-mongo's `lastModified`).
 */
const comparable = (data: SessionData | null | undefined): unknown => {
  if (data === null || data === undefined) return data ?? null;
  const { lastModified: _, ...rest } = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  return rest;
};

/**
 * The one suite every session store adapter passes, through express-session's callback API as
 * the middleware calls it. Each test opens a fresh subject; session and user ids carry a random
 * suffix, so the suite also runs against a shared server. Expiry runs on the real clock.
 */
export function describeSessionStoreContract(
  name: string,
  open: () => Promise<SessionStoreContractSubject>,
): void {
  describe(`session store contract: ${name}`, () => {
    let subject: SessionStoreContractSubject;
    let store: UserSessionStore;
    let run: string;

    const sid = (label: string) => `${label}-${run}`;
    const user = (label: string) => `${label}-${run}`;
    const get = (id: string) =>
      new Promise<SessionData | null | undefined>((resolve, reject) =>
        store.get(sid(id), (error, data) => (error ? reject(asError(error)) : resolve(data))),
      );
    const done =
      (resolve: () => void, reject: (error: Error) => void) =>
      (error?: unknown): void =>
        error ? reject(asError(error)) : resolve();
    const set = (id: string, data: SessionData) =>
      new Promise<void>((resolve, reject) => store.set(sid(id), data, done(resolve, reject)));
    const touch = (id: string, data: SessionData) =>
      new Promise<void>((resolve, reject) => {
        if (!store.touch) throw new Error('the store has no touch');
        store.touch(sid(id), data, done(resolve, reject));
      });
    const destroy = (id: string) =>
      new Promise<void>((resolve, reject) => store.destroy(sid(id), done(resolve, reject)));

    beforeEach(async () => {
      run = randomUUID().slice(0, 8);
      subject = await open();
      store = subject.store;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    it('reads back what it stored, replaces it on set, forgets it on destroy', async () => {
      expect(await get('s1')).toBeNull();
      const first = sessionData(Date.now() + HOUR_MS, user('alice'));
      await set('s1', first);
      expect(comparable(await get('s1'))).toEqual(comparable(first));

      const second = sessionData(Date.now() + 2 * HOUR_MS, user('bob'), {
        google: { state: 's', nonce: 'n', verifier: 'v', returnTo: '/dashboard' },
      });
      await set('s1', second);
      expect(comparable(await get('s1'))).toEqual(comparable(second));
      expect(await store.countForUser(user('alice'))).toBe(0);
      expect(await store.countForUser(user('bob'))).toBe(1);

      await destroy('s1');
      expect(await get('s1')).toBeNull();
      expect(await store.countForUser(user('bob'))).toBe(0);
      await destroy('never-existed');
    });

    it('keeps sessions across reopening', async () => {
      const data = sessionData(Date.now() + HOUR_MS, user('alice'));
      await set('s1', data);
      store = await subject.reopen();
      expect(comparable(await get('s1'))).toEqual(comparable(data));
      expect(await store.countForUser(user('alice'))).toBe(1);
    });

    it('never reads or counts an expired session', async () => {
      await set('past', sessionData(Date.now() - 1_000, user('alice')));
      expect(await get('past')).toBeNull();
      expect(await store.countForUser(user('alice'))).toBe(0);
    });

    it('expires sessions in time; a touch pushes the expiry out, unless it moved less than a minute', async () => {
      const start = Date.now();
      const alice = user('alice');
      await set('untouched', sessionData(start + SHORT_MS, alice));
      await set('touched', sessionData(start + SHORT_MS, alice));
      await set('nudged', sessionData(start + SHORT_MS, alice));
      await set('long', sessionData(start + HOUR_MS, user('bob')));
      expect(await store.countForUser(alice)).toBe(3);

      await touch('touched', sessionData(start + HOUR_MS, alice));
      // As express-session does: the session it read, with the cookie's new expiry.
      const read = await get('nudged');
      expect(read).not.toBeNull();
      await touch('nudged', {
        ...read,
        cookie: { ...read?.cookie, expires: new Date(start + SHORT_MS + 30_000).toISOString() },
      } as unknown as SessionData);

      await sleep(start + SHORT_MS + 100 - Date.now());
      expect(await get('untouched')).toBeNull();
      expect(await get('nudged')).toBeNull();
      expect(await get('touched')).not.toBeNull();
      expect(await get('long')).not.toBeNull();
      expect(await store.countForUser(alice)).toBe(1);
    });

    it('a touch does not bring back a destroyed session, and is not an error', async () => {
      await set('s1', sessionData(Date.now() + HOUR_MS, user('alice')));
      await destroy('s1');
      await touch('s1', sessionData(Date.now() + 2 * HOUR_MS, user('alice')));
      await touch('never-existed', sessionData(Date.now() + 2 * HOUR_MS, user('alice')));
      expect(await get('s1')).toBeNull();
      expect(await get('never-existed')).toBeNull();
      expect(await store.countForUser(user('alice'))).toBe(0);
    });

    it('destroyUser ends every session of one user and no one else, and says how many', async () => {
      const alice = user('alice');
      await set('a1', sessionData(Date.now() + HOUR_MS, alice));
      await set('a2', sessionData(Date.now() + 2 * HOUR_MS, alice));
      await set('b1', sessionData(Date.now() + HOUR_MS, user('bob')));
      await set('anon', sessionData(Date.now() + HOUR_MS));
      expect(await store.countForUser(alice)).toBe(2);

      expect(await store.destroyUser(alice)).toBe(2);
      expect(await get('a1')).toBeNull();
      expect(await get('a2')).toBeNull();
      expect(await get('b1')).not.toBeNull();
      expect(await get('anon')).not.toBeNull();
      expect(await store.countForUser(alice)).toBe(0);
      expect(await store.countForUser(user('bob'))).toBe(1);
      expect(await store.destroyUser(alice)).toBe(0);
      expect(await store.destroyUser(user('nobody'))).toBe(0);
    });

    it('a session that signs out (no user) is no longer counted for its former user', async () => {
      await set('s1', sessionData(Date.now() + HOUR_MS, user('alice')));
      await set('s1', sessionData(Date.now() + HOUR_MS));
      expect(await store.countForUser(user('alice'))).toBe(0);
      expect(await store.destroyUser(user('alice'))).toBe(0);
      expect(await get('s1')).not.toBeNull();
    });

    it('serves express-session: a signed-in session lasts across requests until destroyUser', async () => {
      const app = express();
      app.use(
        session({
          name: 'sid',
          store,
          secret: 'contract',
          resave: false,
          saveUninitialized: false,
          rolling: true,
          cookie: { httpOnly: true, sameSite: 'lax', maxAge: HOUR_MS },
        }),
      );
      app.post('/login/:user', (req, res) => {
        (req.session as unknown as { passport: { user: string } }).passport = {
          user: req.params.user,
        };
        res.json({ ok: true });
      });
      app.get('/me', (req, res) => {
        res.json({
          user: (req.session as { passport?: { user?: string } }).passport?.user ?? null,
        });
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const alice = user('alice');
        const login = await fetch(`${base}/login/${alice}`, { method: 'POST' });
        const cookie = login.headers.getSetCookie()[0]?.split(';')[0] ?? '';
        expect(cookie).toMatch(/^sid=/);
        const me = () => fetch(`${base}/me`, { headers: { cookie } }).then((r) => r.json());
        expect(await me()).toEqual({ user: alice });
        expect(await me()).toEqual({ user: alice });
        expect(await store.countForUser(alice)).toBe(1);

        expect(await store.destroyUser(alice)).toBe(1);
        expect(await me()).toEqual({ user: null });
        expect(await store.countForUser(alice)).toBe(0);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
