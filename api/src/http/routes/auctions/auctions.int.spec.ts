import { randomUUID } from 'node:crypto';
import { type AuctionView } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import { systemClock } from '@auction/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  closeThroughEngine,
  placeBidThroughEngine,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import {
  PNG_1X1,
  type TestClient,
  type TestServer,
  startTestServer,
} from '../../../testing/test-server';

const A = '/api/v1/auction';

let server: TestServer;
let seller: TestUser;
let stranger: TestUser;
let bidder: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  seller = await signUpAndLogIn(server);
  stranger = await signUpAndLogIn(server);
  bidder = await signUpAndLogIn(server);
});
afterAll(() => server.cleanup());

const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

const validAuction = (overrides: Record<string, unknown> = {}) => ({
  title: 'Vintage brass clock',
  description: 'A mantel clock from the 1920s, working',
  category: 'antiques',
  startingPrice: 150,
  auctionDate: inDays(3),
  ...overrides,
});

const validEdit = (overrides: Record<string, unknown> = {}) => ({
  title: 'Vintage brass clock, serviced',
  description: 'Serviced in 2024',
  startingPrice: 175,
  auctionEndTime: inDays(4),
  ...overrides,
});

const createAuction = async (client: TestClient, overrides: Record<string, unknown> = {}) => {
  const res = await client.post(`${A}/createAuction`, { json: validAuction(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.auction as AuctionView;
};

const formOf = (fields: Record<string, string>, image?: Blob, filename = 'photo.png') => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  if (image) form.set('image', image, filename);
  return form;
};

const png = () => new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' });

const mine = async (client: TestClient = seller.client) =>
  (await client.get(`${A}/getAuctions`)).body.auctions as AuctionView[];

const myAuction = async (id: string) => (await mine()).find((a) => a._id === id);

const uploads = () => server.deps.images.list();

const fetchImage = async (url: string) => {
  const res = await fetch(`${server.url}${url}`);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
};

const badIds = [
  ['a path', '../../x'],
  ['200 characters', 'a'.repeat(200)],
  ['markup', '<script>alert(1)</script>'],
  ['spaces', 'an id'],
];

describe('POST /createAuction', () => {
  it('creates from JSON and answers with the auction, in dollars', async () => {
    const end = inDays(5);
    const res = await seller.client.post(`${A}/createAuction`, {
      json: validAuction({ startingPrice: 100, auctionDate: end }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Auction Created' });
    const auction = res.body.auction;
    expect(auction).toMatchObject({
      title: 'Vintage brass clock',
      description: 'A mantel clock from the 1920s, working',
      category: { _id: 'antiques', name: 'Antiques' },
      startingPrice: 100,
      currentBid: 0,
      status: 'Live',
      image: null,
      bids: [],
      auctionEndTime: end,
      seller: { _id: seller.id, firstName: seller.firstName, lastName: seller.lastName },
    });
    expect(auction._id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await mine()).map((a: { _id: string }) => a._id)).toContain(auction._id);
    // The seller's answer carries what only the seller sees (no reserve here); a guest's, none.
    const { viewer, ...forEveryone } = auction;
    expect(viewer).toEqual({ bidId: null, maxBid: null, reservePrice: null, retractable: [] });
    const detail = await server.client().get(`${A}/fetchSpecificAuction?auctionId=${auction._id}`);
    expect(detail.body.auctionDetails).toEqual(forEveryone);
  });

  it('creates from a multipart form with a PNG served back at image.url', async () => {
    const res = await seller.client.post(`${A}/createAuction`, {
      form: formOf(
        {
          title: 'Poster',
          description: 'Signed concert poster',
          category: 'art-collectibles',
          startingPrice: '250.50',
          auctionDate: inDays(2),
        },
        png(),
      ),
    });
    expect(res.status).toBe(201);
    expect(res.body.auction).toMatchObject({
      startingPrice: 250.5,
      category: { name: 'Art & Collectibles' },
    });
    const url: string = res.body.auction.image.url;
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    expect(res.body.auction.images).toEqual({ url });
    const served = await fetchImage(url);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(PNG_1X1)).toBe(true);
  });

  it('normalises an end time given with an offset to UTC milliseconds', async () => {
    const end = new Date(Date.now() + 2 * DAY_MS);
    end.setUTCMilliseconds(0);
    const withOffset = end.toISOString().replace('.000Z', '+00:00');
    const auction = await createAuction(seller.client, { auctionDate: withOffset });
    expect(auction.auctionEndTime).toBe(end.toISOString());
  });

  it.each([
    ['no title', { title: undefined }, 'Title is required'],
    ['a blank title', { title: '   ' }, 'Title is required'],
    ['a numeric title', { title: 42 }, 'Title must be text'],
    ['an array title', { title: ['a', 'b'] }, 'Title must be text'],
    ['an object title', { title: { $ne: '' } }, 'Title must be text'],
    ['a 201-character title', { title: 'x'.repeat(201) }, 'Title must be at most 200 characters'],
    ['no description', { description: undefined }, 'Description is required'],
    ['an empty description', { description: '' }, 'Description is required'],
    ['no category', { category: undefined }, 'Category is required'],
    ['an unknown category', { category: 'no-such-category' }, 'Category not found'],
    ['a category of the wrong shape', { category: '<script>' }, 'Category not found'],
    ['a name-reservation stream as category', { category: 'name-antiques' }, 'Category not found'],
    ['no starting price', { startingPrice: undefined }, 'Starting price is required'],
    ['an empty starting price', { startingPrice: '' }, 'Starting price is required'],
    ['a null starting price', { startingPrice: null }, 'Starting price is required'],
    ['a word as starting price', { startingPrice: 'abc' }, 'Starting price must be a number'],
    ['an array as starting price', { startingPrice: [150] }, 'Starting price must be a number'],
    [
      'an object as starting price',
      { startingPrice: { amount: 150 } },
      'Starting price must be a number',
    ],
    ['a boolean as starting price', { startingPrice: true }, 'Starting price must be a number'],
    ['a hex starting price', { startingPrice: '0x100' }, 'Starting price must be a number'],
    ['$99.99', { startingPrice: 99.99 }, 'Starting price must be at least $100'],
    ['a negative starting price', { startingPrice: -150 }, 'Starting price must be at least $100'],
    ['three decimals', { startingPrice: 100.125 }, 'Amounts may have at most two decimals'],
    [
      'a huge starting price',
      { startingPrice: 1e12 },
      'Starting price must be at most $1,000,000,000',
    ],
    ['no end time', { auctionDate: undefined }, 'Auction end date is required'],
    [
      'a word as end time',
      { auctionDate: 'tomorrow' },
      'Auction end date must be an ISO date-time',
    ],
    [
      'a date without time',
      { auctionDate: '2031-01-01' },
      'Auction end date must be an ISO date-time',
    ],
    [
      'a time without zone',
      { auctionDate: '2031-01-01T10:00:00' },
      'Auction end date must be an ISO date-time',
    ],
    [
      'an end time in the past',
      { auctionDate: inDays(-1) },
      'The auction end time must be in the future',
    ],
    [
      'an end time 91 days ahead',
      { auctionDate: inDays(91) },
      'The auction end time must be at most 90 days ahead',
    ],
  ])('refuses %s with 400 and changes nothing', async (_name, overrides, message) => {
    const before = await mine();
    const res = await seller.client.post(`${A}/createAuction`, { json: validAuction(overrides) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message });
    expect(await mine()).toEqual(before);
  });

  it.each([
    ['a word', 'abc', 'Starting price must be a number'],
    ['three decimals', '100.001', 'Amounts may have at most two decimals'],
    ['an empty field', '', 'Starting price is required'],
    ['too little', '99', 'Starting price must be at least $100'],
  ])('refuses a form starting price of %s', async (_name, startingPrice, message) => {
    const before = await mine();
    const { auctionDate, title, description, category } = validAuction();
    const res = await seller.client.post(`${A}/createAuction`, {
      form: formOf({ title, description, category, auctionDate, startingPrice }),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await mine()).toEqual(before);
  });

  it('refuses a body that is not an object, malformed JSON and an infinite number', async () => {
    const before = await mine();
    const array = await seller.client.post(`${A}/createAuction`, { json: [validAuction()] });
    expect(array.status).toBe(400);
    expect(array.body.message).toBe('The request body must be an object');
    const malformed = await seller.client.post(`${A}/createAuction`, { raw: '{"title": "x",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      success: false,
      message: 'The request body is not valid JSON',
    });
    const raw = JSON.stringify(validAuction()).replace(
      '"startingPrice":150',
      '"startingPrice":1e400',
    );
    const infinite = await seller.client.post(`${A}/createAuction`, { raw });
    expect(infinite.status).toBe(400);
    expect(infinite.body.message).toBe('Starting price must be a number');
    expect(await mine()).toEqual(before);
  });

  it('answers 401 to a guest and stores nothing', async () => {
    const files = await uploads();
    const guest = server.client();
    const json = await guest.post(`${A}/createAuction`, { json: validAuction() });
    expect(json.status).toBe(401);
    expect(json.body.success).toBe(false);
    const { title, description, category, auctionDate } = validAuction();
    const form = await guest.post(`${A}/createAuction`, {
      form: formOf({ title, description, category, auctionDate, startingPrice: '150' }, png()),
    });
    expect(form.status).toBe(401);
    expect(await uploads()).toEqual(files);
  });

  it('refuses text disguised as a PNG with 415 and an 11 MB file with 413', async () => {
    const before = await mine();
    const files = await uploads();
    const { title, description, category, auctionDate } = validAuction();
    const fields = { title, description, category, auctionDate, startingPrice: '150' };
    const disguised = await seller.client.post(`${A}/createAuction`, {
      form: formOf(fields, new Blob(['just text'], { type: 'image/png' }), 'photo.png'),
    });
    expect(disguised.status).toBe(415);
    expect(disguised.body.message).toBe('Only JPEG, PNG, WebP or GIF images are accepted');
    const huge = await seller.client.post(`${A}/createAuction`, {
      // A PNG by its first bytes (streamed, a non-image is refused at those bytes already).
      form: formOf(
        fields,
        new Blob([new Uint8Array(PNG_1X1), new Uint8Array(11 * 1024 * 1024)]),
        'big.png',
      ),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe('The upload is too large (max 10MB)');
    expect(await mine()).toEqual(before);
    expect(await uploads()).toEqual(files);
  });

  it('removes the stored image when the command is refused', async () => {
    const files = await uploads();
    const { title, description, category } = validAuction();
    const res = await seller.client.post(`${A}/createAuction`, {
      form: formOf(
        { title, description, category, startingPrice: '150', auctionDate: inDays(-1) },
        png(),
      ),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The auction end time must be in the future');
    expect(await uploads()).toEqual(files);
  });
});

describe('GET /getAuctions', () => {
  it("lists the user's own auctions only, and needs a login", async () => {
    const own = await createAuction(stranger.client, { title: 'Stranger thing' });
    const auctions = await mine(stranger.client);
    expect(auctions.map((a: { _id: string }) => a._id)).toEqual([own._id]);
    expect(auctions.every((a: { seller: { _id: string } }) => a.seller._id === stranger.id)).toBe(
      true,
    );
    const guest = await server.client().get(`${A}/getAuctions`);
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ success: false, message: 'Please log in to continue' });
  });
});

describe('GET /fetchAllAuctions', () => {
  it('lists live auctions newest first, filtered by title and exact category name', async () => {
    const token = randomUUID().slice(0, 8);
    const car = await createAuction(seller.client, {
      title: `Zebra roadster ${token}`,
      category: 'vehicles',
    });
    const lamp = await createAuction(stranger.client, {
      title: `zebra lamp ${token}`,
      category: 'electronics',
    });
    const guest = server.client();
    const ids = async (query: string) => {
      const res = await guest.get(`${A}/fetchAllAuctions${query}`);
      expect(res.status).toBe(200);
      return (res.body.auctions as AuctionView[]).map((a) => a._id);
    };
    expect(await ids(`?search=${token}`)).toEqual([lamp._id, car._id]);
    expect(await ids(`?search=ZEBRA%20LAMP%20${token.toUpperCase()}`)).toEqual([lamp._id]);
    expect(await ids(`?search=${token}&category=Vehicles`)).toEqual([car._id]);
    expect(await ids(`?search=${token}&category=vehicles`)).toEqual([]);
    expect(await ids(`?search=${token}&category=`)).toEqual([lamp._id, car._id]);
    const all = await ids('');
    expect(all.indexOf(lamp._id)).toBeLessThan(all.indexOf(car._id));
    const none = await guest.get(`${A}/fetchAllAuctions?search=nothing-like-this-${token}`);
    expect(none.body).toEqual({
      success: true,
      message: 'Auctions Fetched',
      auctions: [],
      nextCursor: null,
    });
  });

  it('refuses filters of the wrong type', async () => {
    const guest = server.client();
    const twice = await guest.get(`${A}/fetchAllAuctions?search=a&search=b`);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('Search must be text');
    const long = await guest.get(`${A}/fetchAllAuctions?search=${'x'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('Search must be at most 200 characters');
  });
});

describe('GET /fetchSpecificAuction', () => {
  it('answers 400 to a missing or ill-shaped id and 404 to an unknown one', async () => {
    const guest = server.client();
    const missing = await guest.get(`${A}/fetchSpecificAuction`);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ success: false, message: 'Auction id is required' });
    for (const [, id] of badIds) {
      const res = await guest.get(
        `${A}/fetchSpecificAuction?auctionId=${encodeURIComponent(id ?? '')}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid auction id');
    }
    const unknown = await guest.get(`${A}/fetchSpecificAuction?auctionId=${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Auction not found' });
  });
});

describe('GET /featured', () => {
  it('shows the three most recently created live auctions', async () => {
    const created = [];
    for (let i = 0; i < 4; i++)
      created.push(await createAuction(seller.client, { title: `F${i}` }));
    const res = await server.client().get(`${A}/featured`);
    expect(res.status).toBe(200);
    expect(res.body.featured.map((a: { _id: string }) => a._id)).toEqual(
      created
        .slice(1)
        .reverse()
        .map((a: { _id: string }) => a._id),
    );
  });
});

describe('DELETE /deleteAuction/:id', () => {
  it('lets only the seller delete: guest 401, another user 403, seller 200', async () => {
    const auction = await createAuction(seller.client, { title: 'To be deleted' });
    const path = `${A}/deleteAuction/${auction._id}`;
    expect((await server.client().delete(path)).status).toBe(401);
    const other = await stranger.client.delete(path);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({
      success: false,
      message: 'Only the seller can change this auction',
    });
    expect((await myAuction(auction._id))?.status).toBe('Live');

    const res = await seller.client.delete(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Auction Deleted Successfully' });
    const guest = server.client();
    const live = (await guest.get(`${A}/fetchAllAuctions`)).body.auctions;
    expect(live.map((a: { _id: string }) => a._id)).not.toContain(auction._id);
    const featured = (await guest.get(`${A}/featured`)).body.featured;
    expect(featured.map((a: { _id: string }) => a._id)).not.toContain(auction._id);
    // It leaves the seller's lists too (a reload does not bring it back as "Cancelled")...
    expect(await myAuction(auction._id)).toBeUndefined();
    const profile = (await seller.client.get('/api/v1/user/profile')).body.data;
    expect(profile.user.products.map((a: { _id: string }) => a._id)).not.toContain(auction._id);
    // ...but stays on the record: its page says it was cancelled, and the audit has it.
    const detail = await guest.get(`${A}/fetchSpecificAuction?auctionId=${auction._id}`);
    expect(detail.body.auctionDetails.status).toBe('Cancelled');
    const audit = await seller.client.get(`/api/v1/audit/auctions/${auction._id}/events`);
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain('AuctionCancelled');
  });

  it('answers 404 to an unknown id and 400 to ill-shaped ones', async () => {
    const before = await mine();
    const unknown = await seller.client.delete(`${A}/deleteAuction/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Auction not found');
    for (const [, id] of badIds) {
      const res = await seller.client.delete(`${A}/deleteAuction/${encodeURIComponent(id ?? '')}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Invalid auction id' });
    }
    expect(await mine()).toEqual(before);
  });

  it('refuses a request from another site', async () => {
    const auction = await createAuction(seller.client);
    const res = await seller.client.delete(`${A}/deleteAuction/${auction._id}`, undefined, {
      origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
    expect((await myAuction(auction._id))?.status).toBe('Live');
  });
});

describe('PATCH /editAuction/:id', () => {
  it('lets only the seller edit: guest 401, another user 403, seller 200', async () => {
    const auction = await createAuction(seller.client);
    const path = `${A}/editAuction/${auction._id}`;
    expect((await server.client().patch(path, { json: validEdit() })).status).toBe(401);
    const other = await stranger.client.patch(path, { json: validEdit({ title: 'Mine now' }) });
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('Only the seller can change this auction');
    const otherEmpty = await stranger.client.patch(path, { json: {} });
    expect(otherEmpty.status).toBe(403);

    const end = inDays(6);
    const res = await seller.client.patch(path, { json: validEdit({ auctionEndTime: end }) });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Auction updated successfully!');
    expect(res.body.auction).toMatchObject({
      _id: auction._id,
      title: 'Vintage brass clock, serviced',
      description: 'Serviced in 2024',
      startingPrice: 175,
      auctionEndTime: end,
      category: { _id: 'antiques' },
    });
    expect(await myAuction(auction._id)).toEqual(res.body.auction);
  });

  it('answers 404 to an unknown id and 400 to ill-shaped ones', async () => {
    const unknown = await seller.client.patch(`${A}/editAuction/${randomUUID()}`, {
      json: validEdit(),
    });
    expect(unknown.status).toBe(404);
    for (const [, id] of badIds) {
      const res = await seller.client.patch(`${A}/editAuction/${encodeURIComponent(id ?? '')}`, {
        json: validEdit(),
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid auction id');
    }
  });

  it.each([
    ['an empty title', { title: ' ' }, 'Title is required'],
    ['no description', { description: ' ' }, 'Description is required'],
    ['an empty starting price', { startingPrice: '' }, 'Starting price is required'],
    ['a word as starting price', { startingPrice: 'abc' }, 'Starting price must be a number'],
    ['too low a starting price', { startingPrice: 50 }, 'Starting price must be at least $100'],
    ['three decimals', { startingPrice: 150.555 }, 'Amounts may have at most two decimals'],
    ['an empty end date', { auctionEndTime: '' }, 'Auction end date is required'],
    [
      'a bad end date',
      { auctionEndTime: 'soon' },
      'Auction end date must be a date (YYYY-MM-DD) or an ISO date-time',
    ],
    [
      'a date that does not exist',
      { auctionEndTime: '2027-02-30' },
      'Auction end date must be a date (YYYY-MM-DD) or an ISO date-time',
    ],
    [
      'a past end date alone',
      { auctionEndTime: inDays(-2).slice(0, 10) },
      'The auction end time must be in the future',
    ],
    [
      'a past end date',
      { auctionEndTime: inDays(-2) },
      'The auction end time must be in the future',
    ],
    [
      'a far end date',
      { auctionEndTime: inDays(100) },
      'The auction end time must be at most 90 days ahead',
    ],
    ['a bad removeImage', { removeImage: 'yes' }, 'removeImage must be true or false'],
  ])('refuses %s with 400 and changes nothing', async (_name, overrides, message) => {
    const auction = await createAuction(seller.client);
    const res = await seller.client.patch(`${A}/editAuction/${auction._id}`, {
      json: validEdit(overrides),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message });
    expect(await myAuction(auction._id)).toEqual(auction);
  });

  it('is a partial update: a body with only a title changes the title, an empty one nothing', async () => {
    const auction = await createAuction(seller.client);
    const path = `${A}/editAuction/${auction._id}`;
    const titled = await seller.client.patch(path, { json: { title: 'Only the title' } });
    expect(titled.status, JSON.stringify(titled.body)).toBe(200);
    const edited = { ...auction, title: 'Only the title', revision: 1 };
    expect(titled.body.auction).toEqual(edited);
    const nothing = await seller.client.patch(path, { json: {} });
    expect(nothing.status).toBe(200);
    expect(await myAuction(auction._id)).toEqual(edited);
    const form = await seller.client.patch(path, { form: formOf({ description: 'By form' }) });
    expect(form.status).toBe(200);
    expect(form.body.auction).toMatchObject({ title: 'Only the title', description: 'By form' });
  });

  it("takes a date alone as the end, at the current end's time of day", async () => {
    const auction = await createAuction(seller.client);
    const current: string = auction.auctionEndTime;
    const date = inDays(9).slice(0, 10);
    const res = await seller.client.patch(`${A}/editAuction/${auction._id}`, {
      json: { auctionEndTime: date },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.auction.auctionEndTime).toBe(`${date}${current.slice(10)}`);

    // The rules still hold: with bids, a date before the current end is refused.
    await placeBidThroughEngine(server, auction._id, bidder.id, 200);
    const earlier = await seller.client.patch(`${A}/editAuction/${auction._id}`, {
      form: formOf({ auctionEndTime: inDays(5).slice(0, 10) }),
    });
    expect(earlier.status).toBe(409);
    expect(earlier.body.message).toBe('The end time cannot move earlier once bids are placed');
  });

  it('replaces the image (removing the old file) and clears it with removeImage', async () => {
    const created = await seller.client.post(`${A}/createAuction`, {
      form: formOf(
        {
          title: 'Camera',
          description: 'Rangefinder',
          category: 'electronics',
          startingPrice: '300',
          auctionDate: inDays(3),
        },
        png(),
      ),
    });
    const auction = created.body.auction;
    const oldUrl: string = auction.image.url;
    const fields = {
      title: 'Camera',
      description: 'Rangefinder',
      startingPrice: '300',
      auctionEndTime: auction.auctionEndTime as string,
    };
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    const replaced = await seller.client.patch(`${A}/editAuction/${auction._id}`, {
      form: formOf(fields, new Blob([new Uint8Array(gif)]), 'new.gif'),
    });
    expect(replaced.status).toBe(200);
    const newUrl: string = replaced.body.auction.image.url;
    expect(newUrl).toMatch(/\.gif$/);
    expect((await fetchImage(newUrl)).bytes.equals(gif)).toBe(true);
    expect((await fetchImage(oldUrl)).status).toBe(404);

    const cleared = await seller.client.patch(`${A}/editAuction/${auction._id}`, {
      form: formOf({ ...fields, removeImage: 'true' }),
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.auction.image).toBeNull();
    expect(cleared.body.auction.images).toBeNull();
    expect((await fetchImage(newUrl)).status).toBe(404);
  });

  it('refuses a disguised image and removes an image uploaded with a refused edit', async () => {
    const auction = await createAuction(seller.client);
    const files = await uploads();
    const fields = {
      title: 'New title',
      description: 'New description',
      startingPrice: '150',
      auctionEndTime: auction.auctionEndTime,
    };
    const disguised = await seller.client.patch(`${A}/editAuction/${auction._id}`, {
      form: formOf(fields, new Blob(['<svg/>']), 'x.png'),
    });
    expect(disguised.status).toBe(415);
    const refused = await seller.client.patch(`${A}/editAuction/${auction._id}`, {
      form: formOf({ ...fields, auctionEndTime: inDays(-1) }, png()),
    });
    expect(refused.status).toBe(400);
    expect(await uploads()).toEqual(files);
    expect(await myAuction(auction._id)).toEqual(auction);
  });

  it('locks the starting price and an earlier end once there are bids', async () => {
    const auction = await createAuction(seller.client, { startingPrice: 150 });
    await placeBidThroughEngine(server, auction._id, bidder.id, 200);
    const path = `${A}/editAuction/${auction._id}`;
    const before = await myAuction(auction._id);
    expect(before?.currentBid).toBe(200);

    const price = await seller.client.patch(path, {
      json: validEdit({ startingPrice: 300, auctionEndTime: auction.auctionEndTime }),
    });
    expect(price.status).toBe(409);
    expect(price.body.message).toBe('The starting price cannot change once bids are placed');
    const earlier = await seller.client.patch(path, {
      json: validEdit({ startingPrice: 150, auctionEndTime: inDays(1) }),
    });
    expect(earlier.status).toBe(409);
    expect(earlier.body.message).toBe('The end time cannot move earlier once bids are placed');
    expect(await myAuction(auction._id)).toEqual(before);

    const later = inDays(10);
    const ok = await seller.client.patch(path, {
      json: validEdit({ startingPrice: 150, auctionEndTime: later }),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.auction).toMatchObject({
      title: 'Vintage brass clock, serviced',
      startingPrice: 150,
      currentBid: 200,
      auctionEndTime: later,
    });
  });
});

describe('a closed auction', () => {
  let shifted: TestServer;
  let shift = 0;

  beforeAll(async () => {
    shifted = await startTestServer(
      {},
      { clock: { ...systemClock, now: () => Date.now() + shift } },
    );
  });
  afterAll(() => shifted.cleanup());

  it('cannot be deleted (409) or edited (409)', async () => {
    const owner = await signUpAndLogIn(shifted);
    const created = await owner.client.post(`${A}/createAuction`, {
      json: validAuction({ auctionDate: inDays(1) }),
    });
    const auction = created.body.auction;
    shift = 2 * DAY_MS;
    const closed = await closeThroughEngine(shifted, auction._id, new Date(Date.now() + shift));
    expect(closed.ok && closed.status).toBe('Expired');

    const del = await owner.client.delete(`${A}/deleteAuction/${auction._id}`);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('A closed auction is part of the record and cannot be deleted');
    const edit = await owner.client.patch(`${A}/editAuction/${auction._id}`, {
      json: validEdit({ auctionEndTime: new Date(Date.now() + shift + DAY_MS).toISOString() }),
    });
    expect(edit.status).toBe(409);
    const after = (await owner.client.get(`${A}/getAuctions`)).body.auctions;
    expect(after[0]).toMatchObject({ _id: auction._id, status: 'Expired', title: auction.title });
  });
});

it('logged no unexpected errors', () => {
  expect(server.logs).toEqual([]);
});
