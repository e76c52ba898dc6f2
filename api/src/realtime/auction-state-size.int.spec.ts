import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  commandMetadata,
  fetchAuction,
  signUpAndLogIn,
  settled,
} from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';
import { type Probe, closeProbes, connect, range, watch } from '../testing/realtime';
import { RealtimeGateway } from './gateway';

/**
 * Issue 27 §5: a watch from further behind than the replay buffer answers `auction:state`, whose
 * size must not grow with the auction's bids. It carries the first page of bids, their count and
 * the cursor the rest pages from over HTTP. The gateway here keeps a small buffer (the server's
 * keeps 256 events), so histories short enough for every read store to project quickly are
 * already far behind.
 */

const BUFFER = 16;
const BIDS = 6 * BIDS_PAGE_SIZE;

let server: TestServer;
let seller: TestUser;
let bidders: TestUser[];

let gateway: string;

beforeAll(async () => {
  server = await startTestServer();
  const http = createServer();
  const realtime = new RealtimeGateway(server.deps, http, [], () => [], { replayBuffer: BUFFER });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await realtime.start();
  closeGateway = () => realtime.close();
  gateway = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  seller = await signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' });
  bidders = await Promise.all(
    range(1, 5).map((n) => signUpAndLogIn(server, { firstName: `Bidder${n}`, lastName: 'Long' })),
  );
}, 120_000);
afterEach(() => closeProbes());
let closeGateway: () => Promise<void> = () => Promise.resolve();
afterAll(async () => {
  await closeGateway();
  await server.cleanup();
}, 60_000);

/** An auction with `count` standing bids from five bidders in turn (through the engine: quick). */
const auctionWithBids = async (count: number): Promise<string> => {
  const auctionId = await createAuctionOverHttp(seller.client, { softClose: false });
  let amount = 10_000;
  for (let sent = 0; sent < count; sent += 50) {
    const outcomes = await Promise.all(
      range(sent, Math.min(count, sent + 50) - 1).map((i) => {
        const bid = { auctionId, bidId: randomUUID(), amount };
        amount = minimumRaise(amount, 'one-dollar');
        return server.deps.engine.send({
          type: 'PlaceBid',
          data: bid,
          metadata: commandMetadata((bidders[i % bidders.length] as TestUser).id),
        });
      }),
    );
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
  }
  const head = (await server.deps.events.headPosition()) ?? 0;
  await server.deps.runner.waitFor(head, undefined, 60_000);
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
  const watcher = await connect({ url: gateway });
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

describe(`auction:state on an auction with ${BIDS} bids`, () => {
  it('carries one page of bids, no more bytes than an auction whose bids fill one page', async () => {
    // Both histories are longer than the replay buffer: each watch gets the state.
    const full = await auctionWithBids(BIDS);
    const onePage = await auctionWithBids(BIDS_PAGE_SIZE);
    const big = await stateFromStart(full);
    const small = await stateFromStart(onePage);

    expect(big.state.auction.bidCount).toBe(BIDS);
    expect(big.state.auction.bids).toHaveLength(BIDS_PAGE_SIZE);
    expect(big.state.auction.bidsNextCursor).toEqual(expect.any(String));
    expect(small.state.auction.bids).toHaveLength(BIDS_PAGE_SIZE);
    expect(small.state.auction.bidsNextCursor).toBeNull();
    // The cursor and longer amounts are all that may differ (all the bids would be 6 times more).
    expect(big.bytes).toBeLessThan(small.bytes + 512);
    // What the detail route answers, at the same revision.
    const detail: AuctionView = await fetchAuction(server, full);
    expect(big.state.auction).toEqual(detail);

    // The rest pages over HTTP from the state's cursor: every standing bid once, highest first.
    const pages = await pagesAfter(full, big.state.auction.bidsNextCursor);
    expect(pages.every((page) => page.length <= BIDS_PAGE_SIZE)).toBe(true);
    const all = [...big.state.auction.bids, ...pages.flat()];
    expect(new Set(all.map((bid) => bid._id)).size).toBe(BIDS);
    const amounts = all.map((bid) => bid.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(all.map((bid) => bid.bidder.lastName)).toEqual(range(1, BIDS).map(() => 'Long'));
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
    await settled(server);
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
