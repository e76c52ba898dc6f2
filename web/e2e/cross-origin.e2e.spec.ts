import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { apiAs, registerThroughApi } from './support/api';
import { type Person, launchBrowser, newPerson, screenshot } from './support/browser';
import { accountFor, sampleItemPhoto, samplePhoto } from './support/people';
import { type ProductServer, startProductServer } from './support/server';

/**
 * A client of the API served from another origin: a static page on its own port of 127.0.0.1,
 * talking to the API at its public origin, http://localhost:PORT (another site to a browser: an
 * IP address and `localhost` are each their own site), with `fetch(..., {credentials: 'include'})`.
 */
const CLIENT_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Remote client</title></head>
<body><h1>Remote client</h1>
<script src="/socket.io.min.js"></script>
<script>
  window.heard = [];
  window.listen = (api, auctionId) =>
    new Promise((resolve, reject) => {
      const socket = io(api, { withCredentials: true, reconnection: false });
      socket.onAny((event, payload) => window.heard.push({ event, payload }));
      socket.on('connect_error', (error) => reject(String(error)));
      socket.on('connect', () =>
        socket.emit('auction:watch', { auctionId, afterRevision: 0 }, (ack) => resolve(ack)),
      );
    });
  window.call = async (api, method, path, body, headers = {}) => {
    const init = { method, credentials: 'include', headers: { ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(api + '/api/v1' + path, init);
    return { status: res.status, body: await res.json() };
  };
  window.loadImage = (src) =>
    new Promise((resolve) => {
      const img = new Image();
      img.onload = () => resolve({ loaded: true, width: img.naturalWidth });
      img.onerror = () => resolve({ loaded: false, width: 0 });
      img.src = src;
      document.body.append(img);
    });
</script></body></html>`;

/** The Socket.IO client, as a page of another origin would bundle it. */
const SOCKET_IO_CLIENT = readFileSync(
  new URL('../../node_modules/socket.io-client/dist/socket.io.min.js', import.meta.url),
);

/** A static server for the client page on an ephemeral port of 127.0.0.1. */
const serveClientPage = async (): Promise<{ server: Server; origin: string }> => {
  const server = createServer((req, res) => {
    if (req.url === '/socket.io.min.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      res.end(SOCKET_IO_CLIENT);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(CLIENT_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

interface Answer {
  status: number;
  body: Record<string, unknown> & {
    user?: { _id: string; firstName: string; image: { url: string } | null };
    auctionDetails?: { image: { url: string } | null; currentBid: number };
  };
}

describe('a client served from another origin (CORS_ORIGINS)', () => {
  let product: ProductServer;
  let client: { server: Server; origin: string };
  let stranger: { server: Server; origin: string };
  let browser: Browser;
  let person: Person;
  /** Another bidder, on the product's own origin. */
  let rival: Person;
  /** The API as the client reaches it: its public origin, another site than the page's. */
  let api = '';
  let auctionId = '';

  beforeAll(async () => {
    [client, stranger] = await Promise.all([serveClientPage(), serveClientPage()]);
    product = await startProductServer({ CORS_ORIGINS: client.origin });
    api = product.url.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser();
    // A seller, on the product's own origin, lists an auction with a photo.
    const seller = await newPerson(browser, product.url);
    await registerThroughApi(seller.page, product.url, accountFor('Sam', 'Seller'));
    const created = await seller.page.request.post('/api/v1/auction/createAuction', {
      headers: { Origin: product.url },
      multipart: {
        image: { name: 'globe.png', mimeType: 'image/png', buffer: sampleItemPhoto() },
        title: 'Brass globe',
        description: 'A desk globe on a brass stand',
        category: 'antiques',
        startingPrice: '100',
        auctionDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      },
    });
    const body = (await created.json()) as { auction?: { _id: string } };
    if (!created.ok() || !body.auction) throw new Error(`createAuction: ${JSON.stringify(body)}`);
    auctionId = body.auction._id;
    await seller.context.close();
    rival = await newPerson(browser, product.url);
    await registerThroughApi(rival.page, product.url, accountFor('Otto', 'Other'));
    person = await newPerson(browser, client.origin);
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    for (const s of [client, stranger]) s?.server.close();
  });

  afterEach(async ({ task }) => {
    await screenshot(person.page, task.name);
  });

  test('signs up, logs in, keeps the session, bids and shows images, all from its own origin', async () => {
    const { page } = person;
    await page.goto(client.origin);
    const account = accountFor('Rita', 'Remote');
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      page.evaluate(
        ([a, m, p, b, h]) =>
          (
            window as unknown as {
              call: (...args: unknown[]) => Promise<Answer>;
            }
          ).call(a, m, p, b, h),
        [api, method, path, body, headers] as const,
      );

    // Sign-up with a photo, as a form from this page.
    const photo = samplePhoto().toString('base64');
    const signup = await page.evaluate(
      async ([a, fields, png]) => {
        const form = new FormData();
        const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
        form.set('image', new Blob([bytes], { type: 'image/png' }), 'me.png');
        for (const [k, v] of Object.entries(fields)) form.set(k, v);
        return (window as unknown as { call: (...args: unknown[]) => Promise<Answer> }).call(
          a,
          'POST',
          '/auth/signup',
          form,
        );
      },
      [api, { ...account, confirmPassword: account.password, role: 'User' }, photo] as const,
    );
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);

    const login = await call('POST', '/auth/login', {
      email: account.email,
      password: account.password,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const cookies = await person.context.cookies(api);
    const session = cookies.find((cookie) => cookie.name === 'auction.sid');
    expect(session, JSON.stringify(cookies)).toBeDefined();
    expect(session?.sameSite).toBe('None');
    expect(session?.secure).toBe(true);

    // The browser sends the cookie back: the session holds.
    const me = await call('GET', '/auth/me');
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.user?.firstName).toBe('Rita');
    const myPhoto = me.body.user?.image?.url ?? '';
    expect(myPhoto.startsWith(`${api}/uploads/`)).toBe(true);

    // A bid, preflighted (JSON and an Idempotency-Key).
    const bid = await call(
      'POST',
      '/bid/placeBid',
      { productId: auctionId, bidAmount: 150 },
      { 'Idempotency-Key': 'rita-first-bid' },
    );
    expect(bid.status, JSON.stringify(bid.body)).toBe(201);
    const detail = await call('GET', `/auction/fetchSpecificAuction?auctionId=${auctionId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.auctionDetails?.currentBid).toBe(150);

    // Images by their absolute URLs, from this page.
    const image = detail.body.auctionDetails?.image?.url ?? '';
    expect(image.startsWith(`${api}/uploads/`)).toBe(true);
    const loadImage = (src: string) =>
      page.evaluate(
        (s) =>
          (
            window as unknown as {
              loadImage: (src: string) => Promise<{ loaded: boolean; width: number }>;
            }
          ).loadImage(s),
        src,
      );
    expect(await loadImage(image)).toEqual({ loaded: true, width: 240 });
    expect(await loadImage(myPhoto)).toEqual({ loaded: true, width: 96 });

    // Live: the socket (long-polling first, a CORS request, then WebSocket) carries the session.
    const ack = await page.evaluate(
      ([a, id]) =>
        (window as unknown as { listen: (api: string, id: string) => Promise<unknown> }).listen(
          a,
          id,
        ),
      [api, auctionId] as const,
    );
    expect(ack).toMatchObject({ ok: true });
    await apiAs(rival.page, product.url, 'POST', '/bid/placeBid', {
      productId: auctionId,
      bidAmount: 200,
    });
    const heard = () =>
      page.evaluate(
        () =>
          (window as unknown as { heard: { event: string; payload: Record<string, unknown> }[] })
            .heard,
      );
    await expect
      .poll(async () => (await heard()).map((h) => h.event), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['newBid', 'bidNotification']));
    const events = await heard();
    // The replay of Rita's own bid names her with her photo's absolute URL.
    const own = events.find(
      (h) => h.event === 'newBid' && (h.payload.bid as { amount: number }).amount === 150,
    );
    expect(
      (own?.payload.bid as { bidder: { image: { url: string } | null } }).bidder.image?.url,
    ).toBe(myPhoto);
    // The notification went to her user's room: the handshake knew who she is.
    const outbid = events.find((h) => h.event === 'bidNotification');
    expect(String(outbid?.payload.message)).toMatch(/outbid/i);
  });

  test('a page of an origin the API does not list can read nothing', async () => {
    const { page } = person;
    await page.goto(stranger.origin);
    const outcome = await page.evaluate(async (a) => {
      try {
        const res = await fetch(`${a}/api/v1/auth/me`, { credentials: 'include' });
        return `read ${res.status}`;
      } catch {
        return 'blocked';
      }
    }, api);
    expect(outcome).toBe('blocked');
  });
});
