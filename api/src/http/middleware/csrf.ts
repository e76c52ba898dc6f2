import { DomainError, rejection } from '@auction/contracts';
import type { RequestHandler } from 'express';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * Refuses a mutating request that a browser sent from another site: its `Origin` (or failing that
 * `Sec-Fetch-Site`, then `Referer`) must be ours or one of `CORS_ORIGINS` (`allowedOrigins`).
 * Requests without any of them come from programs, not browsers, so they carry no ambient cookies
 * to abuse. Session cookies are SameSite=Lax too, unless `CORS_ORIGINS` names another site.
 */
export const csrfGuard =
  (allowedOrigins: readonly string[]): RequestHandler =>
  (req, _res, next) => {
    if (SAFE.has(req.method)) return next();
    const refuse = () => next(new DomainError(rejection('CSRF_REJECTED')));
    const origin = req.header('origin');
    if (origin !== undefined) return allowedOrigins.includes(origin) ? next() : refuse();
    const site = req.header('sec-fetch-site');
    if (site !== undefined) return site === 'same-origin' || site === 'none' ? next() : refuse();
    const referer = req.header('referer');
    if (referer !== undefined) {
      const from = originOf(referer);
      return from !== undefined && allowedOrigins.includes(from) ? next() : refuse();
    }
    return next();
  };
