import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '../../accounts/account';
import { SqliteSessionStore } from '../../stores/sessions/sqlite-session-store';
import { ROLL_EVERY_MS, SESSION_COOKIE, endSession, leanSession, startSession } from './session';

const SECRET = 'test-secret';
const WEEK_MS = 7 * 86_400_000;

const account = (id: string): Account => ({
  id,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: `${id}@example.com`,
  role: 'User',
  imageUrl: null,
  passwordHash: null,
  googleSubject: null,
  createdAt: '2025-01-01T00:00:00.000Z',
});

let dir: string;
let store: SqliteSessionStore;
let server: Server;
let base: string;
let accounts: Map<string, Account>;
let lookups: number;

const start = async (options: { secure?: boolean; trustProxy?: boolean } = {}) => {
  const app = express();
  app.set('etag', false);
  app.use(
    leanSession({
      store,
      secret: SECRET,
      secure: options.secure ?? false,
      trustProxy: options.trustProxy ?? false,
      users: (id) => {
        lookups++;
        return Promise.resolve(accounts.get(id));
      },
      log: () => undefined,
    }),
  );
  app.post('/login/:id', async (req, res) => {
    await startSession(req, account(req.params.id));
    res.json({ user: req.user?.id });
  });
  app.post('/logout', async (req, res) => {
    await endSession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.json({});
  });
  app.post('/note', (req, res) => {
    (req.session as unknown as { note: string }).note = 'kept';
    res.json({});
  });
  app.get('/me', (req, res) => {
    res.json({
      user: req.user?.id ?? null,
      note: (req.session as unknown as { note?: string }).note ?? null,
    });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const call = async (method: string, path: string, cookie?: string, headers = {}) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
  const setCookies = res.headers.getSetCookie().filter((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return {
    status: res.status,
    body: (await res.json()) as { user?: string | null; note?: string | null },
    setCookies,
    /** The `name=value` pair of the session cookie it set, if it set one. */
    cookie: setCookies[0]?.split(';')[0],
  };
};

/** The sessions table as stored: id, user and expiry. */
const rows = () => {
  const db = new Database(join(dir, 'sessions.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT sid, user_id, expires FROM sessions').all() as {
      sid: string;
      user_id: string | null;
      expires: number;
    }[];
  } finally {
    db.close();
  }
};

const signed = (sid: string, secret = SECRET) =>
  `${SESSION_COOKIE}=${encodeURIComponent(
    `s:${sid}.${createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '')}`,
  )}`;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-01-01T00:00:00Z') });
  dir = mkdtempSync(join(tmpdir(), 'lean-session-'));
  store = new SqliteSessionStore(join(dir, 'sessions.sqlite'));
  accounts = new Map([
    ['alice', account('alice')],
    ['bob', account('bob')],
  ]);
  lookups = 0;
});

afterEach(async () => {
  vi.useRealTimers();
  await new Promise((resolve) => server.close(resolve));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('leanSession', () => {
  it('logs in on a new signed, httpOnly, SameSite=Lax cookie that lasts a week, stored with its user', async () => {
    await start();
    const login = await call('POST', '/login/alice');
    expect(login.body.user).toBe('alice');
    expect(login.setCookies).toHaveLength(1);
    const [pair, ...attributes] = (login.setCookies[0] ?? '').split('; ');
    expect(pair).toMatch(new RegExp(`^${SESSION_COOKIE}=s%3A[\\w-]+\\.[\\w%]+$`));
    expect(attributes).toEqual([
      'Path=/',
      `Expires=${new Date(Date.now() + WEEK_MS).toUTCString()}`,
      'HttpOnly',
      'SameSite=Lax',
    ]);
    const [row] = rows();
    expect(row).toMatchObject({ user_id: 'alice', expires: Date.now() + WEEK_MS });
    expect(pair).toBe(signed(row?.sid ?? ''));
    expect((await call('GET', '/me', pair)).body.user).toBe('alice');
  });

  it('sends the rolling cookie again, and moves the stored expiry, at most once a minute', async () => {
    await start();
    const { cookie } = await call('POST', '/login/alice');
    const loggedInAt = Date.now();
    vi.setSystemTime(loggedInAt + ROLL_EVERY_MS - 1);
    const soon = await call('GET', '/me', cookie);
    expect(soon.body.user).toBe('alice');
    expect(soon.setCookies).toEqual([]);
    expect(rows()[0]?.expires).toBe(loggedInAt + WEEK_MS);

    vi.setSystemTime(loggedInAt + ROLL_EVERY_MS);
    const later = await call('GET', '/me', cookie);
    expect(later.body.user).toBe('alice');
    expect(later.cookie).toBe(cookie);
    expect(later.setCookies[0]).toContain(
      `Expires=${new Date(Date.now() + WEEK_MS).toUTCString()}`,
    );
    expect(rows()[0]?.expires).toBe(Date.now() + WEEK_MS);

    const next = await call('GET', '/me', cookie);
    expect(next.setCookies).toEqual([]);
  });

  it('treats a cookie with a bad signature, another secret or none as no session', async () => {
    await start();
    const { cookie = '' } = await call('POST', '/login/alice');
    const sid = rows()[0]?.sid ?? '';
    lookups = 0;
    for (const forged of [
      `${cookie.slice(0, -3)}AAA`,
      signed(sid, 'another-secret'),
      `${SESSION_COOKIE}=${sid}`,
      `${SESSION_COOKIE}=s%3A${sid}`,
      `${SESSION_COOKIE}=%E0%A4%A`,
    ]) {
      const res = await call('GET', '/me', forged);
      expect(res.body.user, forged).toBeNull();
      expect(res.setCookies).toEqual([]);
    }
    expect(lookups).toBe(0);
    expect(rows()).toHaveLength(1);
    // The genuine cookie, among others in the header, still works.
    expect((await call('GET', '/me', `a=1; ${cookie}; b=2`)).body.user).toBe('alice');
  });

  it('stores and sends nothing for an anonymous request until it writes to its session', async () => {
    await start();
    const plain = await call('GET', '/me');
    expect(plain.body).toEqual({ user: null, note: null });
    expect(plain.setCookies).toEqual([]);
    expect(rows()).toEqual([]);

    const wrote = await call('POST', '/note');
    expect(wrote.setCookies).toHaveLength(1);
    expect(rows()).toEqual([expect.objectContaining({ user_id: null })]);
    expect((await call('GET', '/me', wrote.cookie)).body).toEqual({ user: null, note: 'kept' });
  });

  it('ends a session at once on logout and on destroyUser, though its cookie was verified before', async () => {
    await start();
    const alice = (await call('POST', '/login/alice')).cookie;
    const bob = (await call('POST', '/login/bob')).cookie;
    expect((await call('GET', '/me', alice)).body.user).toBe('alice');
    expect((await call('GET', '/me', bob)).body.user).toBe('bob');

    const logout = await call('POST', '/logout', alice);
    expect(logout.setCookies[0]).toMatch(/^auction\.sid=; Path=\/; Expires=Thu, 01 Jan 1970/);
    expect((await call('GET', '/me', alice)).body.user).toBeNull();

    expect(await store.destroyUser('bob')).toBe(1);
    expect((await call('GET', '/me', bob)).body.user).toBeNull();
    expect(rows()).toEqual([]);
  });

  it('gives a new session id at every login and ends the previous one', async () => {
    await start();
    const first = (await call('POST', '/login/alice')).cookie;
    const second = (await call('POST', '/login/bob', first)).cookie;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect((await call('GET', '/me', first)).body.user).toBeNull();
    expect((await call('GET', '/me', second)).body.user).toBe('bob');
    expect(rows().map((row) => row.user_id)).toEqual(['bob']);
  });

  it('leaves a session whose account is gone anonymous, and drops the user from it', async () => {
    await start();
    const { cookie } = await call('POST', '/login/alice');
    accounts.delete('alice');
    expect((await call('GET', '/me', cookie)).body.user).toBeNull();
    expect(await store.countForUser('alice')).toBe(0);
  });

  it('sets a Secure cookie only on a request that came over https', async () => {
    await start({ secure: true, trustProxy: true });
    const plain = await call('POST', '/login/alice');
    expect(plain.setCookies).toEqual([]);
    const proxied = await call('POST', '/login/alice', undefined, {
      'x-forwarded-proto': 'https',
    });
    expect(proxied.setCookies[0]?.split('; ')).toContain('Secure');
  });
});
