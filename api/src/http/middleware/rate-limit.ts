import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { errorCatalog } from '@auction/contracts';
import { ipKeyGenerator, MemoryStore, type Options, type Store } from 'express-rate-limit';
import type { Request, RequestHandler } from 'express';
import { respond } from '../respond';

/** express-rate-limit's name for a policy (`<limit>-in-<window>`), as its draft-8 headers say. */
const policyName = (limit: number, windowMs: number): string => {
  const seconds = windowMs / 1000;
  const minutes = seconds / 60;
  const hours = minutes / 60;
  const days = hours / 24;
  const duration =
    seconds < 60
      ? `${seconds}sec`
      : minutes < 60
        ? `${minutes}min`
        : hours < 24
          ? `${hours}hr${hours > 1 ? 's' : ''}`
          : `${days}day${days > 1 ? 's' : ''}`;
  return `${limit}-in-${duration}`;
};

/** Partition keys remembered per limiter (a hash each); forgotten all at once beyond this. */
const REMEMBERED_KEYS = 10_000;

/** Appends a value to a response header, as express's `res.append` does. */
const append = (res: ServerResponse, name: string, value: string): void => {
  const previous = res.getHeader(name);
  res.setHeader(
    name,
    previous === undefined
      ? value
      : Array.isArray(previous)
        ? [...previous, value]
        : [String(previous), value],
  );
};

const initStore = (store: Store, windowMs: number, limit: number): void => {
  const init = store.init?.({
    windowMs,
    limit,
    skipFailedRequests: false,
    skipSuccessfulRequests: false,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
  } as Options);
  if (init instanceof Promise)
    init.catch((error: unknown) =>
      console.error('express-rate-limit: async error during store initialization.', error),
    );
};

/**
 * A fixed-window count per key on the same stores, for what a middleware cannot count before the
 * route runs (the bytes of an upload as they arrive): `hit(key)` counts one and answers whether
 * the limit is passed, and the seconds until its window ends.
 */
export const counter = (options: {
  readonly windowMs: number;
  readonly limit: number;
  readonly store?: Store | undefined;
}): ((key: string) => Promise<{ readonly over: boolean; readonly resetSeconds: number }>) => {
  const { windowMs, limit } = options;
  const store = options.store ?? new MemoryStore();
  initStore(store, windowMs, limit);
  return async (key) => {
    const { totalHits, resetTime } = await store.increment(key);
    const resetSeconds = resetTime
      ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
      : Math.ceil(windowMs / 1000);
    return { over: totalHits > limit, resetSeconds };
  };
};

/**
 * A fixed-window limit per key; over it, a 429 with a message a person can act on. The same answers
 * and headers as express-rate-limit's middleware with our options, on its stores, without its
 * per-request cost (option checks, awaits, a SHA-256 of the key for every response): the store is
 * asked once per request and the hashed key is remembered.
 */
export const limiter = (options: {
  readonly windowMs: number;
  readonly limit: number;
  readonly key: (req: Request) => string;
  readonly message: string;
  /** Where the counters live; the in-process `MemoryStore` when undefined. */
  readonly store?: Store | undefined;
}): RequestHandler => {
  const { windowMs, limit } = options;
  const store = options.store ?? new MemoryStore();
  const message = options.message || errorCatalog.RATE_LIMITED.message;
  const name = policyName(limit, windowMs);
  const windowSeconds = Math.ceil(windowMs / 1000);
  const partitionKeys = new Map<string, string>();
  const partitionKey = (key: string): string => {
    let known = partitionKeys.get(key);
    if (known === undefined) {
      const hex = createHash('sha256').update(key).digest('hex').slice(0, 12);
      known = Buffer.from(hex).toString('base64');
      if (partitionKeys.size >= REMEMBERED_KEYS) partitionKeys.clear();
      partitionKeys.set(key, known);
    }
    return known;
  };
  initStore(store, windowMs, limit);

  return (req, res, next) => {
    let key: string;
    let counted: ReturnType<Store['increment']>;
    try {
      key = options.key(req);
      counted = store.increment(key);
    } catch (error) {
      next(error);
      return;
    }
    Promise.resolve(counted)
      .then(({ totalHits, resetTime }) => {
        if (!res.headersSent) {
          const resetSeconds = resetTime
            ? Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
            : windowSeconds;
          const remaining = Math.max(limit - totalHits, 0);
          append(res, 'RateLimit', `"${name}"; r=${remaining}; t=${resetSeconds}`);
          append(
            res,
            'RateLimit-Policy',
            `"${name}"; q=${limit}; w=${windowSeconds}; pk=:${partitionKey(key)}:`,
          );
          if (totalHits > limit) res.setHeader('Retry-After', String(resetSeconds));
        }
        if (totalHits > limit) respond(res, 429, message);
        else next();
      })
      .catch(next);
  };
};

/** The client's address; an IPv6 client counts as its /56, so hopping addresses does not help. */
export const clientAddress = (req: Request): string =>
  ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
