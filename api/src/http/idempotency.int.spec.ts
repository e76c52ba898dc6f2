import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  requestBid,
  signUpAndLogIn,
} from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

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

const REUSED = {
  success: false,
  message:
    'This Idempotency-Key was already used for a different request; nothing was changed. Use a new key for a new request.',
};

// A retry sends the very same body, end time included.
const END = new Date(Date.now() + 86_400_000).toISOString();

const create = (key: string, title: string) =>
  seller.client.post(
    '/api/v1/auction/createAuction',
    {
      json: {
        title,
        description: 'Brass, 1890s',
        category: 'antiques',
        startingPrice: 100,
        auctionDate: END,
      },
    },
    { 'idempotency-key': key },
  );

describe('Idempotency-Key: a retried request has its effect once', () => {
  it('a bid sent again with the same key gets the first answer, and stands once', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    const first = await requestBid(alice, auctionId, 150, { idempotencyKey: 'retry-1' });
    const again = await requestBid(alice, auctionId, 150, { idempotencyKey: 'retry-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // Without the key the same request is a new bid, refused as too low.
    expect((await requestBid(alice, auctionId, 150)).status).toBe(409);
    expect((await fetchAuction(server, auctionId)).bids.map((b) => b._id)).toEqual([
      first.body.newBid._id,
    ]);
  });

  it('the same key on another auction, or from another user, is another request', async () => {
    const [one, two] = [
      await createAuctionOverHttp(seller.client),
      await createAuctionOverHttp(seller.client),
    ];
    const onOne = await requestBid(alice, one, 150, { idempotencyKey: 'shared' });
    const onTwo = await requestBid(alice, two, 150, { idempotencyKey: 'shared' });
    const byBob = await requestBid(bob, one, 160, { idempotencyKey: 'shared' });
    expect([onOne.status, onTwo.status, byBob.status]).toEqual([201, 201, 201]);
    const ids = [onOne, onTwo, byBob].map((res) => String(res.body.newBid._id));
    expect(new Set(ids).size).toBe(3);
    expect((await fetchAuction(server, one)).bids).toHaveLength(2);
    expect((await fetchAuction(server, two)).bids).toHaveLength(1);
  });

  it('an auction created again with the same key is the same auction, listed once', async () => {
    const first = await create('create-1', 'Carriage clock');
    const again = await create('create-1', 'Carriage clock');
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.auction._id).toBe(first.body.auction._id);
    const mine = await seller.client.get('/api/v1/auction/getAuctions');
    const titles = (mine.body.auctions as { _id: string }[]).filter(
      (a) => a._id === first.body.auction._id,
    );
    expect(titles).toHaveLength(1);
  });

  it('the same key with another bid is refused with 422 and changes nothing', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    const first = await requestBid(alice, auctionId, 100, { idempotencyKey: 'reused-1' });
    expect(first.status).toBe(201);
    const before = await fetchAuction(server, auctionId);
    for (const [amount, maximum] of [
      [300, 900],
      [100, 900],
      [300, undefined],
    ] as const) {
      const other = await requestBid(alice, auctionId, amount, {
        idempotencyKey: 'reused-1',
        maxBidAmount: maximum,
      });
      expect(other.status).toBe(422);
      expect(other.body).toEqual(REUSED);
    }
    expect(await fetchAuction(server, auctionId)).toEqual(before);
    // The very same request again (its fields in another order) still gets the first answer.
    const again = await alice.client.post(
      '/api/v1/bid/placeBid',
      { json: { bidAmount: 100, productId: auctionId } },
      { 'idempotency-key': 'reused-1' },
    );
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });

  it('the same key with another auction to create is refused with 422, and one auction stands', async () => {
    const first = await create('create-reused', 'Mantel clock');
    expect(first.status).toBe(201);
    const other = await create('create-reused', 'Pocket watch');
    expect(other.status).toBe(422);
    expect(other.body).toEqual(REUSED);
    const mine = await seller.client.get('/api/v1/auction/getAuctions');
    const titles = (mine.body.auctions as { title: string }[]).map((a) => a.title);
    expect(titles).toContain('Mantel clock');
    expect(titles).not.toContain('Pocket watch');
  });

  it('a malformed key is refused and changes nothing', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    const res = await requestBid(alice, auctionId, 150, { idempotencyKey: 'not a key!' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Idempotency-Key must be/);
    expect((await fetchAuction(server, auctionId)).bids).toEqual([]);
  });
});
