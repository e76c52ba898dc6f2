import { randomUUID } from 'node:crypto';
import {
  API_BASE,
  AuctionStateEvent,
  type AuctionView,
  BIDS_PAGE_SIZE,
  type BidView,
  minimumRaise,
} from '@auction/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  signUpAndLogIn,
} from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';
import { type Probe, closeProbes, connect, range, watch } from '../testing/realtime';

/**
 * Issue 27 §5: a watch from further behind than the replay buffer (256 events) answers
 * `auction:state`, whose size must not grow with the auction's bids. It carries the first page of
 * bids, their count and the cursor the rest pages from over HTTP.
 */

let server: TestServer;
let seller: TestUser;
let bidders: TestUser[];

beforeAll(async () => {
  server = await startTestServer();
  seller = await signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' });
  bidders = await Promise.all(
    range(1, 5).map((n) => signUpAndLogIn(server, { firstName: `Bidder${n}`, lastName: 'Long' })),
  );
}, 120_000);
afterEach(() => closeProbes());
afterAll(() => server.cleanup(), 60_000);

const metadata = (actorId: string) => ({
  commandId: randomUUID(),
  actorId,
  correlationId: randomUUID(),
  at: new Date().toISOString(),
});

/**
 * An auction with `count` standing bids from five bidders in turn, the last one then raised by a
 * cent `raises` times (through the engine: quick).
 */
const auctionWithBids = async (count: number, raises = 0): Promise<string> => {
  const auctionId = await createAuctionOverHttp(seller.client, { softClose: false });
  let amount = 10_000;
  let last = { bidId: '', bidder: '', amount: 0 };
  for (let sent = 0; sent < count; sent += 50) {
    const outcomes = await Promise.all(
      range(sent, Math.min(count, sent + 50) - 1).map((i) => {
        last = {
          bidId: randomUUID(),
          bidder: (bidders[i % bidders.length] as TestUser).id,
          amount,
        };
        amount = minimumRaise(amount, 'one-dollar');
        return server.deps.engine.send({
          type: 'PlaceBid',
          data: { auctionId, bidId: last.bidId, amount: last.amount },
          metadata: metadata(last.bidder),
        });
      }),
    );
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
  }
  const { bidId, bidder } = last;
  const raised = await Promise.all(
    range(1, raises).map((i) =>
      server.deps.engine.send({
        type: 'EditBid',
        data: { auctionId, bidId, amount: last.amount + i },
        metadata: metadata(bidder),
      }),
    ),
  );
  expect(raised.filter((outcome) => !outcome.ok)).toEqual([]);
  const head = (await server.deps.events.headPosition()) ?? 0;
  await server.deps.runner.waitFor(head, undefined, 30_000);
  return auctionId;
};

/** The bytes of the socket.io messages the probe receives from now on (as sent on the wire). */
const countBytes = (p: Probe): (() => number) => {
  let bytes = 0;
  p.raw.io.engine.on('packet', (packet: { type: string; data?: unknown }) => {
    if (packet.type === 'message' && typeof packet.data === 'string')
      bytes += Buffer.byteLength(packet.data);
  });
  return () => bytes;
};

/** A guest's watch from the very start: the state, and the bytes it took. */
const stateFromStart = async (auctionId: string) => {
  const watcher = await connect(server);
  const bytes = countBytes(watcher);
  const { ack } = await watch(watcher, { auctionId, afterRevision: -1 });
  expect(ack.ok).toBe(true);
  const states = watcher.heard.filter((h) => h.event === 'auction:state');
  expect(states).toHaveLength(1);
  return { state: AuctionStateEvent.parse(states[0]?.payload), bytes: bytes() };
};

/** Every page of `GET /auction/bids` from `cursor` on, as a guest. */
const pagesAfter = async (auctionId: string, cursor: string | null) => {
  const pages: BidView[][] = [];
  for (let next = cursor; next !== null;) {
    const res = await server
      .client()
      .get(`${API_BASE}/auction/bids?auctionId=${auctionId}&cursor=${encodeURIComponent(next)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body.bids as BidView[]);
    next = res.body.nextCursor as string | null;
  }
  return pages;
};

describe('auction:state on an auction with 500 bids', () => {
  it('carries one page of bids, no more bytes than an auction whose bids fill one page', async () => {
    // Both histories are longer than the replay buffer (256 events): each watch gets the state.
    const full = await auctionWithBids(500);
    const onePage = await auctionWithBids(BIDS_PAGE_SIZE, 300);
    const big = await stateFromStart(full);
    const small = await stateFromStart(onePage);

    expect(big.state.auction.bidCount).toBe(500);
    expect(big.state.auction.bids).toHaveLength(BIDS_PAGE_SIZE);
    expect(big.state.auction.bidsNextCursor).toEqual(expect.any(String));
    expect(small.state.auction.bids).toHaveLength(BIDS_PAGE_SIZE);
    expect(small.state.auction.bidsNextCursor).toBeNull();
    // The cursor and longer amounts are all that may differ (500 bids would be 25 times more).
    expect(big.bytes).toBeLessThan(small.bytes + 512);
    // What the detail route answers, at the same revision.
    const detail: AuctionView = await fetchAuction(server, full);
    expect(big.state.auction).toEqual(detail);

    // The rest pages over HTTP from the state's cursor: every standing bid once, highest first.
    const pages = await pagesAfter(full, big.state.auction.bidsNextCursor);
    expect(pages.every((page) => page.length <= BIDS_PAGE_SIZE)).toBe(true);
    const all = [...big.state.auction.bids, ...pages.flat()];
    expect(new Set(all.map((bid) => bid._id)).size).toBe(500);
    const amounts = all.map((bid) => bid.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(all.map((bid) => bid.bidder.lastName)).toEqual(range(1, 500).map(() => 'Long'));
  }, 120_000);
});

describe('GET /auction/bids', () => {
  it('shows no secret maximum, answers 404 for an unknown auction and 400 for a made-up cursor', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    const [alice, bob] = bidders as [TestUser, TestUser];
    const placed = await alice.client.post(`${API_BASE}/bid/placeBid`, {
      json: { productId: auctionId, bidAmount: 100, maxBidAmount: 537.37 },
    });
    expect(placed.status).toBe(201);
    const outbid = await bob.client.post(`${API_BASE}/bid/placeBid`, {
      json: { productId: auctionId, bidAmount: 150 },
    });
    expect(outbid.status).toBe(201);
    for (const viewer of [server.client(), bob.client, seller.client]) {
      const res = await viewer.get(`${API_BASE}/auction/bids?auctionId=${auctionId}&limit=1`);
      expect(res.status).toBe(200);
      expect(res.body.bids).toHaveLength(1);
      expect(JSON.stringify(res.body)).not.toMatch(/537\.37|maxAmount|maxBid/);
      const rest = await pagesAfter(auctionId, res.body.nextCursor as string);
      expect([...res.body.bids, ...rest.flat()].map((bid: BidView) => bid.bidder._id)).toEqual([
        alice.id,
        bob.id,
      ]);
    }
    const unknown = await server.client().get(`${API_BASE}/auction/bids?auctionId=${randomUUID()}`);
    expect(unknown.status).toBe(404);
    const madeUp = await server
      .client()
      .get(`${API_BASE}/auction/bids?auctionId=${auctionId}&cursor=not-a-cursor`);
    expect(madeUp.status).toBe(400);
    expect(madeUp.body).toMatchObject({ success: false });
  });
});
