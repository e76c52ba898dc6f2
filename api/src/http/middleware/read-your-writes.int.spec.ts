import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  requestBid,
  sellerAliceBob,
  settled,
} from '../../testing/fixtures';
import { Gate, heldCommits } from '../../testing/held-commits';
import { type TestServer, startTestServer } from '../../testing/test-server';
import { BEHIND_HEADER, TOKEN_COOKIE, TOKEN_HEADER } from './read-your-writes';

/**
 * Read-your-writes by consistency token, on a real server whose catalog the test holds behind the
 * log: the writer's next read waits for its own write and no one else's does; a wait that runs out
 * answers marked; sign-up and login never wait; health reports the lag.
 */
let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
/** While closed, the catalog commits nothing: its read model stays behind the log. */
const catalog = new Gate();
const hold = () => catalog.close();
const release = () => catalog.open();

const READ_WAIT_MS = 600;

beforeAll(async () => {
  server = await startTestServer(
    { READ_WAIT_MS: String(READ_WAIT_MS) },
    {
      projectionStore: heldCommits((projection) =>
        projection === 'catalog' ? catalog.promise : undefined,
      ),
    },
  );
  [seller, alice, bob] = await sellerAliceBob(server);
  // Real browsers: each sends only the token it was handed (the harness shares them otherwise).
  for (const user of [seller, alice, bob]) user.client.stranger();
});
afterAll(async () => {
  release();
  await server.cleanup();
});
beforeEach(release);

const detailPath = (id: string) => `/api/v1/auction/fetchSpecificAuction?auctionId=${id}`;

/** Resolves to how long `promise` took, in ms, with its value. */
const timed = async <T>(promise: Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const value = await promise;
  return [value, performance.now() - started];
};

