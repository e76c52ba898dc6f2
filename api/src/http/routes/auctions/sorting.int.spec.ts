import { DAY_MS } from '@auction/contracts/testing';

const HOUR_MS = DAY_MS / 24;
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, placeBidThroughEngine, signUpAndLogIn } from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

/*
 * The live list in the orders a bidder decides by (issue 30, item 5): ending soonest, the current
 * price (the leading bid, else the starting price) both ways, and newest first when no order is
 * named. Each order pages by its own cursor over the whole filtered set; a cursor of another
 * order, or an order the API does not know, is a 400.
 */

const A = '/api/v1/auction';

interface Listed {
  readonly _id: string;
  readonly title: string;
  readonly currentBid: number;
  readonly startingPrice: number;
  readonly auctionEndTime: string;
  readonly createdAt: string;
}

let server: TestServer;
let seller: TestUser;
let bidder: TestUser;
/** Title → id of each auction made in `beforeAll`. */
const made = new Map<string, string>();

// Title, starting price, hours to the end, the bid on it (none: 0), category.
const lots = [
  ['Sort lot A', 300, 70, 0, 'antiques'],
  ['Sort lot B', 100, 20, 500, 'antiques'],
  ['Sort lot C', 200, 90, 0, 'vehicles'],
  ['Sort lot D', 100, 45, 200, 'antiques'],
  ['Sort lot E', 150, 5, 0, 'vehicles'],
  ['Sort lot F', 400, 30, 0, 'antiques'],
  ['Sort lot G', 100, 60, 250, 'vehicles'],
] as const;

beforeAll(async () => {
  server = await startTestServer();
  [seller, bidder] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);
  for (const [title, startingPrice, hours, , category] of lots) {
    const res = await seller.client.post(`${A}/createAuction`, {
      json: {
        title,
        description: 'Listed for the sorting test',
        category,
        startingPrice,
        auctionDate: new Date(Date.now() + hours * HOUR_MS).toISOString(),
      },
    });
    expect(res.status).toBe(201);
    made.set(title, (res.body as { auction: { _id: string } }).auction._id);
  }
  for (const [title, , , bid] of lots)
    if (bid > 0) await placeBidThroughEngine(server, made.get(title) ?? '', bidder.id, bid);
}, 120_000);
afterAll(() => server.cleanup());

const get = async (query: Record<string, string | undefined>) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) params.set(name, value);
  const res = await server.client().get(`${A}/fetchAllAuctions?${params.toString()}`);
  return res as { status: number; body: Record<string, unknown> };
};

/** Every page of `limit` in `sort`'s order, following the cursors; the titles in order. */
const everyPage = async (query: Record<string, string | undefined>): Promise<string[]> => {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const res = await get({ ...query, cursor });
    expect(res.status).toBe(200);
    titles.push(...(res.body.auctions as Listed[]).map((a) => a.title));
    if (res.body.nextCursor === null) return titles;
    cursor = res.body.nextCursor as string;
  }
  throw new Error('more than 50 pages');
};

const priceOf = ([, start, , bid]: (typeof lots)[number]) => (bid > 0 ? bid : start);
const idOf = (title: string) => made.get(title) ?? '';
/** The lots in an order, ties by id as the server breaks them. */
const expected = (compare: (a: (typeof lots)[number], b: (typeof lots)[number]) => number) =>
  [...lots]
    .sort((a, b) => compare(a, b) || (idOf(a[0]) < idOf(b[0]) ? -1 : 1))
    .map(([title]) => title);

describe('GET /auction/fetchAllAuctions?sort=', () => {
  it('pages by ending soonest, each auction once, across pages of 2', async () => {
    expect(await everyPage({ search: 'Sort lot', sort: 'ending-soon', limit: '2' })).toEqual(
      expected((a, b) => a[2] - b[2]),
    );
  });

  it('pages by the current price, low to high and high to low (a bid counts, else the starting price)', async () => {
    const low = await everyPage({ search: 'Sort lot', sort: 'price-low', limit: '3' });
    expect(low).toEqual(expected((a, b) => priceOf(a) - priceOf(b)));
    // B (bid $500) outranks F (starts at $400); D and C tie at $200 and page apart by id.
    expect(low.at(-1)).toBe('Sort lot B');
    const high = await everyPage({ search: 'Sort lot', sort: 'price-high', limit: '1' });
    expect(high).toEqual(expected((a, b) => priceOf(b) - priceOf(a)));
  });

  it('sorts within a category filter, and newest first with no order or sort=newest', async () => {
    expect(
      await everyPage({ search: 'Sort lot', category: 'Vehicles', sort: 'price-high', limit: '2' }),
    ).toEqual(['Sort lot G', 'Sort lot C', 'Sort lot E']);
    const newest = [...lots].map(([title]) => title).reverse();
    expect(await everyPage({ search: 'Sort lot', limit: '4' })).toEqual(newest);
    expect(await everyPage({ search: 'Sort lot', sort: 'newest', limit: '4' })).toEqual(newest);
    expect(await everyPage({ search: 'Sort lot', sort: '', limit: '4' })).toEqual(newest);
  });

  it('moves an auction when a bid changes its price', async () => {
    await placeBidThroughEngine(server, idOf('Sort lot A'), bidder.id, 600);
    const high = await everyPage({ search: 'Sort lot', sort: 'price-high', limit: '3' });
    expect(high[0]).toBe('Sort lot A');
  });

  it('refuses an unknown order with a 400 that names the choices', async () => {
    const res = await get({ sort: 'cheapest' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('sort must be one of newest, ending-soon, price-low, price-high');
  });

  it("refuses another order's cursor with a 400", async () => {
    const first = await get({ sort: 'price-low', limit: '1' });
    expect(typeof first.body.nextCursor).toBe('string');
    const cursor = first.body.nextCursor as string;
    for (const sort of ['ending-soon', 'price-high', undefined]) {
      const res = await get({ sort, cursor });
      expect(res.status).toBe(400);
    }
    expect((await get({ sort: 'price-low', cursor })).status).toBe(200);
  });
});

// Ends within the hour sort first: an auction ending soonest is on the first page.
describe('an auction about to end', () => {
  it('leads the ending-soon order', async () => {
    const res = await seller.client.post(`${A}/createAuction`, {
      json: {
        title: 'Sort lot last minutes',
        description: 'Ends soon',
        category: 'antiques',
        startingPrice: 100,
        auctionDate: new Date(Date.now() + DAY_MS / 48).toISOString(),
      },
    });
    expect(res.status).toBe(201);
    const first = await get({ sort: 'ending-soon', limit: '1' });
    expect((first.body.auctions as Listed[])[0]?.title).toBe('Sort lot last minutes');
  });
});
