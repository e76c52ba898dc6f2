import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '../accounts/account';
import type { AppDeps } from '../app-deps';
import { isPlaceBid } from './bids/routes';
import { AcknowledgedWrites } from './acknowledged-writes';

/** A catalog whose position the test moves, with `waitFor` as the runner's. */
class FakeCatalog {
  position = 0;
  private waiters: { position: number; resolve: () => void }[] = [];
  waitFor(position: number, names: readonly string[] | undefined, timeoutMs: number) {
    expect(names).toEqual(['catalog']);
    if (this.position >= position) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('behind')), timeoutMs);
      this.waiters.push({
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
  reach(position: number) {
    this.position = position;
    for (const waiter of this.waiters.filter((w) => w.position <= position)) waiter.resolve();
    this.waiters = this.waiters.filter((w) => w.position > position);
  }
}

let catalog: FakeCatalog;
let logged: string[];
let writes: AcknowledgedWrites;
let server: Server;
let base: string;

beforeEach(async () => {
  catalog = new FakeCatalog();
  logged = [];
  writes = new AcknowledgedWrites(
    {
      runner: catalog as unknown as AppDeps['runner'],
      log: (message) => logged.push(message),
    },
    300,
  );
  const app = express();
  // The session's part: the signed-in user.
  app.use((req, _res, next) => {
    const id = req.header('x-user');
    if (id) req.user = { id } as Account;
    next();
  });
  app.use(writes.middleware(isPlaceBid));
  app.post('/bid/placeBid', (req, res) => {
    writes.note(Number(req.header('x-position')));
    res.json({ placed: true });
  });
  app.get('/read', (_req, res) => res.json({ read: true }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => new Promise((resolve) => server.close(resolve)));

const request = (method: string, path: string, user?: string, position?: number) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      ...(user ? { 'x-user': user } : {}),
      ...(position === undefined ? {} : { 'x-position': String(position) }),
    },
  }).then((res) => res.json() as Promise<Record<string, unknown>>);

/** Whether `promise` settles within a few event-loop turns of the server answering. */
const settlesSoon = async (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))]);

describe('AcknowledgedWrites', () => {
  it('makes every request after an acknowledged write wait until the catalog shows it', async () => {
    catalog.reach(3);
    expect(await request('POST', '/bid/placeBid', 'alice', 5)).toEqual({ placed: true });
    expect(writes.pending()).toBe(5);

    // The writer, another user and an anonymous reader all wait; a bid does not.
    const reads = [
      request('GET', '/read', 'alice'),
      request('GET', '/read', 'bob'),
      request('GET', '/read'),
    ];
    expect(await Promise.all(reads.map(settlesSoon))).toEqual([false, false, false]);
    expect(await request('POST', '/bid/placeBid', 'bob', 6)).toEqual({ placed: true });
    expect(writes.pending()).toBe(6);

    // The reads wait for what was acknowledged before they arrived (5), not for the later bid.
    catalog.reach(5);
    for (const read of reads) expect(await read).toEqual({ read: true });
    expect(writes.pending()).toBe(6);
    const nextRead = request('GET', '/read');
    expect(await settlesSoon(nextRead)).toBe(false);
    catalog.reach(6);
    expect(await nextRead).toEqual({ read: true });
    expect(writes.pending()).toBeUndefined();
    expect(await request('GET', '/read', 'carol')).toEqual({ read: true });
    expect(logged).toEqual([]);
  });

  it('keeps the highest position when an older write is noted after a newer one', () => {
    writes.note(9);
    writes.note(4);
    expect(writes.pending()).toBe(9);
    writes.note(undefined);
    expect(writes.pending()).toBe(9);
  });

  it('answers after its bound when the catalog stays behind, and logs it', async () => {
    await request('POST', '/bid/placeBid', 'alice', 5);
    expect(await request('GET', '/read')).toEqual({ read: true });
    expect(logged).toEqual(['The catalog is behind a committed write']);
    // Still remembered: the next request waits again until the catalog has it.
    expect(writes.pending()).toBe(5);
  });
});
