import { randomUUID } from 'node:crypto';
import { PriceHistoryEntry, auctionStream } from '@auction/contracts';
import type { EventStore } from '@auction/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  commandMetadata,
  createAuctionOverHttp,
  placeBid,
  sellerAliceBob,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';
import { CHECKPOINT_EVERY, PriceHistory } from './price-history';

/**
 * `GET /auction/history`: the public price history, from the auction's stream. The secrets used
 * here are odd amounts that appear nowhere else, so finding them in any answer is a leak.
 */

const BOB_MAX = 317.89;
const ALICE_RAISED_MAX = 293.41;
const HIDDEN_RESERVE = 777.71;

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let auctionId: string;
const answers: string[] = [];

interface Page {
  auctionId: string;
  status: string;
  entries: PriceHistoryEntry[];
  lastRevision: number;
  nextAfter: number | null;
}

const history = async (id: string, query = ''): Promise<Page> => {
  const res = await server.client().get(`/api/v1/auction/history?auctionId=${id}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  answers.push(JSON.stringify(res.body));
  const page = res.body as Page;
  for (const entry of page.entries) PriceHistoryEntry.parse(entry);
  return page;
};

const everything = async (id: string, limit: number): Promise<PriceHistoryEntry[]> => {
  const entries: PriceHistoryEntry[] = [];
  let after = -1;
  for (;;) {
    const page = await history(id, `&after=${after}&limit=${limit}`);
    entries.push(...page.entries);
    if (page.nextAfter === null) return entries;
    expect(page.nextAfter).toBeGreaterThan(after);
    after = page.nextAfter;
  }
};

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_HISTORY: '100000' });
  [seller, alice, bob] = await sellerAliceBob(server);
  carol = await signUpAndLogIn(server, { firstName: 'Carol', lastName: 'Clark' });
  auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100, reservePrice: 250 });
  const first = await placeBid(alice, auctionId, 150);
  // Bob's maximum reaches the reserve: his bid stands at the reserve at once.
  await placeBid(bob, auctionId, 160, BOB_MAX);
  const raised = await alice.client.put(`/api/v1/bid/editBid/${first.newBid._id}`, {
    json: { bidAmount: 260, maxBidAmount: ALICE_RAISED_MAX },
  });
  expect(raised.status, JSON.stringify(raised.body)).toBe(200);
  const carols = await placeBid(carol, auctionId, 400);
  const retracted = await carol.client.delete(`/api/v1/bid/deleteBid/${carols.newBid._id}`);
  expect(retracted.status, JSON.stringify(retracted.body)).toBe(200);
}, 60_000);
afterAll(() => server.cleanup());

describe('GET /auction/history', () => {
  it('lists every price move in order with its time, bidder and the price after it', async () => {
    const page = await history(auctionId);
    expect(page.status).toBe('Live');
    expect(page.nextAfter).toBeNull();
    const moves = page.entries.map((e) => [e.kind, e.bidder?.firstName ?? null, e.amount, e.price]);
    expect(moves).toEqual([
      ['opened', null, 100, 0],
      ['bid', 'Alice', 150, 150],
      ['bid', 'Bob', 160, 160],
      // The jump to $250 is explained: Bob's maximum reached the reserve, his bid was lifted to it.
      ['automatic', 'Bob', 250, 250],
      ['raise', 'Alice', 260, 260],
      // Bob's maximum is above Alice's new one: his automatic bid answers one step above hers.
      ['automatic', 'Bob', 294.41, 294.41],
      ['bid', 'Carol', 400, 400],
      ['retraction', 'Carol', 400, 294.41],
    ]);
    const [opened, alices, bobs, lifted, raise, automatic, carols, retraction] = page.entries;
    expect(opened?.endsAt).not.toBeNull();
    expect(bobs).toMatchObject({ reserve: 'not-met', reserveMet: false, outbidByProxy: false });
    expect(lifted).toMatchObject({ priceBefore: 160, reserve: 'met', reserveMet: true });
    expect(alices).toMatchObject({ reserve: 'not-met', reserveMet: false });
    expect(raise).toMatchObject({ previousAmount: 150, outbidByProxy: true, extended: false });
    expect(automatic).toMatchObject({ previousAmount: 250, priceBefore: 260 });
    expect(carols?.endsAt).toBeNull();
    expect(retraction).toMatchObject({ priceBefore: 400, reserve: 'met' });
    // Times to the millisecond, in order, with the stream's revisions.
    for (const entry of page.entries) expect(entry.at).toMatch(/\.\d{3}Z$/);
    const revisions = page.entries.map((e) => e.revision);
    expect([...revisions].sort((a, b) => a - b)).toEqual(revisions);
    expect(page.lastRevision).toBeGreaterThanOrEqual(revisions[revisions.length - 1] ?? 0);
  });

  it('pages by revision: small pages add up to the whole history', async () => {
    const whole = (await history(auctionId)).entries;
    expect(await everything(auctionId, 1)).toEqual(whole);
    expect(await everything(auctionId, 3)).toEqual(whole);
    const late = await history(auctionId, `&after=${whole[4]?.revision}`);
    expect(late.entries).toEqual(whole.slice(5));
    expect(late.entries.length).toBeGreaterThan(0);
  });

  it('marks a bid in the soft-close window and the end it moved the auction to', async () => {
    const id = await createAuctionOverHttp(seller.client, { softClose: true, endsInMs: 60_000 });
    await placeBid(alice, id, 120);
    const [opened, bid] = (await history(id)).entries;
    expect(bid).toMatchObject({ kind: 'bid', extended: true });
    expect(Date.parse(bid?.endsAt ?? '')).toBeGreaterThan(Date.parse(opened?.endsAt ?? ''));
  });

  it('shows a Buy It Now sale and keeps a reserve nobody reached to itself', async () => {
    const id = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      reservePrice: HIDDEN_RESERVE,
      buyNowPrice: 900,
    });
    await placeBid(alice, id, 120);
    const bought = await bob.client.post('/api/v1/bid/buyNow', {
      json: { productId: id, price: 900 },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const page = await history(id);
    expect(page.status).toBe('Sold');
    expect(page.entries.slice(1).map((e) => [e.kind, e.amount, e.price, e.reserve])).toEqual([
      ['bid', 120, 120, 'not-met'],
      ['bid', 900, 900, 'met'],
      ['closed', 900, 900, 'met'],
    ]);
    expect(page.entries[3]).toMatchObject({ outcome: 'Sold', boughtNow: true });
    expect(page.entries[3]?.bidder?.firstName).toBe('Bob');
  });

  it('answers a cancelled auction to its cancellation, an unknown one 404, bad paging 400', async () => {
    const id = await createAuctionOverHttp(seller.client);
    expect((await seller.client.delete(`/api/v1/auction/deleteAuction/${id}`)).status).toBe(200);
    const page = await history(id);
    expect(page.status).toBe('Cancelled');
    expect(page.entries.map((e) => e.kind)).toEqual(['opened', 'cancelled']);
    const client = server.client();
    const unknown = await client.get(`/api/v1/auction/history?auctionId=${randomUUID()}`);
    expect(unknown.status).toBe(404);
    for (const query of ['&after=-2', '&after=x', '&limit=0', '&limit=101', '&after=1.5']) {
      const res = await client.get(`/api/v1/auction/history?auctionId=${auctionId}${query}`);
      expect(res.status, query).toBe(400);
    }
    expect((await client.get('/api/v1/auction/history')).status).toBe(400);
  });

  it('never answers a maximum or a reserve nobody reached', () => {
    const seen = answers.join('\n');
    expect(answers.length).toBeGreaterThan(5);
    for (const secret of [BOB_MAX, ALICE_RAISED_MAX, HIDDEN_RESERVE]) {
      expect(seen).not.toContain(String(secret));
      expect(seen).not.toContain(String(Math.round(secret * 100)));
    }
    expect(seen).not.toMatch(/maxAmount|reservePrice|maxBid/);
  });
});

describe('the cost of a page', () => {
  /** The server's log, counting the events each read hands out. */
  const counting = (events: Pick<EventStore, 'readStream' | 'streamRevision'>) => {
    const counted = { read: 0 };
    const store = {
      streamRevision: (id: string) => events.streamRevision(id),
      readStream: async (id: string, options?: Parameters<EventStore['readStream']>[1]) => {
        const read = await events.readStream(id, options);
        counted.read += read.length;
        return read;
      },
    };
    return { counted, store };
  };

  it('reads at most a checkpoint stretch and the page, however deep into a long stream', async () => {
    const id = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    const bids = 2 * CHECKPOINT_EVERY + 37;
    for (let i = 0; i < bids; i++) {
      const outcome = await server.deps.engine.send({
        type: 'PlaceBid',
        data: { auctionId: id, bidId: randomUUID(), amount: 10_100 + i * 100 },
        metadata: commandMetadata(i % 2 === 0 ? alice.id : bob.id),
      });
      expect(outcome.ok).toBe(true);
    }
    const last = await server.deps.events.streamRevision(auctionStream(id));
    expect(last).toBe(bids);
    const { counted, store } = counting(server.deps.events);
    const reader = new PriceHistory({ events: store, users: server.deps.users });
    // The first read folds the stream once to its page and keeps the states it passed.
    const first = await reader.page(id, 220, 10);
    expect(first?.entries.map((e) => e.revision)).toEqual([
      221, 222, 223, 224, 225, 226, 227, 228, 229, 230,
    ]);
    expect(first?.entries[0]?.priceBefore).toBe(100 + 220);
    counted.read = 0;
    const again = await reader.page(id, 210, 10);
    expect(again?.entries[0]?.revision).toBe(211);
    // From the kept state before revision 200: revisions 200 to 220, and the last event (its
    // status), not the stream's 238.
    expect(counted.read).toBe(22);
    // The same entries as a reader that starts from nothing.
    const fresh = new PriceHistory({ events: server.deps.events, users: server.deps.users });
    expect(await fresh.page(id, 210, 10)).toEqual(again);
  }, 60_000);
});

describe('the rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_HISTORY: '3' });
  });
  afterAll(() => limited.cleanup());

  it('answers 429 past RATE_LIMIT_HISTORY pages a minute from one address', async () => {
    const client = limited.client();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await client.get(`/api/v1/auction/history?auctionId=${randomUUID()}`)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});
