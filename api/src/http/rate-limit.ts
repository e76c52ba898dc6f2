import { errorCatalog } from '@auction/contracts';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import type { Request, RequestHandler } from 'express';
import { respond } from './respond';

/**
 * Where each limiter keeps its counters, by a prefix naming the limiter (`signup`, `login`, ...):
 * a `Store` of its own per limiter (express-rate-limit refuses one store for two limiters), or
 * undefined for the library's in-process `MemoryStore`. Adapters: `inProcessRateLimits` and
 * `mongoRateLimitStores` (counters shared by every node); both pass `rate-limit-store.contract.ts`.
 */
export type RateLimitStores = (prefix: string) => Store | undefined;

/** Counters in each process's memory (one node). */
export const inProcessRateLimits: RateLimitStores = () => undefined;

/** A fixed-window limit per key; over it, a 429 with a message a person can act on. */
export const limiter = (options: {
  readonly windowMs: number;
  readonly limit: number;
  readonly key: (req: Request) => string;
  readonly message: string;
  /** Where the counters live; the in-process `MemoryStore` when undefined. */
  readonly store?: Store | undefined;
}): RequestHandler =>
  rateLimit({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: options.key,
    // The library's configuration checks (warnings for a developer) run on every request; ours
    // are fixed and tested (rate-limit.int.spec.ts), so they are off.
    validate: false,
    ...(options.store ? { store: options.store } : {}),
    handler: (_req, res) => respond(res, 429, options.message || errorCatalog.RATE_LIMITED.message),
  });

/** The client's address; an IPv6 client counts as its /56, so hopping addresses does not help. */
export const clientAddress = (req: Request): string =>
  ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
