import type { AuctionView } from '@auction/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestClient,
  PNG_1X1,
  type TestServer,
  startTestServer,
} from '../../testing/test-server';
import { signUpAndLogIn } from '../../testing/fixtures';
import {
  auctionEvents,
  closeProbes,
  connect,
  eventually,
  probe,
  watch,
} from '../../testing/realtime';

/** A client page served elsewhere: the API's `CORS_ORIGINS` names it. */
const CLIENT = 'http://client.example.test:8080';
/** Another site the API does not know. */
const STRANGER = 'https://evil.example.test';

const png = () => new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' });

/** Signs up with a photo and logs in, as a page of `origin` would. */
const signUpWithPhoto = async (client: TestClient, name: string) => {
  const email = `${name.toLowerCase()}-${Date.now()}-${Math.random()}@example.com`;
  const form = new FormData();
  form.set('image', png(), 'me.png');
  for (const [k, v] of Object.entries({
    firstName: name,
    lastName: 'Remote',
    email,
    password: 'Secret123',
    confirmPassword: 'Secret123',
  }))
    form.set(k, v);
  expect((await client.post('/api/v1/auth/signup', { form })).status).toBe(201);
  const login = await client.post('/api/v1/auth/login', {
    json: { email, password: 'Secret123' },
  });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return login;
};

