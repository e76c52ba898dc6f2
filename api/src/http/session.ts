import session from 'express-session';
import type { AppDeps } from '../app-deps';

export const SESSION_COOKIE = 'auction.sid';
const WEEK_MS = 7 * 86_400_000;

/** httpOnly, SameSite=Lax cookies, Secure when the public origin is https; stored server-side. */
export const sessionMiddleware = (deps: AppDeps) =>
  session({
    name: SESSION_COOKIE,
    store: deps.sessions,
    secret: deps.sessionSecret,
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
