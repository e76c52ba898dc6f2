import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import session from 'express-session';
import type { AppDeps } from '../app-deps';

export const SESSION_COOKIE = 'auction.sid';
const WEEK_MS = 7 * 86_400_000;

/** SESSION_SECRET, or a random one kept in DATA_DIR so sessions survive restarts. */
const sessionSecret = (deps: AppDeps): string => {
  if (deps.config.SESSION_SECRET) return deps.config.SESSION_SECRET;
  const file = join(deps.config.DATA_DIR, 'session-secret');
  if (!existsSync(file))
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
};

/** httpOnly, SameSite=Lax cookies, Secure when the public origin is https; stored server-side. */
export const sessionMiddleware = (deps: AppDeps) =>
  session({
    name: SESSION_COOKIE,
    store: deps.sessions,
    secret: sessionSecret(deps),
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: deps.config.TRUST_PROXY,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.origin.startsWith('https:'),
      maxAge: WEEK_MS,
      path: '/',
    },
  });
