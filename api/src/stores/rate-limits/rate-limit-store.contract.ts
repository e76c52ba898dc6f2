import { randomUUID } from 'node:crypto';
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** What the contract suite needs from an adapter under test. */
export interface RateLimitStoreContractSubject {
  /** A new store for a limiter with this prefix (as `RateLimitStores` makes them). */
  readonly make: (prefix: string) => Store;
  /** Removes the subject's data. */
  readonly cleanup: () => Promise<void>;
}

/** Long enough that a test never straddles two windows (see `roomInWindow`). */
const LONG_WINDOW_MS = 10 * 60_000;
const SHORT_WINDOW_MS = 400;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const hits = (info: ClientRateLimitInfo | undefined): number => info?.totalHits ?? 0;

/**
 * The one suite every rate-limit store passes, driven as express-rate-limit drives a store: `init`
 * with the limiter's options, then `increment` per request, `decrement` and `resetKey`. Keys and
 * prefixes carry a random suffix, so the suite also runs against a shared server.
 */
export function describeRateLimitStoreContract(
  name: string,
  open: () => Promise<RateLimitStoreContractSubject>,
): void {
  describe(`rate-limit store contract: ${name}`, () => {
    let subject: RateLimitStoreContractSubject;
    let made: Store[];
    let run: string;

    const store = async (label: string, windowMs = LONG_WINDOW_MS): Promise<Store> => {
      const created = subject.make(`${label}-${run}:`);
      made.push(created);
      await created.init?.({ windowMs, limit: 1_000 } as Options);
      return created;
    };
    const key = (label: string) => `${label}-${run}`;
    /** One counted request; a copy, as `MemoryStore` answers with its own live record. */
    const count = async (s: Store, k: string): Promise<ClientRateLimitInfo> => {
      const { totalHits, resetTime } = await s.increment(key(k));
      return { totalHits, resetTime };
    };
    const get = async (s: Store, k: string) => s.get?.(key(k));

    /**
     * Stores may align windows to the clock: wait out a window that is about to end, so the counts
     * a test makes all land in one.
     */
    const roomInWindow = async (s: Store): Promise<void> => {
      const { resetTime } = await count(s, 'probe');
      if (resetTime && resetTime.getTime() - Date.now() < 5_000) {
        await sleep(resetTime.getTime() - Date.now() + 20);
      }
    };

    beforeEach(async () => {
      run = randomUUID().slice(0, 8);
      made = [];
      subject = await open();
    });

    afterEach(async () => {
      for (const s of made) await s.shutdown?.();
      await subject.cleanup();
    });

    it('counts the requests per key within a window, and says when the window ends', async () => {
      const s = await store('login');
      await roomInWindow(s);
      const before = Date.now();
      const counts = [];
      for (let i = 0; i < 3; i++) counts.push(await count(s, 'alice'));
      expect(counts.map((c) => c.totalHits)).toEqual([1, 2, 3]);
      const resetTime = counts[0]?.resetTime?.getTime() ?? 0;
      expect(resetTime).toBeGreaterThan(before);
      expect(resetTime).toBeLessThanOrEqual(Date.now() + LONG_WINDOW_MS);
      for (const c of counts) expect(c.resetTime?.getTime()).toBe(resetTime);

      expect((await count(s, 'bob')).totalHits).toBe(1);
      expect(hits(await get(s, 'alice'))).toBe(3);
      expect(hits(await get(s, 'bob'))).toBe(1);
      expect(await get(s, 'nobody')).toBeUndefined();
    });

    it('keeps limiters with different prefixes apart', async () => {
      const login = await store('login');
      const signup = await store('signup');
      await roomInWindow(login);
      await count(login, 'alice');
      await count(login, 'alice');
      expect((await count(signup, 'alice')).totalHits).toBe(1);
      expect(hits(await get(login, 'alice'))).toBe(2);
      expect(hits(await get(signup, 'alice'))).toBe(1);
      expect(login.prefix === undefined || login.prefix !== signup.prefix).toBe(true);
    });

    it('starts counting again once the window is over', async () => {
      const s = await store('bids', SHORT_WINDOW_MS);
      const first = await count(s, 'alice');
      const second = await count(s, 'alice');
      // The window of the later count (on a slow server the two may straddle a window's end).
      const resetTime = Math.max(first.resetTime?.getTime() ?? 0, second.resetTime?.getTime() ?? 0);
      expect(resetTime - Date.now()).toBeLessThanOrEqual(SHORT_WINDOW_MS);
      await sleep(resetTime - Date.now() + 30);

      expect(hits(await get(s, 'alice'))).toBe(0);
      const next = await count(s, 'alice');
      expect(next.totalHits).toBe(1);
      expect(next.resetTime?.getTime()).toBeGreaterThan(resetTime);
    });

    it('takes a request back with decrement', async () => {
      const s = await store('login');
      await roomInWindow(s);
      for (let i = 0; i < 3; i++) await count(s, 'alice');
      await count(s, 'bob');
      await s.decrement(key('alice'));
      expect(hits(await get(s, 'alice'))).toBe(2);
      expect((await count(s, 'alice')).totalHits).toBe(3);
      expect(hits(await get(s, 'bob'))).toBe(1);
      await s.decrement(key('nobody'));
      expect(hits(await get(s, 'nobody'))).toBe(0);
    });

    it('forgets a key on resetKey, and only that key', async () => {
      const s = await store('login');
      await roomInWindow(s);
      await count(s, 'alice');
      await count(s, 'alice');
      await count(s, 'bob');
      await s.resetKey(key('alice'));
      expect(hits(await get(s, 'alice'))).toBe(0);
      expect((await count(s, 'alice')).totalHits).toBe(1);
      expect(hits(await get(s, 'bob'))).toBe(1);
      await s.resetKey(key('nobody'));
    });

    it('counts concurrent requests exactly, and never lets one see fewer hits than came before it', async () => {
      const s = await store('bids');
      await roomInWindow(s);
      const n = 40;
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) => count(s, i % 4 === 0 ? 'bob' : 'alice')),
      );
      const alice = results.filter((_, i) => i % 4 !== 0).map((r) => r.totalHits);
      const bob = results.filter((_, i) => i % 4 === 0).map((r) => r.totalHits);
      for (const [seen, count] of [
        [alice, 30],
        [bob, 10],
      ] as const) {
        const sorted = [...seen].sort((a, b) => a - b);
        // The i-th request to be counted saw at least i hits: no more than `limit` ever pass.
        sorted.forEach((total, i) => expect(total).toBeGreaterThanOrEqual(i + 1));
        expect(Math.max(...seen)).toBe(count);
      }
      expect(hits(await get(s, 'alice'))).toBe(30);
      expect(hits(await get(s, 'bob'))).toBe(10);
    });

    it('gives N concurrent requests on a new key the counts 1..N, each exactly once', async () => {
      const s = await store('bids');
      await roomInWindow(s);
      const n = 100;
      // Started one event-loop turn apart, as requests arrive, without waiting for one another
      // (`MemoryStore` answers with its live record: read in the same turn, all would see 100).
      const concurrently = async <T>(k: number, request: (i: number) => Promise<T>) => {
        const started: Promise<T>[] = [];
        for (let i = 0; i < k; i++) {
          started.push(request(i));
          await new Promise(setImmediate);
        }
        return Promise.all(started);
      };
      const seen = await concurrently(n, async () => (await count(s, 'burst')).totalHits);
      expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(hits(await get(s, 'burst'))).toBe(n);
      // Again on the key now that it exists, with requests taken back among them.
      const more = await concurrently(20, async (i) =>
        i % 4 === 3 ? (await s.decrement(key('burst')), 0) : (await count(s, 'burst')).totalHits,
      );
      expect(hits(await get(s, 'burst'))).toBe(n + 15 - 5);
      const counted = more.filter((total) => total > 0);
      expect(counted).toHaveLength(15);
      for (const total of counted) {
        expect(total).toBeGreaterThan(n - 5);
        expect(total).toBeLessThanOrEqual(n + 15);
      }
    });
  });
}
