import { randomUUID } from 'node:crypto';
import { type AuctionView, watchlistStream } from '@auction/contracts';
import { watchListCount } from '@auction/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  sellerAliceBob,
  signUpAndLogIn,
  settled,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

const A = '/api/v1/auction';
const U = '/api/v1/user';

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob] = await sellerAliceBob(server);
});
afterAll(() => server.cleanup());

const watch = (user: TestUser, auctionId: string) => user.client.post(`${A}/watch/${auctionId}`);
const unwatch = (user: TestUser, auctionId: string) =>
  user.client.delete(`${A}/watch/${auctionId}`);

const watchlist = async (user: TestUser, query = '') => {
  const res = await user.client.get(`${U}/watchlist${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { auctions: AuctionView[]; nextCursor: string | null };
};

const profileCount = async (user: TestUser): Promise<number> => {
  const res = await user.client.get(`${U}/profile`);
  expect(res.status).toBe(200);
  return res.body.data.statistics.watchListCount as number;
};

const streamTypes = async (user: TestUser): Promise<string[]> =>
  (await server.deps.events.readStream(watchlistStream(user.id))).map((event) => event.type);

const notifications = async (user: TestUser) => {
  const res = await user.client.get(`${A}/notifications`);
  expect(res.status).toBe(200);
  return res.body.data as { message: string; auctionId: string }[];
};

/** Polls until `check` holds (the projections and the schedulers run on their own). */
const eventually = async <T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('watch and unwatch', () => {
  it('answers 401 to a guest on every route, and 403 to another site', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    const guest = server.client();
    expect((await guest.post(`${A}/watch/${auctionId}`)).status).toBe(401);
    expect((await guest.delete(`${A}/watch/${auctionId}`)).status).toBe(401);
    const list = await guest.get(`${U}/watchlist`);
    expect(list.status).toBe(401);
    expect(list.body).toEqual({ success: false, message: 'Please log in to continue' });
    const foreign = await alice.client.post(`${A}/watch/${auctionId}`, undefined, {
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(await streamTypes(alice)).toEqual([]);
  });

  it('answers 404 for an unknown auction and 400 for a malformed id', async () => {
    const unknown = await watch(alice, randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, message: 'Auction not found' });
    expect((await unwatch(alice, randomUUID())).status).toBe(404);
    expect((await watch(alice, 'not an id!')).status).toBe(400);
    expect(await streamTypes(alice)).toEqual([]);
  });

  it('watches once however often asked, lists it, counts it and stars it', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { title: 'Tin robot' });
    const first = await watch(bob, auctionId);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      message: 'Auction added to your watchlist',
      auctionId,
      watching: true,
    });
    expect((await watch(bob, auctionId)).status).toBe(200);
    expect(await streamTypes(bob)).toEqual(['AuctionWatched']);

    const { auctions, nextCursor } = await watchlist(bob);
    expect(auctions.map((a) => [a._id, a.title, a.watching])).toEqual([
      [auctionId, 'Tin robot', true],
    ]);
    expect(nextCursor).toBeNull();
    expect(await profileCount(bob)).toBe(1);

    const detail = async (user: TestUser) =>
      (await user.client.get(`${A}/fetchSpecificAuction?auctionId=${auctionId}`)).body
        .auctionDetails as AuctionView;
    expect((await detail(bob)).watching).toBe(true);
    expect((await detail(alice)).watching).toBe(false);
    expect((await fetchAuction(server, auctionId)).watching).toBeUndefined();
    const cards = (await bob.client.get(`${A}/fetchAllAuctions?limit=100`)).body
      .auctions as AuctionView[];
    expect(cards.find((a) => a._id === auctionId)?.watching).toBe(true);
    expect(cards.filter((a) => a._id !== auctionId).every((a) => a.watching === false)).toBe(true);

    const off = await unwatch(bob, auctionId);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ auctionId, watching: false });
    expect((await unwatch(bob, auctionId)).status).toBe(200);
    expect(await streamTypes(bob)).toEqual(['AuctionWatched', 'AuctionUnwatched']);
    expect((await watchlist(bob)).auctions).toEqual([]);
    expect(await profileCount(bob)).toBe(0);
    expect((await detail(bob)).watching).toBe(false);
  });

  it('lets a seller watch their own auction', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    expect((await watch(seller, auctionId)).status).toBe(200);
    expect((await watchlist(seller)).auctions.map((a) => a._id)).toContain(auctionId);
  });

  it('pages the watchlist, most recently watched first, by nextCursor', async () => {
    const carol = await signUpAndLogIn(server);
    const ids: string[] = [];
    for (const title of ['First', 'Second', 'Third']) {
      const id = await createAuctionOverHttp(seller.client, { title });
      ids.push(id);
      expect((await watch(carol, id)).status).toBe(200);
    }
    const first = await watchlist(carol, '?limit=2');
    expect(first.auctions.map((a) => a.title)).toEqual(['Third', 'Second']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await watchlist(carol, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.auctions.map((a) => a.title)).toEqual(['First']);
    expect(second.nextCursor).toBeNull();
    const bad = await carol.client.get(`${U}/watchlist?cursor=made-up`);
    expect(bad.status).toBe(400);
    const foreign = await carol.client.get(
      `${U}/watchlist?cursor=${(await seller.client.get(`${A}/getAuctions?limit=1`)).body.nextCursor}`,
    );
    expect(foreign.status).toBe(400);
    expect(await profileCount(carol)).toBe(3);
  });
});

describe('rate limit', () => {
  it('answers 429 past RATE_LIMIT_WATCHES per user per minute, writing nothing, each user apart', async () => {
    const limited = await startTestServer({ RATE_LIMIT_WATCHES: '3' });
    try {
      const [owner, first, second] = await Promise.all([
        signUpAndLogIn(limited),
        signUpAndLogIn(limited),
        signUpAndLogIn(limited),
      ]);
      const auctionId = await createAuctionOverHttp(owner.client);
      const toggle = (user: TestUser, on: boolean) =>
        on
          ? user.client.post(`${A}/watch/${auctionId}`)
          : user.client.delete(`${A}/watch/${auctionId}`);
      for (const on of [true, false, true]) expect((await toggle(first, on)).status).toBe(200);
      for (const on of [false, true]) {
        const refused = await toggle(first, on);
        expect(refused.status).toBe(429);
        expect(refused.body).toEqual({
          success: false,
          message: 'Too many watchlist changes, please slow down',
        });
      }
      const written = await limited.deps.events.readStream(watchlistStream(first.id));
      expect(written.map((event) => event.type)).toEqual([
        'AuctionWatched',
        'AuctionUnwatched',
        'AuctionWatched',
      ]);
      expect((await toggle(second, true)).status).toBe(200);
      // Reading the list is not a change: it stays open.
      expect((await first.client.get(`${U}/watchlist`)).status).toBe(200);
    } finally {
      await limited.cleanup();
    }
  });
});

describe('a cancelled auction', () => {
  it('leaves the watchlist, tells its watchers, and cannot be watched (409)', async () => {
    const dave = await signUpAndLogIn(server);
    const auctionId = await createAuctionOverHttp(seller.client, { title: 'Music box' });
    expect((await watch(dave, auctionId)).status).toBe(200);
    expect(await profileCount(dave)).toBe(1);
    expect((await seller.client.delete(`${A}/deleteAuction/${auctionId}`)).status).toBe(200);

    // Another user's write: Dave's lists follow once the watchlist read model has applied it
    // (read-your-writes holds for the writer; on MongoDB the read model may be a moment behind).
    await eventually(
      () => watchlist(dave),
      (page) => page.auctions.length === 0,
    );
    expect(await profileCount(dave)).toBe(0);
    const told = await eventually(
      () => notifications(dave),
      (list) => list.length > 0,
    );
    expect(told).toEqual([
      expect.objectContaining({
        auctionId,
        message: '"Music box", on your watchlist, was cancelled.',
      }),
    ]);
    const again = await watch(alice, auctionId);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      message: 'A cancelled auction cannot be watched',
    });
    // Unwatching it is harmless.
    expect((await unwatch(dave, auctionId)).status).toBe(200);
  });
});

describe('notifications to watchers', () => {
  it('tells watchers once when a late bid first extends the auction, not the bidder', async () => {
    const [erin, frank] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);
    // Ends in a minute: inside the 2-minute soft-close window from the start.
    const auctionId = await createAuctionOverHttp(seller.client, {
      title: 'Snow globe',
      endsInMs: 60_000,
      softClose: true,
    });
    expect((await watch(erin, auctionId)).status).toBe(200);
    expect((await watch(frank, auctionId)).status).toBe(200);
    await placeBid(frank, auctionId, 100);
    await placeBid(alice, auctionId, 200);
    await placeBid(frank, auctionId, 300);
    await server.deps.runner.waitFor((await server.deps.events.headPosition()) ?? 0);
    const extended = (list: { message: string }[]) =>
      list.filter((n) => n.message.startsWith('A late bid extended'));
    expect(extended(await notifications(erin))).toEqual([
      expect.objectContaining({
        auctionId,
        message:
          'A late bid extended "Snow globe", on your watchlist: bidding goes on a little longer.',
      }),
    ]);
    // Frank made the extension: he is not told of it.
    expect(extended(await notifications(frank))).toEqual([]);
  });

  it('tells watchers when the auction ends; the winner hears only that they won', async () => {
    const [gina, hank] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);
    const auctionId = await createAuctionOverHttp(seller.client, {
      title: 'Brass compass',
      endsInMs: 4000,
      softClose: false,
    });
    expect((await watch(gina, auctionId)).status).toBe(200);
    expect((await watch(hank, auctionId)).status).toBe(200);
    await placeBid(hank, auctionId, 150);
    const told = await eventually(
      () => notifications(gina),
      (list) => list.some((n) => n.message.includes('has ended')),
    );
    expect(told.filter((n) => n.auctionId === auctionId).map((n) => n.message)).toEqual([
      '"Brass compass", on your watchlist, has ended: sold for $150.00.',
    ]);
    const winner = await eventually(
      () => notifications(hank),
      (list) => list.some((n) => n.message.startsWith('You won')),
    );
    expect(winner.map((n) => n.message)).toEqual(['You won "Brass compass" for $150.00!']);
    // The audit's replay tells the same watchers as the read model did.
    await server.deps.runner.waitFor((await server.deps.events.headPosition()) ?? 0);
    const verified = await seller.client.get(`/api/v1/audit/auctions/${auctionId}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body.verification ?? verified.body).toMatchObject({ ok: true, problems: [] });
    // A sold auction stays on the watchlist until unwatched.
    expect((await watchlist(gina)).auctions.map((a) => [a._id, a.status])).toEqual([
      [auctionId, 'Sold'],
    ]);
  }, 30_000);

  it('tells watchers when the auction is about to end, once', async () => {
    const ivy = await signUpAndLogIn(server);
    // Its "about to end" moment (15 minutes before the end) is 3 s away.
    const auctionId = await createAuctionOverHttp(seller.client, {
      title: 'Cuckoo clock',
      endsInMs: 15 * 60_000 + 3000,
    });
    expect((await watch(ivy, auctionId)).status).toBe(200);
    const told = await eventually(
      () => notifications(ivy),
      (list) => list.length > 0,
    );
    expect(told).toEqual([
      expect.objectContaining({
        auctionId,
        message: '"Cuckoo clock", on your watchlist, ends in 15 minutes.',
      }),
    ]);
    const stream = await server.deps.events.readStream(`auction-${auctionId}`);
    expect(stream.filter((e) => e.type === 'AuctionEndingSoon')).toHaveLength(1);
  }, 30_000);
});

describe('account deletion', () => {
  it("erases the user's watchlist", async () => {
    const jack = await signUpAndLogIn(server);
    const auctionId = await createAuctionOverHttp(seller.client);
    expect((await watch(jack, auctionId)).status).toBe(200);
    await settled(server);
    expect(await watchListCount(server.deps.read, jack.id)).toBe(1);
    expect((await jack.client.delete(`${U}/delete-account`)).status).toBe(200);
    await server.deps.runner.waitFor((await server.deps.events.headPosition()) ?? 0);
    expect(await watchListCount(server.deps.read, jack.id)).toBe(0);
    // Nor is the erased user told of the auction any more.
    expect((await seller.client.delete(`${A}/deleteAuction/${auctionId}`)).status).toBe(200);
    await server.deps.runner.waitFor((await server.deps.events.headPosition()) ?? 0);
    const items = await server.deps.read.find('notifications_items', {
      where: { userId: jack.id },
    });
    expect(items).toEqual([]);
  });
});
