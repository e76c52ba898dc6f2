import { randomUUID } from 'node:crypto';
import { DAY_MS } from '@auction/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, placeBidThroughEngine, signUpAndLogIn } from '../testing/fixtures';
import type { TestClient } from '../testing/test-server';
import { type TestServer, startTestServer } from '../testing/test-server';

/*
 * Lists that grow come a page at a time (issue 15, item 9): a cursor names the next page, each
 * item comes once however many are written between pages, search and the category filter run
 * over the whole set, and a cursor or limit the server never gave is a 400.
 */

const A = '/api/v1/auction';
const U = '/api/v1/user';

interface Listed {
  readonly _id: string;
  readonly createdAt?: string;
  readonly title?: string;
  readonly name?: string;
  readonly category?: { readonly name: string };
}

let server: TestServer;
let seller: TestUser;
let other: TestUser;
let bidder: TestUser;
let rival: TestUser;
/** Every auction made in `beforeAll`, in the order they were made. */
const made: string[] = [];
const mineMade: string[] = [];
const clocks: string[] = [];
const vehicles: string[] = [];

const create = async (
  user: TestUser,
  title: string,
  category = 'antiques',
  endsInMs = DAY_MS,
): Promise<string> => {
  const res = await user.client.post(`${A}/createAuction`, {
    json: {
      title,
      description: 'Listed for the paging test',
      category,
      startingPrice: 100,
      auctionDate: new Date(Date.now() + endsInMs).toISOString(),
    },
  });
  expect(res.status).toBe(201);
  return (res.body as { auction: { _id: string } }).auction._id;
};

beforeAll(async () => {
  server = await startTestServer();
  [seller, other, bidder, rival] = await Promise.all([
    signUpAndLogIn(server),
    signUpAndLogIn(server),
    signUpAndLogIn(server),
    signUpAndLogIn(server),
  ]);
  for (let i = 0; i < 45; i++) {
    const clock = i % 4 === 0;
    const vehicle = i % 3 === 0;
    const user = i % 2 === 0 ? seller : other;
    const id = await create(
      user,
      clock ? `Brass clock no. ${i}` : `Lot ${i}`,
      vehicle ? 'vehicles' : 'antiques',
    );
    made.push(id);
    if (user === seller) mineMade.push(id);
    if (clock) clocks.push(id);
    if (vehicle) vehicles.push(id);
  }
}, 120_000);
afterAll(() => server.cleanup());

type Page = { items: Listed[]; nextCursor: unknown; status: number };

const page = async (
  client: TestClient,
  path: string,
  key: string,
  query: Record<string, string | undefined>,
): Promise<Page> => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) params.set(name, value);
  const res = await client.get(`${path}?${params.toString()}`);
  const body = res.body as Record<string, unknown>;
  return { items: (body[key] ?? []) as Listed[], nextCursor: body.nextCursor, status: res.status };
};

/** Follows `nextCursor` to the end, calling `between` after each page; returns every item. */
const everyPage = async (
  client: TestClient,
  path: string,
  key: string,
  query: Record<string, string | undefined>,
  between: (pageNumber: number) => Promise<void> = () => Promise.resolve(),
): Promise<{ items: Listed[]; pages: number }> => {
  const items: Listed[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages < 100; pages++) {
    const next = await page(client, path, key, { ...query, cursor });
    expect(next.status).toBe(200);
    items.push(...next.items);
    if (next.nextCursor === null) return { items, pages };
    expect(typeof next.nextCursor).toBe('string');
    cursor = next.nextCursor as string;
    await between(pages);
  }
  throw new Error('more than 100 pages');
};

