import { type AuctionView } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, fetchAuction, requestBid, signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

/**
 * Money comes in as dollars with at most two decimals, judged exactly (issue 15, item 7): an
 * amount a tolerance would have rounded to cents is refused with a 400 and changes nothing.
 */

const A = '/api/v1/auction';
const BID_DECIMALS = 'Bid amount may have at most two decimals';
const PRICE_DECIMALS = 'Amounts may have at most two decimals';

let server: TestServer;
let seller: TestUser;
let bidder: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, bidder] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);
});
afterAll(() => server.cleanup());

const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const auctionFields = (startingPrice: unknown) => ({
  title: 'Carriage clock',
  description: 'Brass, 1890s',
  category: 'antiques',
  startingPrice,
  auctionDate: inDays(2),
});

const editFields = (startingPrice: unknown) => ({
  title: 'Carriage clock',
  description: 'Brass, 1890s, serviced',
  startingPrice,
  auctionEndTime: inDays(3),
});

const formOf = (fields: Record<string, unknown>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, String(value));
  return form;
};

const created = async (startingPrice: unknown = 100): Promise<AuctionView> => {
  const res = await seller.client.post(`${A}/createAuction`, {
    json: auctionFields(startingPrice),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.auction as AuctionView;
};

const myAuctionCount = async () =>
  ((await seller.client.get(`${A}/getAuctions`)).body.auctions as unknown[]).length;

const expectRefused = (res: { status: number; body: unknown }, message: string): void => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toEqual({ success: false, message });
};

const tooPrecise: [string, number][] = [
  ['102.009999999', 102.009999999],
  ['150 + 0.1 + 0.2 (150.29999999999998)', 150 + 0.1 + 0.2],
  ['101.000000001', 101.000000001],
  ['100.0000001', 100.0000001],
  ['three decimals', 100.125],
];

describe('bids', () => {
  it.each(tooPrecise)('refuses a bid of %s with a 400 and changes nothing', async (_n, amount) => {
    const auction = await created();
    const res = await requestBid(bidder, auction._id, amount);
    expectRefused(res, BID_DECIMALS);
    expect((await fetchAuction(server, auction._id)).bids).toEqual([]);
  });

  it('accepts one or two decimals, written either way, as exact cents', async () => {
    const auction = await created();
    const first = await bidder.client.post('/api/v1/bid/placeBid', {
      raw: `{"productId":"${auction._id}","bidAmount":100.10}`,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.currentBid).toBe(100.1);
    const second = await requestBid(bidder, auction._id, 120.01);
    expect(second.status).toBe(201);
    expect(second.body.currentBid).toBe(120.01);
  });

  it('refuses an edit to 102.009999999 or 0.1 + 0.2 past a whole amount, and keeps the bid', async () => {
    const auction = await created();
    const placed = await requestBid(bidder, auction._id, 101);
    expect(placed.status).toBe(201);
    const bidId = placed.body.newBid._id as string;
    for (const amount of [102.009999999, 130 + 0.1 + 0.2]) {
      const res = await bidder.client.put(`/api/v1/bid/editBid/${bidId}`, {
        json: { bidAmount: amount },
      });
      expectRefused(res, BID_DECIMALS);
    }
    expect((await fetchAuction(server, auction._id)).currentBid).toBe(101);
    const edited = await bidder.client.put(`/api/v1/bid/editBid/${bidId}`, {
      json: { bidAmount: 102.01 },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.currentBid).toBe(102.01);
  });
});

describe('starting prices', () => {
  it.each(tooPrecise)('refuses creating at %s (JSON) and creates nothing', async (_n, price) => {
    const before = await myAuctionCount();
    const res = await seller.client.post(`${A}/createAuction`, { json: auctionFields(price) });
    expectRefused(res, PRICE_DECIMALS);
    expect(await myAuctionCount()).toBe(before);
  });

  it.each([
    ['102.009999999'],
    ['100.000000001'],
    ['100.0000001'],
    // Number() would read it as exactly 100.1: the form's text is judged as written.
    ['100.100000000000000000001'],
  ])('refuses creating at %s (form) and creates nothing', async (price) => {
    const before = await myAuctionCount();
    const res = await seller.client.post(`${A}/createAuction`, {
      form: formOf(auctionFields(price)),
    });
    expectRefused(res, PRICE_DECIMALS);
    expect(await myAuctionCount()).toBe(before);
  });

  it('creates at 100.1, "100.10" and 100.10 as exact cents', async () => {
    expect((await created(100.1)).startingPrice).toBe(100.1);
    const form = await seller.client.post(`${A}/createAuction`, {
      form: formOf(auctionFields('100.10')),
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect(form.body.auction.startingPrice).toBe(100.1);
    const raw = await seller.client.post(`${A}/createAuction`, {
      raw: JSON.stringify(auctionFields(0)).replace('"startingPrice":0', '"startingPrice":100.10'),
    });
    expect(raw.status, JSON.stringify(raw.body)).toBe(201);
    expect(raw.body.auction.startingPrice).toBe(100.1);
  });

  it('refuses editing to 102.009999999 or 0.1 + 0.2 past a whole amount, JSON or form', async () => {
    const auction = await created(100);
    const path = `${A}/editAuction/${auction._id}`;
    expectRefused(
      await seller.client.patch(path, { json: editFields(102.009999999) }),
      PRICE_DECIMALS,
    );
    expectRefused(
      await seller.client.patch(path, { json: editFields(200 + 0.1 + 0.2) }),
      PRICE_DECIMALS,
    );
    expectRefused(
      await seller.client.patch(path, { form: formOf(editFields('150.000000001')) }),
      PRICE_DECIMALS,
    );
    expect(await fetchAuction(server, auction._id)).toMatchObject({
      startingPrice: 100,
      description: 'Brass, 1890s',
    });
    const ok = await seller.client.patch(path, { json: editFields(150.5) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.auction.startingPrice).toBe(150.5);
  });
});
