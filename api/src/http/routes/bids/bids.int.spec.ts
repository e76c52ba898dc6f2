import { randomUUID } from 'node:crypto';
import type { AuctionView } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  signUpAndLogIn,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  requestBid,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob] = await Promise.all([
    signUpAndLogIn(server),
    signUpAndLogIn(server),
    signUpAndLogIn(server),
  ]);
});
afterAll(() => server.cleanup());

const createAuction = (owner: TestUser = seller, endsInMs = 86_400_000): Promise<string> =>
  createAuctionOverHttp(owner.client, { endsInMs });

const detail = (auctionId: string): Promise<AuctionView> => fetchAuction(server, auctionId);

const edit = (user: TestUser, bidId: string, bidAmount: unknown) =>
  user.client.put(`/api/v1/bid/editBid/${bidId}`, { json: { bidAmount } });
const retract = (user: TestUser, bidId: string) =>
  user.client.delete(`/api/v1/bid/deleteBid/${bidId}`);

const expectRefused = (
  res: { status: number; body: { success: boolean; message: string } },
  status: number,
  message: string,
) => {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ success: false, message });
};

describe('POST /bid/placeBid', () => {
  it('places a bid: 201 with the bid and the current bid, and an immediate refetch shows it', async () => {
    const auctionId = await createAuction();
    const res = await requestBid(alice, auctionId, 150.25);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Bid placed successfully!',
      currentBid: 150.25,
      newBid: {
        auctionId,
        bidAmount: 150.25,
        amount: 150.25,
        bidder: {
          _id: alice.id,
          firstName: alice.firstName,
          lastName: alice.lastName,
          image: null,
        },
      },
    });
    expect(res.body.newBid._id).toEqual(expect.any(String));
    expect(Date.parse(res.body.newBid.createdAt)).not.toBeNaN();

    const view = await detail(auctionId);
    expect(view.currentBid).toBe(150.25);
    expect(view.bids).toEqual([res.body.newBid]);
  });

  it('lets the leader raise and, under the table, accepts at least the current bid plus its increment', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { increments: 'table' });
    await placeBid(alice, auctionId, 100);
    expectRefused(
      await requestBid(bob, auctionId, 102.49),
      409,
      'Your bid must be at least $102.50',
    );
    await placeBid(bob, auctionId, 102.5);
    await placeBid(bob, auctionId, 250);
    expectRefused(
      await requestBid(alice, auctionId, 254.99),
      409,
      'Your bid must be at least $255.00',
    );
    const view = await detail(auctionId);
    expect(view.currentBid).toBe(250);
    expect(view.bids.map((b) => b.amount)).toEqual([250, 102.5, 100]);
  });

  it('refuses a first bid below the starting price with the minimum in the message', async () => {
    const auctionId = await createAuction();
    expectRefused(
      await requestBid(alice, auctionId, 99.99),
      409,
      'Your bid must be at least $100.00',
    );
  });

  it('refuses a bid on your own auction (403)', async () => {
    const auctionId = await createAuction();
    expectRefused(
      await requestBid(seller, auctionId, 500),
      403,
      'You cannot bid on your own auction',
    );
  });

  it('answers 404 for an auction that does not exist', async () => {
    expectRefused(await requestBid(alice, randomUUID(), 500), 404, 'Auction not found');
  });

  it('refuses a guest (401)', async () => {
    const auctionId = await createAuction();
    const guest = server.client();
    const res = await guest.post('/api/v1/bid/placeBid', {
      json: { productId: auctionId, bidAmount: 500 },
    });
    expectRefused(res, 401, 'Please log in to continue');
    expect((await detail(auctionId)).bids).toEqual([]);
  });

  it('refuses a cross-site request', async () => {
    const auctionId = await createAuction();
    const res = await alice.client.post(
      '/api/v1/bid/placeBid',
      { json: { productId: auctionId, bidAmount: 500 } },
      { origin: 'https://evil.example' },
    );
    expectRefused(res, 403, 'Cross-site request refused');
    expect((await detail(auctionId)).bids).toEqual([]);
  });

  describe('refuses bad input with a 400 that names the problem, and changes nothing', () => {
    const invalid: [string, (auctionId: string) => unknown, string][] = [
      ['no body fields', () => ({}), 'productId is required'],
      ['a missing amount', (id) => ({ productId: id }), 'Valid bid amount is required'],
      [
        'a null amount',
        (id) => ({ productId: id, bidAmount: null }),
        'Valid bid amount is required',
      ],
      [
        'an amount as text',
        (id) => ({ productId: id, bidAmount: '150' }),
        'Valid bid amount is required',
      ],
      [
        'an amount as an object',
        (id) => ({ productId: id, bidAmount: { $gt: 1 } }),
        'Valid bid amount is required',
      ],
      ['a zero amount', (id) => ({ productId: id, bidAmount: 0 }), 'Valid bid amount is required'],
      [
        'an amount below 1',
        (id) => ({ productId: id, bidAmount: 0.99 }),
        'Valid bid amount is required',
      ],
      [
        'a negative amount',
        (id) => ({ productId: id, bidAmount: -150 }),
        'Valid bid amount is required',
      ],
      [
        'three decimals',
        (id) => ({ productId: id, bidAmount: 150.555 }),
        'Bid amount may have at most two decimals',
      ],
      [
        'a huge amount',
        (id) => ({ productId: id, bidAmount: 1e12 }),
        'Bid amount may be at most $1,000,000,000.00',
      ],
      ['a missing product', () => ({ bidAmount: 150 }), 'productId is required'],
      [
        'a numeric product id',
        () => ({ productId: 42, bidAmount: 150 }),
        'productId must be a string',
      ],
      [
        'a product id of the wrong shape',
        () => ({ productId: '../etc/passwd', bidAmount: 150 }),
        'Invalid productId',
      ],
      ['an empty product id', () => ({ productId: '', bidAmount: 150 }), 'Invalid productId'],
      [
        'an overlong product id',
        () => ({ productId: 'a'.repeat(65), bidAmount: 150 }),
        'Invalid productId',
      ],
    ];
    it.each(invalid)('%s', async (_name, body, message) => {
      const auctionId = await createAuction();
      await placeBid(bob, auctionId, 120);
      const before = await detail(auctionId);
      const res = await alice.client.post('/api/v1/bid/placeBid', { json: body(auctionId) });
      expectRefused(res, 400, message);
      expect(await detail(auctionId)).toEqual(before);
    });

    it('malformed JSON', async () => {
      const auctionId = await createAuction();
      const before = await detail(auctionId);
      const res = await alice.client.post('/api/v1/bid/placeBid', {
        raw: `{"productId":"${auctionId}","bidAmount":`,
      });
      expectRefused(res, 400, 'The request body is not valid JSON');
      expect(await detail(auctionId)).toEqual(before);
    });

    it('a JSON array instead of an object', async () => {
      const res = await alice.client.post('/api/v1/bid/placeBid', { json: [150] });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toEqual(expect.any(String));
    });

    it('no body at all', async () => {
      expectRefused(await alice.client.post('/api/v1/bid/placeBid'), 400, 'productId is required');
    });
  });
});

