import type { AuctionView } from '@auction/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type TestUser,
  fetchAuction,
  placeBid,
  signUpAndLogIn,
  waitForStatus,
} from '../../../testing/fixtures';
import { PNG_1X1, type TestServer, startTestServer } from '../../../testing/test-server';

let server: TestServer;
let seller: TestUser;
let winner: TestUser;
let loser: TestUser;
let auctionId: string;
let winningBidId: string;
let losingBidId: string;
let imageUrl: string;

const detail = (): Promise<AuctionView> => fetchAuction(server, auctionId);

beforeAll(async () => {
  server = await startTestServer();
  [seller, winner, loser] = await Promise.all([
    signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' }),
    signUpAndLogIn(server),
    signUpAndLogIn(server),
  ]);
  const form = new FormData();
  for (const [key, value] of Object.entries({
    title: 'Mantel clock',
    description: 'Walnut case, chimes on the hour',
    category: 'antiques',
    startingPrice: '100',
    auctionDate: new Date(Date.now() + 3000).toISOString(),
    // It must close on time although bids land in its last seconds.
    softClose: 'false',
  }))
    form.set(key, value);
  form.set('image', new Blob([PNG_1X1], { type: 'image/png' }), 'clock.png');
  const created = await seller.client.post('/api/v1/auction/createAuction', { form });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  auctionId = created.body.auction._id;
  imageUrl = created.body.auction.image.url;

  losingBidId = (await placeBid(loser, auctionId, 150)).newBid._id;
  winningBidId = (await placeBid(winner, auctionId, 175.5)).newBid._id;
  await waitForStatus(server, auctionId, 'Sold');
}, 30_000);
afterAll(() => server.cleanup());

it('is closed as Sold by the scheduler, to the highest bidder at their price', async () => {
  expect(await detail()).toMatchObject({
    status: 'Sold',
    currentBid: 175.5,
    finalPrice: 175.5,
    winner: { _id: winner.id, firstName: winner.firstName, lastName: winner.lastName },
  });
});

it("shows in the winner's winnings with the spec's statistics", async () => {
  const res = await winner.client.get('/api/v1/user/winnings');
  expect(res.status).toBe(200);
  expect(res.body.winnings).toEqual([
    expect.objectContaining({
      id: auctionId,
      title: 'Mantel clock',
      description: 'Walnut case, chimes on the hour',
      finalPrice: 175.5,
      originalPrice: 100,
      image: { url: imageUrl },
      // The spec's winning item shows the category and the seller as text.
      category: 'Antiques',
      categoryId: 'antiques',
      seller: 'Sally Seller',
      sellerId: seller.id,
    }),
  ]);
  expect(res.body.statistics).toEqual({
    totalItems: 1,
    totalValue: 175.5,
    totalSavings: -75.5,
    averageSavings: -75.5,
  });
  expect((await loser.client.get('/api/v1/user/winnings')).body.winnings).toEqual([]);
});

it('shows in each history with the right statuses', async () => {
  const entries = async (user: TestUser, query = '') =>
    (await user.client.get(`/api/v1/user/history${query}`)).body.history as {
      id: string;
      type: string;
      status: string;
      amount: number;
    }[];

  expect(await entries(winner)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        id: `bid:${winningBidId}`,
        type: 'bid',
        status: 'completed',
        amount: 175.5,
      }),
      expect.objectContaining({ type: 'won', status: 'completed', amount: 175.5 }),
    ]),
  );
  expect(await entries(winner, '?type=won')).toEqual([
    expect.objectContaining({ type: 'won', auctionId, status: 'completed' }),
  ]);
  expect(await entries(loser)).toEqual([
    expect.objectContaining({
      id: `bid:${losingBidId}`,
      type: 'bid',
      // The auction closed without it winning: lost, not merely outbid.
      status: 'lost',
      amount: 150,
    }),
  ]);
  expect(await entries(seller)).toEqual([
    expect.objectContaining({ type: 'created', auctionId, status: 'completed', amount: 100 }),
  ]);
});

it("gives each history entry its image's URL as a string, which serves the image", async () => {
  const [entry] = (await seller.client.get('/api/v1/user/history')).body.history;
  expect(entry.image).toBe(imageUrl);
  expect(typeof imageUrl).toBe('string');
  const image = await server.client().get(entry.image);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/png');
});

it('counts the sale in every profile', async () => {
  const profile = async (user: TestUser) => {
    const res = await user.client.get('/api/v1/user/profile');
    expect(res.status).toBe(200);
    return res.body.data as {
      statistics: Record<string, number>;
      user: { winnings: unknown[]; products: unknown[] };
      recentActivity: unknown[];
    };
  };

  const won = await profile(winner);
  expect(won.statistics).toMatchObject({
    totalWinnings: 1,
    totalWinningsValue: 175.5,
    totalBids: 1,
  });
  expect(won.user.winnings).toHaveLength(1);
  expect(won.recentActivity).toEqual([
    expect.objectContaining({
      _id: winningBidId,
      product: { _id: auctionId, title: 'Mantel clock' },
    }),
  ]);

  expect((await profile(loser)).statistics).toMatchObject({ totalWinnings: 0, totalBids: 1 });

  const sold = await profile(seller);
  expect(sold.statistics).toMatchObject({
    totalAuctions: 1,
    activeAuctions: 0,
    completedAuctions: 1,
  });
  expect(sold.user.products).toEqual([expect.objectContaining({ _id: auctionId, status: 'Sold' })]);
});

it('refuses bids, edits and retractions once closed, and keeps the record', async () => {
  const before = await detail();
  const place = await loser.client.post('/api/v1/bid/placeBid', {
    json: { productId: auctionId, bidAmount: 500 },
  });
  expect(place.status).toBe(409);
  expect(place.body.message).toBe('This auction is no longer live');
  const edit = await loser.client.put(`/api/v1/bid/editBid/${losingBidId}`, {
    json: { bidAmount: 500 },
  });
  expect(edit.status).toBe(409);
  const retract = await winner.client.delete(`/api/v1/bid/deleteBid/${winningBidId}`);
  expect(retract.status).toBe(409);
  expect(await detail()).toEqual(before);
});