const ids = (items: readonly Listed[]) => items.map((item) => item._id);
const newestFirst = (a: Listed, b: Listed) =>
  (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || (a._id < b._id ? -1 : 1);
const sortedIds = (list: readonly string[]) => [...list].sort();

describe('GET /auction/fetchAllAuctions, a page at a time', () => {
  it('answers the first page to a client that sends no cursor, with the cursor of the next', async () => {
    const first = await page(server.client(), `${A}/fetchAllAuctions`, 'auctions', {});
    expect(first.status).toBe(200);
    expect(first.items).toHaveLength(20);
    expect(typeof first.nextCursor).toBe('string');
  });

  it('gives every live auction exactly once, newest first, while new ones are created between pages', async () => {
    const createdMeanwhile: string[] = [];
    const { items, pages } = await everyPage(
      server.client(),
      `${A}/fetchAllAuctions`,
      'auctions',
      { limit: '7' },
      async () => {
        createdMeanwhile.push(await create(other, `Late lot ${createdMeanwhile.length}`));
      },
    );
    expect(pages).toBe(7);
    const seen = ids(items);
    expect(new Set(seen).size).toBe(seen.length);
    // Every auction there before the first page, once; the newer ones belong before page one.
    expect(sortedIds(seen.filter((id) => !createdMeanwhile.includes(id)))).toEqual(sortedIds(made));
    expect(seen.filter((id) => createdMeanwhile.includes(id))).toEqual([]);
    expect([...items].sort(newestFirst).map((item) => item._id)).toEqual(seen);

    // The newest auctions now lead the first page.
    const first = await page(server.client(), `${A}/fetchAllAuctions`, 'auctions', {
      limit: '3',
    });
    expect(sortedIds(ids(first.items))).toEqual(sortedIds(createdMeanwhile.slice(-3)));
  });

  it('searches titles and filters by category over the whole set, across pages', async () => {
    const path = `${A}/fetchAllAuctions`;
    const searched = await everyPage(server.client(), path, 'auctions', {
      search: 'CLOCK',
      limit: '4',
    });
    expect(searched.pages).toBe(Math.ceil(clocks.length / 4));
    expect(sortedIds(ids(searched.items))).toEqual(sortedIds(clocks));

    const filtered = await everyPage(server.client(), path, 'auctions', {
      category: 'Vehicles',
      limit: '5',
    });
    expect(sortedIds(ids(filtered.items))).toEqual(sortedIds(vehicles));
    expect(filtered.items.every((item) => item.category?.name === 'Vehicles')).toBe(true);

    const both = await everyPage(server.client(), path, 'auctions', {
      search: 'clock',
      category: 'Vehicles',
      limit: '1',
    });
    expect(sortedIds(ids(both.items))).toEqual(
      sortedIds(clocks.filter((id) => vehicles.includes(id))),
    );
    expect(both.pages).toBe(both.items.length);
  });
});

describe('the other lists, a page at a time', () => {
  it("pages a seller's own auctions (GET /auction/getAuctions)", async () => {
    const first = await page(seller.client, `${A}/getAuctions`, 'auctions', {});
    expect(first.items).toHaveLength(20);
    const { items } = await everyPage(seller.client, `${A}/getAuctions`, 'auctions', {
      limit: '6',
    });
    expect(sortedIds(ids(items))).toEqual(sortedIds(mineMade));
    expect([...items].sort(newestFirst)).toEqual(items);
  });

  it('pages the categories by name (GET /auction/getAllCategories)', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await seller.client.post(`${A}/createCategory`, {
        json: { name: `Paging category ${String(i).padStart(2, '0')}`, description: 'Lots' },
      });
      expect(res.status).toBe(201);
    }
    const whole = await page(server.client(), `${A}/getAllCategories`, 'categories', {
      limit: '100',
    });
    expect(whole.items).toHaveLength(20);
    expect(whole.nextCursor).toBeNull();
    const { items, pages } = await everyPage(
      server.client(),
      `${A}/getAllCategories`,
      'categories',
      { limit: '3' },
    );
    expect(pages).toBe(7);
    expect(items).toEqual(whole.items);
    const names = items.map((c) => c.name ?? '');
    expect(names).toEqual([...names].sort());
  });

  it('pages notifications newest first, and a cleared list has no next page (GET /auction/notifications)', async () => {
    const auctionId = made[0] as string;
    for (let i = 0; i < 12; i++)
      await placeBidThroughEngine(
        server,
        auctionId,
        (i % 2 === 0 ? bidder : rival).id,
        105 + 5 * i,
      );
    const path = `${A}/notifications`;
    const whole = await page(seller.client, path, 'data', { limit: '100' });
    expect(whole.items).toHaveLength(12);
    const { items, pages } = await everyPage(seller.client, path, 'data', { limit: '5' });
    expect(pages).toBe(3);
    expect(items).toEqual(whole.items);

    const first = await page(seller.client, path, 'data', { limit: '5' });
    expect((await seller.client.delete(`${path}/clear`)).status).toBe(200);
    const after = await page(seller.client, path, 'data', {
      limit: '5',
      cursor: first.nextCursor as string,
    });
    expect(after).toEqual({ items: [], nextCursor: null, status: 200 });
  });

  it("pages an auction's standing bids highest first, each once while higher bids come between pages (GET /auction/bids)", async () => {
    const auctionId = made[1] as string;
    const bid = (amount: number, bidderId: string) =>
      placeBidThroughEngine(server, auctionId, bidderId, amount);
    for (let i = 0; i < 12; i++) await bid(105 + 5 * i, (i % 2 === 0 ? bidder : rival).id);
    const path = `${A}/bids`;
    const whole = await page(server.client(), path, 'bids', { auctionId, limit: '100' });
    expect(whole.items).toHaveLength(12);
    const detail = await server.client().get(`${A}/fetchSpecificAuction?auctionId=${auctionId}`);
    expect(detail.body.auctionDetails.bids).toEqual(whole.items);
    expect(detail.body.auctionDetails.bidsNextCursor).toBeNull();
    let higher = 200;
    const { items, pages } = await everyPage(
      server.client(),
      path,
      'bids',
      { auctionId, limit: '5' },
      () => bid((higher += 10), bidder.id),
    );
    expect(pages).toBe(3);
    expect(items).toEqual(whole.items);
  });

  it('pages history beyond its limit (GET /user/history)', async () => {
    const whole = await page(seller.client, `${U}/history`, 'history', { limit: '100' });
    expect(whole.items.length).toBe(mineMade.length);
    const first = await page(seller.client, `${U}/history`, 'history', {});
    expect(first.items).toHaveLength(20);
    expect(typeof first.nextCursor).toBe('string');
    const { items } = await everyPage(seller.client, `${U}/history`, 'history', {
      type: 'created',
      limit: '4',
    });
    expect(items.map((entry) => (entry as { id?: string }).id)).toEqual(
      whole.items.map((entry) => (entry as { id?: string }).id),
    );
  });
});

