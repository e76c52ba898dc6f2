import { CachedSessionStore } from '../stores/sessions/session-cache';
import { asSession } from './realtime';
import type { TestServer } from './test-server';

/** The session id a cookie `auction.sid=s%3A<id>.<signature>` names. */
export const sessionId = (cookie: string): string => {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
  return value.slice(2, value.lastIndexOf('.'));
};

/** The server's session store, which must be the per-node cache. */
export const cacheOf = (server: TestServer): CachedSessionStore => {
  const sessions = server.deps.sessions;
  if (!(sessions instanceof CachedSessionStore)) throw new Error('the sessions are not cached');
  return sessions;
};

/** `GET /auth/me` with exactly this session cookie. */
export const me = (server: TestServer, cookie: string) =>
  asSession(server, cookie, 'GET', '/api/v1/auth/me');
