import type { AuctionView } from '@auction/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auctionEvents, closeProbes, connect, eventually, watch } from '../../../testing/realtime';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  sellerAliceBob,
} from '../../../testing/fixtures';
import { JumpingClock } from '../../../testing/jumping-clock';
import { type TestServer, startTestServer } from '../../../testing/test-server';

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob] = await sellerAliceBob(server);
});
afterEach(() => closeProbes());
afterAll(() => server.cleanup());

const TWO_MINUTES = 2 * 60_000;

const detail = (auctionId: string): Promise<AuctionView> => fetchAuction(server, auctionId);

describe('soft close', () => {
  it('is on when the seller asks: a bid in its last two minutes moves the end two minutes past the bid', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, {
      endsInMs: 8_000,
      softClose: true,
    });
    const before = await detail(auctionId);
    expect(before).toMatchObject({
      softClose: { windowMs: TWO_MINUTES, extensionMs: TWO_MINUTES },
      extended: false,
    });
    const watcher = await connect(server);
    await watch(watcher, { auctionId, afterRevision: before.revision });

    const sentAt = Date.now();
    const placed = await placeBid(alice, auctionId, 100);
    const moved = Date.parse(placed.auctionEndTime ?? '');
    expect(moved).toBeGreaterThan(Date.parse(before.auctionEndTime));
    expect(moved).toBeGreaterThanOrEqual(sentAt + TWO_MINUTES);
    expect(moved).toBeLessThanOrEqual(Date.now() + TWO_MINUTES);

    // Every watcher sees the new end live; the detail shows it, marked extended.
    await eventually(() =>
      expect(auctionEvents(watcher, auctionId).map((e) => e.payload.changes)).toEqual([
        { auctionEndTime: placed.auctionEndTime, extended: true },
      ]),
    );
    expect(await detail(auctionId)).toMatchObject({
      auctionEndTime: placed.auctionEndTime,
      extended: true,
    });

    // The old end passes and the auction stays live: the closing scheduler follows the new end.
    await new Promise((resolve) =>
      setTimeout(resolve, Date.parse(before.auctionEndTime) - Date.now() + 500),
    );
    expect((await detail(auctionId)).status).toBe('Live');
    const later = await placeBid(bob, auctionId, 101);
    expect(Date.parse(later.auctionEndTime ?? '')).toBeGreaterThan(moved);
  }, 40_000);

  it('leaves the end alone for a bid further from it, and when the seller turned it off', async () => {
    const far = await createAuctionOverHttp(seller.client, {
      endsInMs: 10 * 60_000,
      softClose: true,
    });
    expect((await placeBid(alice, far, 100)).auctionEndTime).toBeUndefined();
    expect(await detail(far)).toMatchObject({ extended: false });

    const off = await createAuctionOverHttp(seller.client, { endsInMs: 8_000, softClose: false });
    const view = await detail(off);
    expect(view.softClose).toBeNull();
    expect((await placeBid(alice, off, 100)).auctionEndTime).toBeUndefined();
    expect((await detail(off)).auctionEndTime).toBe(view.auctionEndTime);
  });

  it('is off for a client that does not ask: a late bid leaves the end, and the auction closes at it', async () => {
    const clock = new JumpingClock();
    const own = await startTestServer({}, { clock });
    try {
      const [sally, ann] = await sellerAliceBob(own);
      const end = new Date(clock.now() + 10_000).toISOString();
      const created = await sally.client.post('/api/v1/auction/createAuction', {
        json: {
          title: 'Music box',
          description: 'Swiss, 1900s',
          category: 'antiques',
          startingPrice: 100,
          auctionDate: end,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const auctionId = (created.body as { auction: AuctionView }).auction._id;
      expect(await fetchAuction(own, auctionId)).toMatchObject({
        softClose: null,
        auctionEndTime: end,
      });

      clock.jump(5_000);
      const placed = await ann.client.post('/api/v1/bid/placeBid', {
        json: { productId: auctionId, bidAmount: 100 },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      expect(placed.body).not.toHaveProperty('auctionEndTime');
      expect(await fetchAuction(own, auctionId)).toMatchObject({
        status: 'Live',
        auctionEndTime: end,
        extended: false,
      });

      clock.jump(Date.parse(end) - clock.now() + 1);
      await vi.waitFor(
        async () =>
          expect(await fetchAuction(own, auctionId)).toMatchObject({
            status: 'Sold',
            auctionEndTime: end,
            extended: false,
            finalPrice: 100,
            winner: { _id: ann.id },
          }),
        { timeout: 5_000 },
      );
    } finally {
      await own.cleanup();
    }
  });

  it('refuses a softClose that is not true or false', async () => {
    const res = await seller.client.post('/api/v1/auction/createAuction', {
      json: {
        title: 'Globe',
        description: 'Pocket globe, 1820',
        category: 'antiques',
        startingPrice: 100,
        auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
        softClose: 'sometimes',
      },
    });
    expect(res).toMatchObject({
      status: 400,
      body: { success: false, message: 'softClose must be true or false' },
    });
  });
});
