import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBid,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

let server: TestServer;
let seller: TestUser;
let bidder: TestUser;
let newcomer: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, bidder, newcomer] = await Promise.all([
    signUpAndLogIn(server),
    signUpAndLogIn(server),
    signUpAndLogIn(server),
  ]);
});
afterAll(() => server.cleanup());

const createAuction = (title: string, endsInMs = 86_400_000): Promise<string> =>
  createAuctionOverHttp(seller.client, { title, endsInMs });

describe('guests', () => {
  it.each([
    ['GET', '/api/v1/user/profile'],
    ['GET', '/api/v1/user/history'],
    ['GET', '/api/v1/user/winnings'],
    ['DELETE', '/api/v1/user/delete-account'],
  ])('%s %s answers 401', async (method, path) => {
    const res = await server.client().request(method, path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: 'Please log in to continue' });
  });
});

describe('GET /user/profile', () => {
  it('shows a new user with empty statistics', async () => {
    const res = await newcomer.client.get('/api/v1/user/profile');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.user).toMatchObject({
      _id: newcomer.id,
      firstName: newcomer.firstName,
      lastName: newcomer.lastName,
      name: `${newcomer.firstName} ${newcomer.lastName}`,
      email: newcomer.email,
      role: 'User',
      image: null,
      products: [],
      winnings: [],
    });
    expect(Date.parse(res.body.data.user.createdAt)).not.toBeNaN();
    expect(res.body.data.user).not.toHaveProperty('passwordHash');
    expect(res.body.data.statistics).toEqual({
      totalAuctions: 0,
      totalWinnings: 0,
      totalBids: 0,
      totalWinningsValue: 0,
      watchListCount: 0,
      activeAuctions: 0,
      completedAuctions: 0,
    });
    expect(res.body.data.recentActivity).toEqual([]);
  });

  it("counts the seller's auctions and lists the bidder's 5 most recent bids", async () => {
    const first = await createAuction('Gramophone');
    const second = await createAuction('Sextant');
    const amounts = [110, 120, 130, 140, 150, 160];
    for (const amount of amounts)
      await placeBid(bidder, amount % 20 === 0 ? first : second, amount);

    const sellerProfile = (await seller.client.get('/api/v1/user/profile')).body.data;
    expect(sellerProfile.statistics).toMatchObject({
      totalAuctions: 2,
      activeAuctions: 2,
      completedAuctions: 0,
      totalBids: 0,
    });
    expect(sellerProfile.user.products.map((p: { _id: string }) => p._id).sort()).toEqual(
      [first, second].sort(),
    );

    const bidderProfile = (await bidder.client.get('/api/v1/user/profile')).body.data;
    expect(bidderProfile.statistics).toMatchObject({ totalBids: 6, totalAuctions: 0 });
    expect(bidderProfile.recentActivity).toHaveLength(5);
    expect(bidderProfile.recentActivity[0]).toMatchObject({
      product: { _id: first, title: 'Gramophone' },
      amount: 160,
    });
    expect(bidderProfile.recentActivity.map((a: { amount: number }) => a.amount)).toEqual([
      160, 150, 140, 130, 120,
    ]);
  });
});

describe('GET /user/history', () => {
  it('lists entries newest first, filtered by type and limited', async () => {
    const auctionId = await createAuction('Music box');
    const low = (await placeBid(newcomer, auctionId, 100)).newBid._id;
    await placeBid(bidder, auctionId, 105);
    const top = (await placeBid(newcomer, auctionId, 200)).newBid._id;

    const all = await newcomer.client.get('/api/v1/user/history');
    expect(all.status).toBe(200);
    expect(all.body.success).toBe(true);
    expect(all.body.history).toEqual([
      expect.objectContaining({
        type: 'bid',
        auctionId,
        title: 'Music box',
        amount: 200,
        status: 'active',
      }),
      expect.objectContaining({ type: 'bid', auctionId, amount: 100, status: 'outbid' }),
    ]);
    expect(all.body.history.map((h: { id: string }) => h.id)).toEqual([`bid:${top}`, `bid:${low}`]);

    const limited = await newcomer.client.get('/api/v1/user/history?type=bid&limit=1');
    expect(limited.body.history).toHaveLength(1);
    expect((await newcomer.client.get('/api/v1/user/history?type=won')).body.history).toEqual([]);

    const created = await seller.client.get('/api/v1/user/history?type=created&limit=100');
    expect(created.body.history).toContainEqual(
      expect.objectContaining({ type: 'created', auctionId, amount: 100, status: 'active' }),
    );
    expect(created.body.history.every((h: { type: string }) => h.type === 'created')).toBe(true);
  });

  it('defaults to 20 entries', async () => {
    const auctionId = await createAuction('Typewriter');
    for (let i = 0; i < 21; i++) await placeBid(bidder, auctionId, 300 + 10 * i);
    expect((await bidder.client.get('/api/v1/user/history')).body.history).toHaveLength(20);
    const many = await bidder.client.get('/api/v1/user/history?limit=100');
    expect(many.body.history.length).toBeGreaterThan(21);
  });

  it.each([
    ['type=bogus', 'type must be one of all, created, won, bid'],
    ['type=', 'type must be one of all, created, won, bid'],
    ['type=bid&type=won', 'type must be one of all, created, won, bid'],
    ['limit=0', 'limit must be a whole number from 1 to 100'],
    ['limit=101', 'limit must be a whole number from 1 to 100'],
    ['limit=-1', 'limit must be a whole number from 1 to 100'],
    ['limit=1.5', 'limit must be a whole number from 1 to 100'],
    ['limit=ten', 'limit must be a whole number from 1 to 100'],
    ['limit=', 'limit must be a whole number from 1 to 100'],
    ['limit=5&limit=6', 'limit must be a whole number from 1 to 100'],
  ])('?%s answers 400', async (query, message) => {
    const res = await bidder.client.get(`/api/v1/user/history?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message });
  });
});

describe('GET /user/winnings', () => {
  it('answers an empty list and zero statistics when nothing was won', async () => {
    const res = await newcomer.client.get('/api/v1/user/winnings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      winnings: [],
      statistics: { totalItems: 0, totalValue: 0, totalSavings: 0, averageSavings: 0 },
    });
  });
});