describe('PUT /bid/editBid/:bidId', () => {
  it('raises your own bid: 200 with the updated bid and the current bid', async () => {
    const auctionId = await createAuction();
    await placeBid(bob, auctionId, 120);
    const bidId = (await placeBid(alice, auctionId, 130)).newBid._id;
    const res = await edit(alice, bidId, 175.5);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Bid Updated Successfully',
      currentBid: 175.5,
      updatedBid: {
        _id: bidId,
        auctionId,
        bidAmount: 175.5,
        amount: 175.5,
        bidder: { _id: alice.id },
      },
    });
    const view = await detail(auctionId);
    expect(view.currentBid).toBe(175.5);
    expect(view.bids[0]).toEqual(res.body.updatedBid);
  });

  it('lets an outbid bidder raise past the leader only by at least the increment (table)', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { increments: 'table' });
    const low = (await placeBid(alice, auctionId, 120)).newBid._id;
    await placeBid(bob, auctionId, 130);
    expectRefused(await edit(alice, low, 132.49), 409, 'Your bid must be at least $132.50');
    expect((await edit(alice, low, 132.5)).status).toBe(200);
    expect((await detail(auctionId)).bids[0]).toMatchObject({ _id: low, amount: 132.5 });
  });

  it('lets the leader edit only upwards', async () => {
    const auctionId = await createAuction();
    const bidId = (await placeBid(alice, auctionId, 120)).newBid._id;
    expectRefused(await edit(alice, bidId, 120), 409, 'Your bid must be at least $120.01');
    expectRefused(await edit(alice, bidId, 110), 409, 'Your bid must be at least $120.01');
    expect((await edit(alice, bidId, 120.01)).body.currentBid).toBe(120.01);
  });

  it('allows only the owner: guest 401, another user 403, the seller 403', async () => {
    const auctionId = await createAuction();
    const bidId = (await placeBid(alice, auctionId, 120)).newBid._id;
    const before = await detail(auctionId);
    expectRefused(
      await server.client().put(`/api/v1/bid/editBid/${bidId}`, { json: { bidAmount: 300 } }),
      401,
      'Please log in to continue',
    );
    expectRefused(await edit(bob, bidId, 300), 403, 'You can only change your own bids');
    expectRefused(await edit(seller, bidId, 300), 403, 'You can only change your own bids');
    expect(await detail(auctionId)).toEqual(before);
  });

  it('answers 404 for an unknown bid and 400 for an id of the wrong shape', async () => {
    expectRefused(await edit(alice, randomUUID(), 300), 404, 'Bid not found');
    expectRefused(await edit(alice, 'not%20an%20id', 300), 400, 'Invalid bidId');
    expectRefused(await edit(alice, 'x'.repeat(65), 300), 400, 'Invalid bidId');
  });

  it('refuses bad amounts with a 400 and changes nothing', async () => {
    const auctionId = await createAuction();
    const bidId = (await placeBid(alice, auctionId, 120)).newBid._id;
    const before = await detail(auctionId);
    for (const [amount, message] of [
      [undefined, 'Valid bid amount is required'],
      ['300', 'Valid bid amount is required'],
      [-5, 'Valid bid amount is required'],
      [0.5, 'Valid bid amount is required'],
      [300.001, 'Bid amount may have at most two decimals'],
      [5e9, 'Bid amount may be at most $1,000,000,000.00'],
    ] as const) {
      expectRefused(await edit(alice, bidId, amount), 400, message);
    }
    expectRefused(
      await alice.client.put(`/api/v1/bid/editBid/${bidId}`, { raw: '{"bidAmount": 3' }),
      400,
      'The request body is not valid JSON',
    );
    expect(await detail(auctionId)).toEqual(before);
  });

  it('answers 404 for a retracted bid', async () => {
    const auctionId = await createAuction();
    const bidId = (await placeBid(alice, auctionId, 120)).newBid._id;
    expect((await retract(alice, bidId)).status).toBe(200);
    expectRefused(await edit(alice, bidId, 300), 404, 'Bid not found');
  });
});