describe('a consistency token', () => {
  it('is handed back on a write, as a header and a cookie, and never goes down', async () => {
    const id = await createAuctionOverHttp(seller.client);
    const first = await requestBid(alice, id, 100);
    expect(first.status).toBe(201);
    const token = Number(first.headers.get(TOKEN_HEADER));
    expect(token).toBeGreaterThan(0);
    expect(
      first.headers.getSetCookie().some((c) => c.startsWith(`${TOKEN_COOKIE}=${token};`)),
    ).toBe(true);
    // A write whose position is lower than the token the client sends keeps the higher one.
    const second = await requestBid(alice, id, 101);
    expect(Number(second.headers.get(TOKEN_HEADER))).toBeGreaterThan(token);
    const lower = await alice.client.post(
      '/api/v1/bid/placeBid',
      { json: { productId: id, bidAmount: 102 } },
      { [TOKEN_HEADER]: '999999999999999' },
    );
    expect(lower.status).toBe(201);
    expect(lower.headers.get(TOKEN_HEADER)).toBe('999999999999999');
  });

  it("makes the writer's next read wait for its write, and no one else's", async () => {
    const id = await createAuctionOverHttp(seller.client);
    await settled(server);
    hold();
    const placed = await requestBid(alice, id, 150);
    expect(placed.status).toBe(201);

    // Bob and a guest read at once what the catalog holds: the auction without the bid.
    const [guest, guestMs] = await timed(server.client().stranger().get(detailPath(id)));
    expect(guest.status).toBe(200);
    expect(guest.body.auctionDetails.currentBid).toBe(0);
    expect(guest.headers.get(BEHIND_HEADER)).toBeNull();
    expect(guestMs).toBeLessThan(READ_WAIT_MS);
    const [other] = await timed(bob.client.get(detailPath(id)));
    expect(other.body.auctionDetails.currentBid).toBe(0);
    expect(other.headers.get(BEHIND_HEADER)).toBeNull();

    // Alice waits; once the catalog applies her bid she is answered with it.
    const read = alice.client.get(detailPath(id));
    setTimeout(release, 150);
    const [mine, mineMs] = await timed(read);
    expect(mineMs).toBeGreaterThanOrEqual(100);
    expect(mine.body.auctionDetails.currentBid).toBe(150);
    expect(mine.headers.get(BEHIND_HEADER)).toBeNull();
  });

  it('answers from what the read model holds, marked, when the wait runs out', async () => {
    const id = await createAuctionOverHttp(seller.client);
    await settled(server);
    hold();
    expect((await requestBid(alice, id, 120)).status).toBe(201);
    const [stale, ms] = await timed(alice.client.get(detailPath(id)));
    expect(stale.status).toBe(200);
    expect(stale.headers.get(BEHIND_HEADER)).toBe('catalog, watchlist');
    expect(stale.body.auctionDetails.currentBid).toBe(0);
    expect(ms).toBeGreaterThanOrEqual(READ_WAIT_MS - 50);
    expect(server.logs.map(([message]) => String(message))).not.toContain(
      'The catalog is behind a committed write',
    );

    // Health tells the lag, and how reads fared.
    const health = await server.client().stranger().get('/api/v1/health');
    expect(health.status).toBe(200);
    const catalog = (health.body.readModels.projections as { name: string; behind: number }[]).find(
      (p) => p.name === 'catalog',
    );
    expect(catalog?.behind).toBeGreaterThan(0);
    expect(health.body.reads.answeredBehind).toBeGreaterThanOrEqual(1);

    release();
    // Once it has caught up the same read is answered with the bid, unmarked.
    await expect
      .poll(async () => {
        const res = await alice.client.get(detailPath(id));
        const currentBid: unknown = res.body.auctionDetails.currentBid;
        return [currentBid, res.headers.get(BEHIND_HEADER)];
      })
      .toEqual([120, null]);
  });

  it('answers a created category whole while the catalog is behind it', async () => {
    await settled(server);
    hold();
    const res = await seller.client.post('/api/v1/auction/createCategory', {
      json: { name: '  Tin   Toys ', description: ' Wind-up ' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get(BEHIND_HEADER)).toBe('catalog');
    expect(res.body.category).toEqual({
      _id: expect.any(String),
      name: 'Tin Toys',
      description: 'Wind-up',
    });
  });

  it('never holds sign-up or login behind a lagging catalog', async () => {
    const id = await createAuctionOverHttp(seller.client);
    await settled(server);
    hold();
    expect((await requestBid(alice, id, 130)).status).toBe(201);
    // Alice's own client carries the token: her session's routes answer at once.
    const [me, meMs] = await timed(alice.client.get('/api/v1/auth/me'));
    expect(me.status).toBe(200);
    expect(meMs).toBeLessThan(READ_WAIT_MS);
    const signup = new FormData();
    for (const [k, v] of Object.entries({
      firstName: 'Nora',
      lastName: 'New',
      email: `nora-${Date.now()}@example.com`,
      password: 'Secret123',
      confirmPassword: 'Secret123',
    }))
      signup.set(k, v);
    const [created, signupMs] = await timed(
      alice.client.post('/api/v1/auth/signup', { form: signup }),
    );
    expect(created.status).toBe(201);
    expect(signupMs).toBeLessThan(READ_WAIT_MS);
    const [login, loginMs] = await timed(
      alice.client.post('/api/v1/auth/login', {
        json: { email: signup.get('email'), password: 'Secret123' },
      }),
    );
    expect(login.status).toBe(200);
    expect(loginMs).toBeLessThan(READ_WAIT_MS);
  });

  it('takes a token beyond the log as the head, and refuses one that is not a position', async () => {
    const id = await createAuctionOverHttp(seller.client);
    const [far, ms] = await timed(
      server
        .client()
        .stranger()
        .get(detailPath(id), { [TOKEN_HEADER]: '999999999999' }),
    );
    expect(far.status).toBe(200);
    expect(far.headers.get(BEHIND_HEADER)).toBeNull();
    expect(ms).toBeLessThan(READ_WAIT_MS);

    const bad = await server
      .client()
      .stranger()
      .get(detailPath(id), { [TOKEN_HEADER]: 'soon' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      success: false,
      message: 'The Consistency-Token header must be a log position from an earlier answer',
    });
  });
});
