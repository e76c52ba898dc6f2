import type { EventStore, RecordedEvent } from '@auction/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBid,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestResponse, type TestServer, startTestServer } from '../../../testing/test-server';

let server: TestServer;

beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.cleanup());

/** What a user has on the record at `upTo`: the live auctions they sell, their standing bids there. */
const holdingsOf = async (on: TestServer, userId: string, upTo: number) => {
  const events = (await on.deps.events.readAll()).filter((e) => e.position <= upTo);
  const sellers = new Map<string, string>();
  const live = new Set<string>();
  const bids = new Map<string, { auctionId: string; bidderId: string }>();
  for (const event of events as (RecordedEvent & { data: Record<string, string> })[]) {
    const { auctionId, bidId } = event.data;
    if (auctionId === undefined) continue;
    if (event.type === 'AuctionCreated') {
      sellers.set(auctionId, event.data.sellerId ?? '');
      live.add(auctionId);
    } else if (event.type === 'AuctionCancelled' || event.type === 'AuctionClosed') {
      live.delete(auctionId);
    } else if (event.type === 'BidPlaced' && bidId !== undefined) {
      bids.set(bidId, { auctionId, bidderId: event.data.bidderId ?? '' });
    } else if (event.type === 'BidRetracted' && bidId !== undefined) {
      bids.delete(bidId);
    }
  }
  return {
    liveAuctions: [...live].filter((id) => sellers.get(id) === userId),
    standingBids: [...bids.values()].filter((b) => b.bidderId === userId && live.has(b.auctionId)),
  };
};

const TRIALS = 5;

describe('account deletion racing the same user’s requests in flight', () => {
  let seller: TestUser;
  let rival: TestUser;
  let auctions: string[];

  beforeAll(async () => {
    [seller, rival] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);
    auctions = await Promise.all([1, 2, 3, 4].map(() => createAuctionOverHttp(seller.client)));
  });

  afterEach(() => vi.restoreAllMocks());

  for (let trial = 1; trial <= TRIALS; trial++) {
    it(`leaves no bid standing and no auction live once the deletion is answered (trial ${trial})`, async () => {
      const leaver = await signUpAndLogIn(server);
      await rival.client.post('/api/v1/bid/placeBid', {
        json: { productId: auctions[0], bidAmount: 100 + trial },
      });
      // A busy disk: every append takes 50 ms more, so commands are still in flight while the
      // deletion runs (the same store; only slower).
      const store = server.deps.events as EventStore;
      const append = store.append.bind(store);
      vi.spyOn(store, 'append').mockImplementation(async (...args) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return append(...args);
      });
      // Twenty bids and three new auctions, then the deletion, a little later each trial.
      const requests: Promise<TestResponse>[] = [];
      for (let i = 0; i < 20; i++) {
        requests.push(
          leaver.client.post('/api/v1/bid/placeBid', {
            json: { productId: auctions[i % 4], bidAmount: 10_000 * trial + 100 * i + 500 },
          }),
        );
        if (i % 7 === 3)
          requests.push(
            leaver.client.post('/api/v1/auction/createAuction', {
              json: {
                title: `Late listing ${i}`,
                description: 'Listed while leaving',
                category: 'antiques',
                startingPrice: 100,
                auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
              },
            }),
          );
      }
      await new Promise((resolve) => setTimeout(resolve, (trial - 1) * 10));
      const deleted = await leaver.client.delete('/api/v1/user/delete-account');
      const answeredAt = (await server.deps.events.headPosition()) ?? 0;
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

      const atAnswer = await holdingsOf(server, leaver.id, answeredAt);
      expect(atAnswer).toEqual({ liveAuctions: [], standingBids: [] });

      // Whatever was still in flight was refused, or settled before the answer.
      const answers = await Promise.all(requests);
      // Each is placed, refused for the deletion (401 once the sessions end, 403 once the account
      // is closed), or outbid by one of its own siblings that arrived first (409).
      for (const answer of answers) {
        expect([201, 401, 403, 409], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 409)
          expect((answer.body as { message: string }).message).toMatch(
            /^Your bid must be at least/,
          );
      }
      const head = (await server.deps.events.headPosition()) ?? 0;
      expect(await holdingsOf(server, leaver.id, head)).toEqual({
        liveAuctions: [],
        standingBids: [],
      });
      for (const answer of answers.filter((a) => a.status === 403))
        expect(answer.body).toEqual({
          success: false,
          message: 'This account is being deleted; it can no longer bid or sell',
        });
    });
  }
});

describe('a deletion cut short after the account was closed', () => {
  it('refuses the user’s new bids, and is finished by the next start', async () => {
    const first = await startTestServer();
    let second: TestServer | undefined;
    try {
      const [owner, leaver] = await Promise.all([signUpAndLogIn(first), signUpAndLogIn(first)]);
      const theirs = await createAuctionOverHttp(owner.client);
      await createAuctionOverHttp(leaver.client);
      await placeBid(leaver, theirs, 150);

      // The read models fail to answer once the account is closed: the deletion stops there.
      vi.spyOn(first.deps.read, 'find').mockRejectedValue(new Error('read store down'));
      const cut = await leaver.client.delete('/api/v1/user/delete-account');
      vi.restoreAllMocks();
      expect(cut.status).toBe(500);
      const stream = await first.deps.events.readStream(`user-${leaver.id}`);
      expect(stream.map((event) => event.type)).toEqual([
        'AccountRegistered',
        'AccountDeletionRequested',
      ]);

      // Logged in again, the user can no longer bid or sell.
      const again = await leaver.client.post('/api/v1/auth/login', {
        json: { email: leaver.email, password: leaver.password },
      });
      expect(again.status).toBe(200);
      const refused = await leaver.client.post('/api/v1/bid/placeBid', {
        json: { productId: theirs, bidAmount: 300 },
      });
      expect(refused).toMatchObject({
        status: 403,
        body: {
          success: false,
          message: 'This account is being deleted; it can no longer bid or sell',
        },
      });

      await first.close();
      second = await startTestServer({ ...first.storeEnv, DATA_DIR: first.dataDir });
      const restarted = second;
      const deadline = Date.now() + 10_000;
      while ((await restarted.deps.accounts.byId(leaver.id)) !== undefined) {
        if (Date.now() > deadline) throw new Error('the deletion was not finished within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const head = (await restarted.deps.events.headPosition()) ?? 0;
      expect(await holdingsOf(restarted, leaver.id, head)).toEqual({
        liveAuctions: [],
        standingBids: [],
      });
      expect(await holdingsOf(restarted, owner.id, head)).toEqual({
        liveAuctions: [theirs],
        standingBids: [],
      });
      const events = await restarted.deps.events.readStream(`user-${leaver.id}`);
      expect(events.map((event) => event.type)).toEqual([
        'AccountRegistered',
        'AccountDeletionRequested',
        'AccountDeleted',
      ]);
      expect(events[2]?.data).toMatchObject({ cancelledAuctions: 1, retractedBids: 1 });
    } finally {
      await (second ?? first).cleanup();
    }
  }, 30_000);
});
