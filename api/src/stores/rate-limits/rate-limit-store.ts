import type { Store } from 'express-rate-limit';

/**
 * Where each limiter keeps its counters, by a prefix naming the limiter (`signup`, `login`, ...):
 * a `Store` of its own per limiter (express-rate-limit refuses one store for two limiters), or
 * undefined for the library's in-process `MemoryStore`. Adapters: `inProcessRateLimits` and
 * `mongoRateLimitStores` (counters shared by every node); both pass `rate-limit-store.contract.ts`.
 */
export type RateLimitStores = (prefix: string) => Store | undefined;

/** Counters in each process's memory (one node). */
export const inProcessRateLimits: RateLimitStores = () => undefined;