describe('DELETE /bid/deleteBid/:bidId', () => {
  it('retracts your bid: the current bid falls back to the highest remaining one', async () => {
    const auctionId = await createAuction();
    const first = (await placeBid(bob, auctionId, 120)).newBid._id;
    const second = (await placeBid(alice, auctionId, 150)).newBid._id;
    const res = await retract(alice, second);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Bid Deleted Successfully',
      currentBid: 120,
    });
    const view = await detail(auctionId);
    expect(view.currentBid).toBe(120);
    expect(view.bids.map((b) => b._id)).toEqual([first]);

    expect((await retract(bob, first)).body.currentBid).toBe(0);
    expect((await detail(auctionId)).bids).toEqual([]);
  });

  it('retracting a bid that is not the highest leaves the current bid alone', async () => {
    const auctionId = await createAuction();
    const low = (await placeBid(bob, auctionId, 120)).newBid._id;
    await placeBid(alice, auctionId, 150);
    expect((await retract(bob, low)).body.currentBid).toBe(150);
  });

  it('allows only the owner: guest 401, another user 403, the seller 403', async () => {
    const auctionId = await createAuction();
    const bidId = (await placeBid(alice, auctionId, 120)).newBid._id;
    const before = await detail(auctionId);
    expectRefused(
      await server.client().delete(`/api/v1/bid/deleteBid/${bidId}`),
      401,
      'Please log in to continue',
    );
    expectRefused(await retract(bob, bidId), 403, 'You can only change your own bids');
    expectRefused(await retract(seller, bidId), 403, 'You can only change your own bids');
    expect(await detail(auctionId)).toEqual(before);
  });

  it('answers 404 for an unknown or already retracted bid and 400 for a bad id', async () => {
    const auctionId = await createAuction();
    const bidId = (await placeBid(alice, auctionId, 120)).newBid._id;
    expect((await retract(alice, bidId)).status).toBe(200);
    expectRefused(await retract(alice, bidId), 404, 'Bid not found');
    expectRefused(await retract(alice, randomUUID()), 404, 'Bid not found');
    expectRefused(await retract(alice, 'bad.id'), 400, 'Invalid bidId');
  });
});

describe('an auction that is no longer live', () => {
  it('refuses new bids, edits and retractions with 409', async () => {
    const auctionId = await createAuction();
    const bidId = (await placeBid(alice, auctionId, 120)).newBid._id;
    const cancelled = await seller.client.delete(`/api/v1/auction/deleteAuction/${auctionId}`);
    expect(cancelled.status).toBe(200);
    const before = await detail(auctionId);

    expectRefused(await requestBid(bob, auctionId, 500), 409, 'This auction is no longer live');
    expectRefused(await edit(alice, bidId, 500), 409, 'This auction is no longer live');
    expectRefused(await retract(alice, bidId), 409, 'This auction is no longer live');
    expect(await detail(auctionId)).toEqual(before);
  });

  it('refuses a bid at or after the end time even before the close is written (409)', async () => {
    const auctionId = await createAuction(seller, 1000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await requestBid(alice, auctionId, 500);
    expect(res.status).toBe(409);
    expect(['This auction has ended', 'This auction is no longer live']).toContain(
      res.body.message,
    );
  });
});

describe('rate limit', () => {
  it('answers 429 past RATE_LIMIT_BIDS per user per minute, counting each user apart', async () => {
    const limited = await startTestServer({ RATE_LIMIT_BIDS: '3' });
    try {
      const [first, second] = await Promise.all([signUpAndLogIn(limited), signUpAndLogIn(limited)]);
      const productId = randomUUID();
      for (let i = 0; i < 3; i++) {
        expect((await requestBid(first, productId, 150)).status).toBe(404);
      }
      expectRefused(
        await requestBid(first, productId, 150),
        429,
        'Too many bids, please slow down',
      );
      expectRefused(await retract(first, randomUUID()), 429, 'Too many bids, please slow down');
      expect((await requestBid(second, productId, 150)).status).toBe(404);
    } finally {
      await limited.cleanup();
    }
  });
});
