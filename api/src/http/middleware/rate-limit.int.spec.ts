import type { AddressInfo } from 'node:net';
import express from 'express';
import { MemoryStore, rateLimit } from 'express-rate-limit';
import { describe, expect, it } from 'vitest';
import { describeRateLimitStoreContract } from '../../stores/rate-limits/rate-limit-store.contract';
import { limiter } from './rate-limit';
import { inProcessRateLimits } from '../../stores/rate-limits/rate-limit-store';
import { respond } from '../respond';

describeRateLimitStoreContract('in-process MemoryStore', () =>
  Promise.resolve({ make: () => new MemoryStore(), cleanup: () => Promise.resolve() }),
);

describe('limiter', () => {
  it('answers 429 with its message over the limit, on the in-process store by default', async () => {
    const app = express();
    app.use(
      limiter({
        windowMs: 60_000,
        limit: 2,
        key: () => 'everyone',
        message: 'Too many tries',
        store: inProcessRateLimits('test'),
      }),
    );
    app.get('/', (_req, res) => {
      res.json({ ok: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push(await fetch(url));
      expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
      expect(await statuses[2]?.json()).toEqual({ success: false, message: 'Too many tries' });
      expect(statuses[0]?.headers.get('ratelimit')).toMatch(/r=1/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('limiter, beside express-rate-limit', () => {
  it('answers and sets headers as express-rate-limit did with the same options', async () => {
    const windowMs = 15 * 60_000;
    const options = { windowMs, limit: 3, message: 'Too many tries' };
    const key = (req: express.Request) => (typeof req.query.who === 'string' ? req.query.who : '');
    const ours = express();
    ours.use(limiter({ ...options, key }));
    const theirs = express();
    theirs.use(
      rateLimit({
        ...options,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        keyGenerator: key,
        validate: false,
        handler: (_req, res) => respond(res, 429, options.message),
      }),
    );
    for (const app of [ours, theirs]) {
      // Two limiters on one route append two of each header.
      app.use(
        limiter({ windowMs: 60_000, limit: 10, key: () => 'everyone', message: 'Slow down' }),
      );
      app.get('/', (_req, res) => {
        res.json({ ok: true });
      });
    }
    const answers = async (app: express.Express) => {
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        const seen = [];
        for (const who of ['a', 'a', 'b', 'a', 'a', 'b']) {
          const res = await fetch(`${url}?who=${who}`);
          // Seconds to the window's end, which depend on when each ran: checked, then set aside.
          const rateLimit = res.headers.get('ratelimit') ?? '';
          const retryAfter = res.headers.get('retry-after');
          for (const [, seconds] of rateLimit.matchAll(/t=(\d+)/g))
            expect(Number(seconds)).toBeGreaterThan(50);
          if (retryAfter !== null) expect(Number(retryAfter)).toBeGreaterThan(800);
          seen.push({
            status: res.status,
            body: await res.json(),
            rateLimit: rateLimit.replace(/t=\d+/g, 't=N'),
            policy: res.headers.get('ratelimit-policy'),
            retryAfter: retryAfter === null ? null : 'N',
          });
        }
        return seen;
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    };
    const expected = await answers(theirs);
    expect(expected.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429, 200]);
    expect(expected[4]?.retryAfter).toBe('N');
    expect(expected[0]?.rateLimit).toBe('"3-in-15min"; r=2; t=N, "10-in-1min"; r=9; t=N');
    expect(await answers(ours)).toEqual(expected);
  });
});
