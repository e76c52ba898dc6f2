import type { AuctionView } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  requestBid,
  sellerAliceBob,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

/** The increment rule and soft close a new auction gets: the spec's, the seller's, the operator's. */
let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob] = await sellerAliceBob(server);
});
afterAll(() => server.cleanup());

const TWO_MINUTES = 2 * 60_000;

/** The create auction form exactly as the spec sends it: multipart, and no bidding rules. */
const createAsTheSpec = async (user: TestUser): Promise<AuctionView> => {
  const form = new FormData();
  form.set('title', 'Pocket watch');
  form.set('description', 'Silver, 1910s');
  form.set('category', 'jewelry-watches');
  form.set('startingPrice', '100');
  form.set('auctionDate', new Date(Date.now() + 86_400_000).toISOString());
  const res = await user.client.post('/api/v1/auction/createAuction', { form });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { auction: AuctionView }).auction;
};

describe('a client written against the spec', () => {
  it('bids the current highest plus $1, and its auction has no soft close', async () => {
    const auction = await createAsTheSpec(seller);
    expect(auction).toMatchObject({ increments: 'one-dollar', softClose: null });

    expect((await requestBid(alice, auction._id, 100)).status).toBe(201);
    const plusOne = await requestBid(bob, auction._id, 101);
    expect(plusOne.status, JSON.stringify(plusOne.body)).toBe(201);
    expect(plusOne.body).toMatchObject({ currentBid: 101 });
    expect(plusOne.body).not.toHaveProperty('auctionEndTime');

    const short = await requestBid(alice, auction._id, 101.99);
    expect(short.status).toBe(409);
    expect(short.body).toEqual({ success: false, message: 'Your bid must be at least $102.00' });
    expect(await fetchAuction(server, auction._id)).toMatchObject({
      currentBid: 101,
      increments: 'one-dollar',
      softClose: null,
    });
  });
});

describe('a seller who chooses the rules', () => {
  it('gets the published table: at $100 the next bid is $102.50', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { increments: 'table' });
    expect(await fetchAuction(server, auctionId)).toMatchObject({ increments: 'table' });
    expect((await requestBid(alice, auctionId, 100)).status).toBe(201);

    const plusOne = await requestBid(bob, auctionId, 101);
    expect(plusOne.status).toBe(409);
    expect(plusOne.body).toEqual({ success: false, message: 'Your bid must be at least $102.50' });
    expect((await requestBid(bob, auctionId, 102.5)).status).toBe(201);
  });

  it('gets soft close, from the JSON API and from a form', async () => {
    const json = await createAuctionOverHttp(seller.client, { softClose: true });
    expect(await fetchAuction(server, json)).toMatchObject({
      softClose: { windowMs: TWO_MINUTES, extensionMs: TWO_MINUTES },
    });
    const form = new FormData();
    for (const [key, value] of Object.entries({
      title: 'Snuff box',
      description: 'Enamel, 1780s',
      category: 'antiques',
      startingPrice: '100',
      auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
      increments: 'table',
      softClose: 'true',
    }))
      form.set(key, value);
    const res = await seller.client.post('/api/v1/auction/createAuction', { form });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.auction).toMatchObject({
      increments: 'table',
      softClose: { windowMs: TWO_MINUTES, extensionMs: TWO_MINUTES },
    });
  });

  it('is refused a rule the product does not have, naming the field, and nothing is created', async () => {
    const before = (await seller.client.get('/api/v1/auction/getAuctions')).body.auctions.length;
    const res = await seller.client.post('/api/v1/auction/createAuction', {
      json: {
        title: 'Snuff box',
        description: 'Enamel, 1780s',
        category: 'antiques',
        startingPrice: 100,
        auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
        increments: 'ten-percent',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      message: 'increments must be "one-dollar" or "table"',
    });
    expect((await seller.client.get('/api/v1/auction/getAuctions')).body.auctions).toHaveLength(
      before,
    );
  });
});

describe("the operator's defaults", () => {
  let strict: TestServer;
  let sally: TestUser;
  let ann: TestUser;
  let ben: TestUser;

  beforeAll(async () => {
    strict = await startTestServer({ DEFAULT_INCREMENTS: 'table', DEFAULT_SOFT_CLOSE: 'true' });
    [sally, ann, ben] = await sellerAliceBob(strict);
  });
  afterAll(() => strict.cleanup());

  it('apply to an auction whose seller names no rule', async () => {
    const auction = await createAsTheSpec(sally);
    expect(auction).toMatchObject({
      increments: 'table',
      softClose: { windowMs: TWO_MINUTES, extensionMs: TWO_MINUTES },
    });
    expect((await requestBid(ann, auction._id, 100)).status).toBe(201);
    const plusOne = await requestBid(ben, auction._id, 101);
    expect(plusOne.status).toBe(409);
    expect(plusOne.body.message).toBe('Your bid must be at least $102.50');
  });

  it("give way to the seller's own choice", async () => {
    const auctionId = await createAuctionOverHttp(sally.client, {
      increments: 'one-dollar',
      softClose: false,
    });
    expect(await fetchAuction(strict, auctionId)).toMatchObject({
      increments: 'one-dollar',
      softClose: null,
    });
  });
});

it('logged no unexpected errors', () => {
  expect(server.logs).toEqual([]);
});