describe('a cursor or a limit the server never gave', () => {
  const lists = [
    `${A}/fetchAllAuctions`,
    `${A}/getAllCategories`,
    `${A}/getAuctions`,
    `${A}/notifications`,
    `${U}/history`,
    `${A}/bids?auctionId=${randomUUID()}`,
  ];
  /** The path with one more query parameter. */
  const and = (path: string, query: string) => `${path}${path.includes('?') ? '&' : '?'}${query}`;
  const cursorOf = async (client: TestClient, path: string): Promise<string> => {
    const res = await client.get(and(path, 'limit=1'));
    return (res.body as { nextCursor: string }).nextCursor;
  };

  it('is a 400 that says so, on every paged list, and changes nothing', async () => {
    const categoryCursor = await cursorOf(server.client(), `${A}/getAllCategories`);
    const auctionCursor = await cursorOf(server.client(), `${A}/fetchAllAuctions`);
    expect(typeof categoryCursor).toBe('string');
    const forged = Buffer.from(JSON.stringify(['auctions', 42, 'x'])).toString('base64url');
    const badCursors = [
      'not a cursor',
      'bm90IGpzb24',
      forged,
      `x${auctionCursor}`,
      'A'.repeat(5000),
      encodeURIComponent('"]}'),
    ];
    const head = await server.deps.events.headPosition();
    for (const path of lists) {
      const client = seller.client;
      const wrongList = path.endsWith('getAllCategories') ? auctionCursor : categoryCursor;
      for (const cursor of [...badCursors, wrongList]) {
        const res = await client.get(and(path, `cursor=${encodeURIComponent(cursor)}`));
        expect(res.status, `${path} cursor=${cursor.slice(0, 40)}`).toBe(400);
        expect(res.body).toEqual({
          success: false,
          message: 'cursor must be the nextCursor of an earlier page of this list',
        });
      }
      const twice = await client.get(
        and(path, `cursor=${categoryCursor}&cursor=${categoryCursor}`),
      );
      expect(twice.status).toBe(400);
      for (const limit of ['0', '101', '-1', '1.5', 'abc', '', '1e2', '0x10']) {
        const res = await client.get(and(path, `limit=${limit}`));
        expect(res.status, `${path} limit=${limit}`).toBe(400);
        expect(res.body).toEqual({
          success: false,
          message: 'limit must be a whole number from 1 to 100',
        });
      }
    }
    expect(await server.deps.events.headPosition()).toBe(head);
  });

  it('takes an empty cursor as the first page', async () => {
    const res = await server.client().get(`${A}/fetchAllAuctions?cursor=&limit=2`);
    expect(res.status).toBe(200);
    expect((res.body as { auctions: unknown[] }).auctions).toHaveLength(2);
  });
});
