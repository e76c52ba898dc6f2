import { type CategoryView } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, signUpAndLogIn } from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

const A = '/api/v1/auction';

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  user = await signUpAndLogIn(server);
});
afterAll(() => server.cleanup());

const categories = async () =>
  (await server.client().get(`${A}/getAllCategories`)).body.categories as CategoryView[];

const fixed = [
  'Antiques',
  'Art & Collectibles',
  'Electronics',
  'Fashion',
  'Gaming',
  'Jewelry & Watches',
  'Real Estate',
  'Vehicles',
];

describe('GET /getAllCategories', () => {
  it('lists the eight fixed categories from the first start, to anyone', async () => {
    const res = await server.client().get(`${A}/getAllCategories`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.categories.map((c: { name: string }) => c.name)).toEqual(fixed);
    expect(res.body.categories[0]).toEqual({
      _id: 'antiques',
      name: 'Antiques',
      description: 'Furniture, décor and objects of earlier eras',
    });
  });
});

describe('POST /createCategory', () => {
  it('creates a category that is listed at once and can hold auctions', async () => {
    const res = await user.client.post(`${A}/createCategory`, {
      json: { name: '  Rare   Books ', description: ' First editions ' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Category Created' });
    const category = res.body.category;
    expect(category).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/) as string,
      name: 'Rare Books',
      description: 'First editions',
    });
    expect(await categories()).toContainEqual(category);

    const auction = await user.client.post(`${A}/createAuction`, {
      json: {
        title: 'Folio',
        description: 'A first folio facsimile',
        category: category._id,
        startingPrice: 500,
        auctionDate: new Date(Date.now() + DAY_MS).toISOString(),
      },
    });
    expect(auction.status).toBe(201);
    expect(auction.body.auction.category).toEqual({ _id: category._id, name: 'Rare Books' });
    const filtered = await server.client().get(`${A}/fetchAllAuctions?category=Rare%20Books`);
    expect(filtered.body.auctions.map((a: { _id: string }) => a._id)).toEqual([
      auction.body.auction._id,
    ]);
  });

  it.each([
    ['a fixed name in another case', 'ANTIQUES'],
    ['a fixed name with extra spaces', '  real   estate '],
    ['a created name in another case', 'rare books'],
  ])('refuses %s with 409', async (_name, name) => {
    const before = await categories();
    const res = await user.client.post(`${A}/createCategory`, {
      json: { name, description: 'Again' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: 'Category already exists' });
    expect(await categories()).toEqual(before);
  });

  it('lets exactly one of two simultaneous requests for one name win', async () => {
    const other = await signUpAndLogIn(server);
    const [a, b] = await Promise.all([
      user.client.post(`${A}/createCategory`, { json: { name: 'Stamps', description: 'A' } }),
      other.client.post(`${A}/createCategory`, { json: { name: 'STAMPS', description: 'B' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect(
      (await categories()).filter((c: { name: string }) => /stamps/i.test(c.name)),
    ).toHaveLength(1);
  });

  it.each([
    ['no name', { description: 'd' }, 'Please enter Name of Category'],
    ['a blank name', { name: '   ', description: 'd' }, 'Please enter Name of Category'],
    ['a numeric name', { name: 7, description: 'd' }, 'Category name must be text'],
    ['an array name', { name: ['Coins'], description: 'd' }, 'Category name must be text'],
    [
      'a long name',
      { name: 'n'.repeat(81), description: 'd' },
      'Category name must be at most 80 characters',
    ],
    ['no description', { name: 'Coins' }, 'Please enter Description'],
    ['an empty description', { name: 'Coins', description: '' }, 'Please enter Description'],
    ['an object description', { name: 'Coins', description: { a: 1 } }, 'Description must be text'],
    [
      'a long description',
      { name: 'Coins', description: 'd'.repeat(1001) },
      'Description must be at most 1000 characters',
    ],
  ])('refuses %s with 400 and changes nothing', async (_name, json, message) => {
    const before = await categories();
    const res = await user.client.post(`${A}/createCategory`, { json });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message });
    expect(await categories()).toEqual(before);
  });

  it('refuses malformed JSON, a missing body and a guest', async () => {
    const before = await categories();
    const malformed = await user.client.post(`${A}/createCategory`, { raw: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('The request body is not valid JSON');
    const empty = await user.client.post(`${A}/createCategory`);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Please enter Name of Category');
    const guest = await server
      .client()
      .post(`${A}/createCategory`, { json: { name: 'Coins', description: 'Old coins' } });
    expect(guest.status).toBe(401);
    expect(await categories()).toEqual(before);
  });

  it('logged no unexpected errors', () => {
    expect(server.logs).toEqual([]);
  });
});
