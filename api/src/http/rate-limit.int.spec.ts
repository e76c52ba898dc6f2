import type { AddressInfo } from 'node:net';
import express from 'express';
import { MemoryStore } from 'express-rate-limit';
import { describe, expect, it } from 'vitest';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { inProcessRateLimits, limiter } from './rate-limit';

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