/** Creates an auction with an image as the client's user; returns its detail. */
const auctionWithImage = async (client: TestClient): Promise<AuctionView> => {
  const form = new FormData();
  form.set('image', png(), 'item.png');
  for (const [k, v] of Object.entries({
    title: 'Telescope',
    description: 'Brass, on a tripod',
    category: 'antiques',
    startingPrice: '150',
    auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
  }))
    form.set(k, v);
  const created = await client.post('/api/v1/auction/createAuction', { form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (created.body as { auction: AuctionView }).auction;
};

const sessionCookieOf = (headers: Headers): string | undefined =>
  headers.getSetCookie().find((cookie) => cookie.startsWith('auction.sid='));

describe('clients of other origins (CORS_ORIGINS)', () => {
  let server: TestServer;
  let images: string;

  beforeAll(async () => {
    server = await startTestServer({ CORS_ORIGINS: `${CLIENT}, https://other.example.test` });
    images = `${server.deps.origin}/uploads/`;
  });
  afterAll(() => server.cleanup());
  afterEach(() => closeProbes());

  it('answers the preflight of an allowed origin, and no other', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/api/v1/bid/placeBid`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, idempotency-key',
        },
      });
    const allowed = await preflight(CLIENT);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(CLIENT);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-methods')).toMatch(/\bPOST\b.*\bPATCH\b/);
    expect(allowed.headers.get('access-control-allow-methods')).toMatch(/\bDELETE\b/);
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'idempotency-key',
    );
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'content-type',
    );
    expect(Number(allowed.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(allowed.headers.get('vary')).toMatch(/Origin/);

    for (const origin of [STRANGER, 'null', `${CLIENT}.evil.test`, 'http://client.example.test']) {
      const refused = await preflight(origin);
      expect(refused.status).toBeLessThan(500);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect(refused.headers.get('access-control-allow-credentials')).toBeNull();
      expect(refused.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('lets an allowed origin log in, read its session and bid, with credentials; refuses others', async () => {
    const seller = await signUpAndLogIn(server);
    const auction = await auctionWithImage(seller.client);

    const page = server.client(CLIENT);
    const login = await signUpWithPhoto(page, 'Carla');
    expect(login.headers.get('access-control-allow-origin')).toBe(CLIENT);
    expect(login.headers.get('access-control-allow-credentials')).toBe('true');
    expect(login.headers.get('vary')).toMatch(/Origin/);

    const me = await page.get('/api/v1/auth/me', { origin: CLIENT });
    expect(me.status).toBe(200);
    expect(me.headers.get('access-control-allow-origin')).toBe(CLIENT);
    expect(me.body.user.firstName).toBe('Carla');

    const bid = await page.post(
      '/api/v1/bid/placeBid',
      { json: { productId: auction._id, bidAmount: 160 } },
      { 'idempotency-key': 'carla-1' },
    );
    expect(bid.status, JSON.stringify(bid.body)).toBe(201);
    expect(bid.headers.get('access-control-allow-origin')).toBe(CLIENT);
    expect(bid.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);

    // The CSRF guard: the allow-list passes, any other site is refused, and gets no CORS header.
    const stranger = await page.post(
      '/api/v1/bid/placeBid',
      { json: { productId: auction._id, bidAmount: 170 } },
      { origin: STRANGER },
    );
    expect(stranger.status).toBe(403);
    expect(stranger.body.success).toBe(false);
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    const read = await page.get('/api/v1/auth/me', { origin: STRANGER });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends session cookies SameSite=None, Secure and Partitioned, as another site needs', async () => {
    const login = await signUpWithPhoto(server.client(CLIENT), 'Dora');
    const cookie = sessionCookieOf(login.headers);
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*SameSite=None/i);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*Partitioned/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
  });

  it('writes image URLs absolute under the public origin, and serves the images to other origins', async () => {
    const page = server.client(CLIENT);
    const login = await signUpWithPhoto(page, 'Erin');
    const photo = login.body.user.image.url as string;
    expect(photo.startsWith(images)).toBe(true);
    expect((await page.get('/api/v1/auth/me')).body.user.image.url).toBe(photo);

    const auction = await auctionWithImage(page);
    const image = auction.image?.url ?? '';
    expect(image.startsWith(images)).toBe(true);
    expect(auction.images?.url).toBe(image);
    expect(auction.seller.image?.url).toBe(photo);

    const bidder = server.client(CLIENT);
    const finn = (await signUpWithPhoto(bidder, 'Finn')).body.user.image.url as string;
    expect(finn.startsWith(images)).toBe(true);
    const bid = await bidder.post('/api/v1/bid/placeBid', {
      json: { productId: auction._id, bidAmount: 160 },
    });
    expect(bid.status, JSON.stringify(bid.body)).toBe(201);
    expect(bid.body.newBid.bidder.image.url).toBe(finn);

    const detail = await page.get(`/api/v1/auction/fetchSpecificAuction?auctionId=${auction._id}`);
    const view = detail.body.auctionDetails as AuctionView;
    expect(view.image?.url).toBe(image);
    expect(view.bids[0]?.bidder.image?.url).toBe(finn);
    const list = await page.get('/api/v1/auction/fetchAllAuctions');
    expect(
      (list.body.auctions as AuctionView[]).find((a) => a._id === auction._id)?.image?.url,
    ).toBe(image);
    const mine = await page.get('/api/v1/auction/getAuctions');
    expect((mine.body.auctions as AuctionView[])[0]?.image?.url).toBe(image);
    const featured = await page.get('/api/v1/auction/featured');
    expect(
      (featured.body.featured as AuctionView[]).find((a) => a._id === auction._id)?.image?.url,
    ).toBe(image);
    const history = await bidder.get('/api/v1/user/history');
    expect(history.body.history[0].image).toBe(image);
    const profile = await page.get('/api/v1/user/profile');
    expect(profile.status).toBe(200);
    expect(JSON.stringify(profile.body)).not.toMatch(/"\/uploads\//);
    const audit = await page.get(`/api/v1/audit/auctions/${auction._id}/state`);
    expect(audit.status, JSON.stringify(audit.body)).toBe(200);
    expect(JSON.stringify(audit.body)).toContain(`"url":"${image}"`);
    // The events as stored keep the stored path (their hashes cover it).
    const events = await page.get(`/api/v1/audit/auctions/${auction._id}/events`);
    expect(JSON.stringify(events.body)).toContain(`"${image.slice(server.deps.origin.length)}"`);

    // The image itself: loadable by a page of another origin.
    const served = await fetch(image.replace(server.deps.origin, server.url), {
      headers: { origin: CLIENT },
    });
    expect(served.status).toBe(200);
    expect(served.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(served.headers.get('access-control-allow-origin')).toBe(CLIENT);

    // The socket's events carry the same absolute URLs.
    const edited = new FormData();
    edited.set('image', png(), 'new.png');
    const edit = await page.patch(`/api/v1/auction/editAuction/${auction._id}`, { form: edited });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const socket = await connect(server, { origin: CLIENT });
    await watch(socket, { auctionId: auction._id, afterRevision: 0 });
    await eventually(() => {
      const events = auctionEvents(socket, auction._id).map((e) => e.payload);
      expect(events.find((e) => e.bid)?.bid?.bidder.image?.url).toBe(finn);
      const change = events.find((e) => e.type === 'AuctionEdited')?.changes as
        { image?: { url: string } } | undefined;
      expect(change?.image?.url.startsWith(images)).toBe(true);
    });
  });

  it('lets the socket handshake of an allowed origin through, and no other', async () => {
    await expect(connect(server, { origin: CLIENT })).resolves.toBeDefined();
    const refused = probe(server, { origin: STRANGER });
    await expect(
      new Promise((resolve, reject) => {
        refused.socket.once('connect', () => resolve('connected'));
        refused.socket.once('connect_error', reject);
      }),
    ).rejects.toBeDefined();
    // Long-polling, the transport a browser may start with, is a CORS request.
    const polling = await fetch(`${server.url}/socket.io/?EIO=4&transport=polling`, {
      headers: { origin: CLIENT },
    });
    expect(polling.status).toBe(200);
    expect(polling.headers.get('access-control-allow-origin')).toBe(CLIENT);
    expect(polling.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

describe('a client of the same site (CORS_ORIGINS)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      CORS_ORIGINS: 'https://example.test',
      PUBLIC_ORIGIN: 'https://api.example.test',
      TRUST_PROXY: 'true',
    });
  });
  afterAll(() => server.cleanup());

  it('keeps session cookies SameSite=Lax (and Secure on https)', async () => {
    const client = server.client('https://example.test');
    const form = new FormData();
    const email = `same-${Date.now()}@example.com`;
    for (const [k, v] of Object.entries({
      firstName: 'Sam',
      lastName: 'Site',
      email,
      password: 'Secret123',
      confirmPassword: 'Secret123',
    }))
      form.set(k, v);
    expect((await client.post('/api/v1/auth/signup', { form })).status).toBe(201);
    const login = await client.post(
      '/api/v1/auth/login',
      { json: { email, password: 'Secret123' } },
      { 'x-forwarded-proto': 'https' },
    );
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.headers.get('access-control-allow-origin')).toBe('https://example.test');
    const cookie = sessionCookieOf(login.headers);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).not.toMatch(/Partitioned/i);
  });
});

describe('without CORS_ORIGINS: same origin only, as before', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.cleanup());

  it('sends no CORS header, refuses other origins, keeps Lax cookies and relative image URLs', async () => {
    const preflight = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'OPTIONS',
      headers: { origin: CLIENT, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();

    const page = server.client(CLIENT);
    const form = new FormData();
    form.set('firstName', 'Fay');
    expect((await page.post('/api/v1/auth/signup', { form })).status).toBe(403);

    const login = await signUpWithPhoto(server.client(), 'Gil');
    expect(login.headers.get('access-control-allow-origin')).toBeNull();
    const cookie = sessionCookieOf(login.headers);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(login.body.user.image.url).toMatch(/^\/uploads\//);
    const served = await fetch(`${server.url}${login.body.user.image.url as string}`, {
      headers: { origin: CLIENT },
    });
    expect(served.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(served.headers.get('access-control-allow-origin')).toBeNull();
  });
});
