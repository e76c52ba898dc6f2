import { auctionStream } from '@auction/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchEveryBid,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

const BIDDERS = 50;
const ROUNDS = 5;

let server: TestServer;
let seller: TestUser;
let bidders: TestUser[];

beforeAll(async () => {
  server = await startTestServer();
  [seller, bidders] = await Promise.all([
    signUpAndLogIn(server),
    Promise.all(Array.from({ length: BIDDERS }, () => signUpAndLogIn(server))),
  ]);
}, 120_000);
afterAll(() => server.cleanup());

const createAuction = (endsInMs = 86_400_000): Promise<string> =>
  createAuctionOverHttp(seller.client, { title: 'Pocket watch', endsInMs });

it('50 bidders at once: every accepted bid is kept, in one strictly rising order', async () => {
  const auctionId = await createAuction();
  const responses = await Promise.all(
    bidders.map(async (bidder, b) => {
      const answers = [];
      for (let round = 0; round < ROUNDS; round++) {
        const bidAmount = 100 + round * 40 + b + (b % 4) * 0.25;
        const res = await bidder.client.post('/api/v1/bid/placeBid', {
          json: { productId: auctionId, bidAmount },
        });
        answers.push({ bidder, bidAmount, res });
      }
      return answers;
    }),
  );
  const all = responses.flat();
  const accepted = all.filter(({ res }) => res.status === 201);
  const refused = all.filter(({ res }) => res.status !== 201);

  expect(accepted.length).toBeGreaterThan(0);
  for (const { res } of refused) {
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^Your bid must be at least \$[\d,]+\.\d\d$/);
  }
  for (const { bidder, bidAmount, res } of accepted) {
    expect(res.body.newBid).toMatchObject({
      auctionId,
      amount: bidAmount,
      bidder: { _id: bidder.id },
    });
    expect(res.body.currentBid).toBe(bidAmount);
  }

  const placed = (await server.deps.events.readStream(auctionStream(auctionId)))
    .filter((event) => event.type === 'BidPlaced')
    .map((event) => event.data as { bidId: string; amount: number; bidderId: string });
  const amounts = placed.map((bid) => bid.amount);
  for (let i = 1; i < amounts.length; i++) {
    expect(amounts[i]).toBeGreaterThan(amounts[i - 1] as number);
  }
  expect(new Set(placed.map((bid) => bid.bidId))).toEqual(
    new Set(accepted.map(({ res }) => res.body.newBid._id as string)),
  );

  const { auction: view, bids } = await fetchEveryBid(server, auctionId);
  const byId = new Map(bids.map((bid) => [bid._id, bid]));
  expect(bids).toHaveLength(accepted.length);
  expect(byId.size).toBe(accepted.length);
  expect(view.bidCount).toBe(accepted.length);
  for (const { res } of accepted) expect(byId.get(res.body.newBid._id)).toEqual(res.body.newBid);
  const highest = Math.max(...accepted.map(({ bidAmount }) => bidAmount));
  expect(view.currentBid).toBe(highest);
  expect(view.bids[0]?.amount).toBe(highest);
  expect((amounts.at(-1) ?? 0) / 100).toBe(highest);
});
