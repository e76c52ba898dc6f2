import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorCatalog } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuctionOverHttp, fetchAuction, placeBid, signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

/**
 * A real full disk: DATA_DIR on a small tmpfs (mounting needs root, as in CI), filled up with a
 * file of its own once the server runs. Skipped where nothing can be mounted, and on MongoDB,
 * whose files are not in DATA_DIR.
 */
const mountpoint = mkdtempSync(join(tmpdir(), 'full-disk-'));
const mounted = ((): boolean => {
  if (process.env.TEST_STORES === 'mongodb' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountpoint], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
})();
if (!mounted) rmSync(mountpoint, { recursive: true, force: true });
const filler = join(mountpoint, 'filler');

/** Writes to the file system until it refuses: the disk is full. */
const fillTheDisk = (): void => {
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) appendFileSync(filler, chunk);
  } catch (error) {
    expect((error as { code?: string }).code).toBe('ENOSPC');
  }
};

const STORAGE = errorCatalog.STORAGE_UNAVAILABLE.message;

let server: TestServer;

describe.skipIf(!mounted)('a full disk under DATA_DIR', () => {
  beforeAll(async () => {
    server = await startTestServer({ DATA_DIR: join(mountpoint, 'data') });
  });
  afterAll(async () => {
    await server?.cleanup();
    execFileSync('umount', ['-l', mountpoint]);
    rmSync(mountpoint, { recursive: true, force: true });
  });

  it('answers every write 503 "storage is unavailable", health says so, and nothing acknowledged is lost', async () => {
    const seller = await signUpAndLogIn(server);
    const bidder = await signUpAndLogIn(server);
    const auction = await createAuctionOverHttp(seller.client);
    await placeBid(bidder, auction, 150);

    fillTheDisk();
    try {
      const form = new FormData();
      for (const [key, value] of Object.entries({
        firstName: 'Disk',
        lastName: 'Full',
        email: `disk-full-${Date.now()}@example.com`,
        password: 'Secret123',
        confirmPassword: 'Secret123',
      }))
        form.set(key, value);
      const answers = {
        signup: await server.client().post('/api/v1/auth/signup', { form }),
        login: await server.client().post('/api/v1/auth/login', {
          json: { email: bidder.email, password: bidder.password },
        }),
        bid: await bidder.client.post('/api/v1/bid/placeBid', {
          json: { productId: auction, bidAmount: 175 },
        }),
        createAuction: await seller.client.post('/api/v1/auction/createAuction', {
          json: {
            title: 'Barometer',
            description: 'Mahogany',
            category: 'antiques',
            startingPrice: 100,
            auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
          },
        }),
      };
      for (const [route, res] of Object.entries(answers)) {
        expect([route, res.status, res.body]).toEqual([
          route,
          503,
          { success: false, message: STORAGE },
        ]);
      }

      const health = await server.client().get('/api/v1/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({
        success: false,
        message: STORAGE,
        stores: { events: { writable: false }, accounts: { writable: false } },
      });
      // Reads still work.
      expect((await fetchAuction(server, auction)).currentBid).toBe(150);
    } finally {
      rmSync(filler, { force: true });
    }

    // Room again: the acknowledged bid is there, and writing works again.
    expect((await fetchAuction(server, auction)).currentBid).toBe(150);
    const again = await bidder.client.post('/api/v1/bid/placeBid', {
      json: { productId: auction, bidAmount: 175 },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await server.client().get('/api/v1/health')).status).toBe(200);
    const login = await server.client().post('/api/v1/auth/login', {
      json: { email: bidder.email, password: bidder.password },
    });
    expect(login.status).toBe(200);
  });
});
