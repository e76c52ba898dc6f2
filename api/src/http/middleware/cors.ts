import type { RequestHandler } from 'express';

const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** What our clients send beyond the CORS-safelisted headers. */
const HEADERS = 'Content-Type, Idempotency-Key, Consistency-Token';
/**
 * What a client may read beyond the safelisted response headers: retries, rate limits, and its
 * consistency token and whether a read was answered behind it (read-your-writes.ts).
 */
const EXPOSED = 'Retry-After, RateLimit, RateLimit-Policy, Consistency-Token, Read-Models-Behind';
/** How long a browser may keep a preflight's answer, in seconds (Chromium caps it at 2 hours). */
const MAX_AGE = '600';

/**
 * Credentialed CORS for exactly the origins of `CORS_ORIGINS`: each gets its own origin back (never
 * `*`) with credentials, and its preflight answered here; any other origin gets no CORS header, so
 * the browser keeps the answer from the page. Every answer says `Vary: Origin`, for caches.
 */
export const corsFor =
  (origins: readonly string[]): RequestHandler =>
  (req, res, next) => {
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !origins.includes(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      res.setHeader('Access-Control-Allow-Headers', HEADERS);
      res.setHeader('Access-Control-Max-Age', MAX_AGE);
      res.vary('Access-Control-Request-Headers');
      res.statusCode = 204;
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    next();
  };
