import type { AuctionView, BidView } from '@auction/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiRequest, ada, apiStandInPerTest, ok, refused } from '../../testing/api-stand-in';

// The real socket module over a fake socket.io client: the test delivers the server's events.
const fake = vi.hoisted(() => {
  const handlers = new Map<string, (payload: unknown) => void>();
  const socket = {
    connected: false,
    on: (name: string, handler: (payload: unknown) => void) => {
      handlers.set(name, handler);
      return socket;
    },
    emit: () => socket,
    connect: () => socket,
    disconnect: () => socket,
    removeAllListeners: () => socket,
  };
  return { handlers, socket };
});
vi.mock('socket.io-client', () => ({ io: () => fake.socket }));

// The session store (who the viewer is) listens to the page's `storage` events as it loads.
vi.stubGlobal('window', new EventTarget());
const { BEHIND_REFETCH_MS, RESYNC_RETRY_MS, useLiveAuction } = await import('./live-auction-store');
const { useSession } = await import('../../lib/session/store');

const AUCTION = 'a1';
const person = (id: string) => ({ _id: id, firstName: 'F', lastName: 'L', image: null });
const bid = (id: string, dollars: number): BidView => ({
  _id: id,
  auctionId: AUCTION,
  bidAmount: dollars,
  amount: dollars,
  bidder: person(`u-${id}`),
  createdAt: new Date(dollars * 1000).toISOString(),
});
const view = (revision: number, bids: BidView[]): AuctionView => ({
  _id: AUCTION,
  title: 'Lot',
  description: 'A lot',
  category: { _id: 'c', name: 'C' },
  startingPrice: 10,
  currentBid: bids[0]?.bidAmount ?? 0,
  image: null,
  images: null,
  seller: person('seller'),
  auctionEndTime: new Date(Date.now() + 86_400_000).toISOString(),
  increments: 'one-dollar',
  softClose: { windowMs: 120_000, extensionMs: 120_000 },
  extended: false,
  status: 'Live',
  bids,
  bidsNextCursor: null,
  bidCount: bids.length,
  retractions: [],
  createdAt: new Date(0).toISOString(),
  winner: null,
  finalPrice: null,
  closedAt: null,
  reserve: 'none',
  buyNowPrice: null,
  boughtNow: false,
  leadingBidId: bids[0]?._id ?? null,
  revision,
});
/** The server's `newBid` for `placed` at `revision`. */
const broadcast = (revision: number, placed: BidView) =>
  fake.handlers.get('newBid')?.({
    productId: AUCTION,
    revision,
    type: 'BidPlaced',
    bid: placed,
    currentBid: placed.bidAmount,
    status: 'Live',
    at: placed.createdAt,
  });

const api = apiStandInPerTest();
/** What the detail route answers next, in order. */
let details: AuctionView[] = [];
/** What `GET /auction/bids` answers for each cursor. */
let bidPages: Map<string, { bids: BidView[]; nextCursor: string | null }>;
const answer = (request: ApiRequest) => {
  if (request.path === '/auction/fetchSpecificAuction') {
    const next = details.shift();
    return next ? ok({ auctionDetails: next }) : refused(404, 'Auction not found');
  }
  const page = bidPages.get(request.query.get('cursor') ?? '');
  if (request.path === '/auction/bids' && page) return ok(page);
  return refused(400, 'cursor must be the nextCursor of an earlier page of this list');
};
const requested = (path: string) => api().requests.filter((request) => request.path === path);

const opened = async (initial: AuctionView) => {
  details.push(initial);
  const close = useLiveAuction.getState().open(AUCTION);
  await vi.waitFor(() =>
    expect(useLiveAuction.getState().auction?.revision).toBe(initial.revision),
  );
  return close;
};
const shown = () => {
  const auction = useLiveAuction.getState().auction;
  return {
    revision: auction?.revision,
    bids: auction?.bids.map((b) => b._id),
    count: auction?.bidCount,
  };
};

let close: () => void = () => undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  details = [];
  bidPages = new Map();
  api().answer = answer;
});
afterEach(() => {
  close();
  vi.useRealTimers();
  useSession.setState({ user: null });
});

describe('the own bid and its broadcast', () => {
  it('applies the own bid from the answer, then drops the broadcast of the same revision', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    const own = bid('mine', 21);
    await useLiveAuction
      .getState()
      .applyOwnBid(AUCTION, { newBid: own, currentBid: 21, revision: 4 });
    expect(shown()).toEqual({ revision: 4, bids: ['mine', 'b1'], count: 2 });
    expect(useLiveAuction.getState().auction?.currentBid).toBe(21);

    broadcast(4, own);
    expect(shown()).toEqual({ revision: 4, bids: ['mine', 'b1'], count: 2 });
    broadcast(5, bid('b2', 22));
    expect(shown()).toEqual({ revision: 5, bids: ['b2', 'mine', 'b1'], count: 3 });
    expect(requested('/auction/fetchSpecificAuction')).toHaveLength(1);
  });

  it('ignores the answer when the broadcast came first', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    const own = bid('mine', 21);
    broadcast(4, own);
    await useLiveAuction
      .getState()
      .applyOwnBid(AUCTION, { newBid: own, currentBid: 21, revision: 4 });
    expect(shown()).toEqual({ revision: 4, bids: ['mine', 'b1'], count: 2 });
  });

  it('refetches when events before the own bid have not arrived yet, and keeps order after', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    const other = bid('b2', 21);
    const own = bid('mine', 22);
    details.push(view(5, [own, other, bid('b1', 20)]));
    await useLiveAuction
      .getState()
      .applyOwnBid(AUCTION, { newBid: own, currentBid: 22, revision: 5 });
    expect(requested('/auction/fetchSpecificAuction')).toHaveLength(2);
    expect(shown()).toEqual({ revision: 5, bids: ['mine', 'b2', 'b1'], count: 3 });

    // The late broadcasts of revisions 4 and 5 change nothing; 6 applies.
    broadcast(4, other);
    broadcast(5, own);
    expect(shown()).toEqual({ revision: 5, bids: ['mine', 'b2', 'b1'], count: 3 });
    broadcast(6, bid('b3', 23));
    expect(shown()).toEqual({ revision: 6, bids: ['b3', 'mine', 'b2', 'b1'], count: 4 });
  });

  it('ignores an answer about another auction than the one on screen', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    await useLiveAuction
      .getState()
      .applyOwnBid('other', { newBid: bid('x', 30), currentBid: 30, revision: 4 });
    expect(shown()).toEqual({ revision: 3, bids: ['b1'], count: 1 });
  });
});

describe('what only the user may see', () => {
  it('comes with a refetch even at the revision already shown, and the live bids stay', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    const own = bid('mine', 21);
    await useLiveAuction
      .getState()
      .applyOwnBid(AUCTION, { newBid: own, currentBid: 21, revision: 4 });
    broadcast(5, bid('b2', 22));
    const retractable = [{ bidId: 'mine', until: new Date(Date.now() + 300_000).toISOString() }];
    details.push({
      ...view(4, [own, bid('b1', 20)]),
      viewer: { bidId: 'mine', maxBid: 21, reservePrice: null, retractable },
    });
    await useLiveAuction.getState().refresh();

    expect(shown()).toEqual({ revision: 5, bids: ['b2', 'mine', 'b1'], count: 3 });
    expect(useLiveAuction.getState().auction?.viewer?.retractable).toEqual(retractable);
  });

  it('is kept when the socket sends the state of the auction for everyone', async () => {
    const retractable = [{ bidId: 'b1', until: new Date(Date.now() + 300_000).toISOString() }];
    close = await opened({
      ...view(3, [bid('b1', 20)]),
      viewer: { bidId: 'b1', maxBid: 20, reservePrice: null, retractable },
    });
    fake.handlers.get('auction:state')?.({
      productId: AUCTION,
      revision: 9,
      auction: view(9, [bid('b1', 20)]),
    });
    expect(useLiveAuction.getState().auction).toMatchObject({
      revision: 9,
      viewer: { retractable },
    });
  });
});

describe('the state from far behind', () => {
  /** The server's `auction:state`: the auction at a revision, sent instead of a long replay. */
  const state = (auction: AuctionView) =>
    fake.handlers.get('auction:state')?.({
      productId: auction._id,
      revision: auction.revision,
      auction,
    });

  it('replaces the auction with the state, then applies only the events after it', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    state(view(400, [bid('b9', 90), bid('b1', 20)]));
    expect(shown()).toEqual({ revision: 400, bids: ['b9', 'b1'], count: 2 });

    broadcast(400, bid('old', 80));
    expect(shown()).toEqual({ revision: 400, bids: ['b9', 'b1'], count: 2 });
    broadcast(401, bid('b10', 91));
    expect(shown()).toEqual({ revision: 401, bids: ['b10', 'b9', 'b1'], count: 3 });
  });

  it('ignores a state older than what is shown, or about another auction', async () => {
    close = await opened(view(10, [bid('b1', 20)]));
    state(view(8, []));
    state({ ...view(50, []), _id: 'other' });
    expect(shown()).toEqual({ revision: 10, bids: ['b1'], count: 1 });
    broadcast(11, bid('b2', 21));
    expect(shown()).toEqual({ revision: 11, bids: ['b2', 'b1'], count: 2 });
  });
});

describe('a bid in the soft-close window', () => {
  it('moves the end shown, from a broadcast and from the own bid’s answer', async () => {
    const initial = view(3, [bid('b1', 20)]);
    close = await opened(initial);
    const later = new Date(Date.parse(initial.auctionEndTime) + 60_000).toISOString();
    fake.handlers.get('newBid')?.({
      productId: AUCTION,
      revision: 4,
      type: 'BidPlaced',
      bid: bid('b2', 22),
      currentBid: 22,
      status: 'Live',
      at: new Date().toISOString(),
      changes: { auctionEndTime: later, extended: true },
    });
    expect(useLiveAuction.getState().auction).toMatchObject({
      revision: 4,
      auctionEndTime: later,
      extended: true,
    });

    const latest = new Date(Date.parse(later) + 60_000).toISOString();
    await useLiveAuction.getState().applyOwnBid(AUCTION, {
      newBid: bid('mine', 25),
      currentBid: 25,
      revision: 5,
      auctionEndTime: latest,
    });
    expect(useLiveAuction.getState().auction?.auctionEndTime).toBe(latest);
  });

  it('keeps the end when a bid did not move it', async () => {
    const initial = view(3, [bid('b1', 20)]);
    close = await opened(initial);
    broadcast(4, bid('b2', 22));
    expect(useLiveAuction.getState().auction).toMatchObject({
      auctionEndTime: initial.auctionEndTime,
      extended: false,
    });
  });
});

describe('proxy bids on screen', () => {
  /** The server's `bidUpdated` for the automatic bid that raised `raised` at `revision`. */
  const automatic = (revision: number, raised: BidView) =>
    fake.handlers.get('bidUpdated')?.({
      productId: AUCTION,
      revision,
      type: 'AutomaticBidPlaced',
      bid: { ...raised, automatic: true },
      currentBid: raised.bidAmount,
      leadingBidId: raised._id,
      reserve: 'met',
      buyNowPrice: null,
      status: 'Live',
      at: raised.createdAt,
    });

  it('shows an automatic answer on top, first among equal amounts, marked automatic', async () => {
    // b1 (a maximum of $30, set first) stands at $20; b2 bids $30 and is answered at once.
    close = await opened(view(3, [bid('b1', 20)]));
    broadcast(4, bid('b2', 30));
    expect(shown().bids).toEqual(['b2', 'b1']);
    // Placed after b2 by the clock, b1 still leads: its maximum came first.
    automatic(5, { ...bid('b1', 30), createdAt: bid('b1', 40).createdAt });
    const auction = useLiveAuction.getState().auction;
    expect(shown()).toEqual({ revision: 5, bids: ['b1', 'b2'], count: 2 });
    expect(auction).toMatchObject({ currentBid: 30, leadingBidId: 'b1', reserve: 'met' });
    expect(auction?.bids[0]?.automatic).toBe(true);
  });

  it('moves on by a revision and nothing else for a private raise of a maximum', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    fake.handlers.get('auctionUpdated')?.({
      productId: AUCTION,
      revision: 4,
      type: 'BidMaximumRaised',
      bid: null,
      currentBid: 20,
      status: 'Live',
      changes: {},
      at: new Date().toISOString(),
    });
    expect(shown()).toEqual({ revision: 4, bids: ['b1'], count: 1 });
    broadcast(5, bid('b2', 21));
    expect(shown()).toEqual({ revision: 5, bids: ['b2', 'b1'], count: 2 });
  });

  it('keeps the own maximum when the answer comes after its broadcast, and across a state for everyone', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    const own = bid('mine', 21);
    broadcast(4, own);
    await useLiveAuction
      .getState()
      .applyOwnBid(AUCTION, { newBid: own, currentBid: 21, revision: 4, maxBid: 75 });
    expect(useLiveAuction.getState().auction?.viewer).toMatchObject({ bidId: 'mine', maxBid: 75 });

    fake.handlers.get('auction:state')?.({
      productId: AUCTION,
      revision: 9,
      auction: view(9, [own, bid('b1', 20)]),
    });
    expect(useLiveAuction.getState().auction).toMatchObject({
      revision: 9,
      viewer: { bidId: 'mine', maxBid: 75 },
    });
  });
});

describe('the bids after the first page', () => {
  /** A first page of two bids, the cursor `c1` naming the rest. */
  const paged = (revision: number, bids: BidView[], count: number): AuctionView => ({
    ...view(revision, bids),
    bidsNextCursor: 'c1',
    bidCount: count,
  });
  /** The server's `bidRetracted`: `gone` retracted, `leadingBidId` leads, `bidCount` stand. */
  const retracted = (revision: number, gone: BidView, leadingBidId: string, bidCount: number) =>
    fake.handlers.get('bidRetracted')?.({
      productId: AUCTION,
      revision,
      type: 'BidRetracted',
      bid: gone,
      currentBid: 0,
      leadingBidId,
      bidCount,
      status: 'Live',
      at: new Date().toISOString(),
    });

  it('come a page at a time from the cursor, each once, until there are no more', async () => {
    close = await opened(paged(3, [bid('b5', 50), bid('b4', 40)], 5));
    bidPages.set('c1', { bids: [bid('b3', 30), bid('b2', 20)], nextCursor: 'c2' });
    bidPages.set('c2', { bids: [bid('b1', 10)], nextCursor: null });
    await useLiveAuction.getState().loadMoreBids();
    expect(shown()).toEqual({ revision: 3, bids: ['b5', 'b4', 'b3', 'b2'], count: 5 });
    await useLiveAuction.getState().loadMoreBids();
    expect(shown().bids).toEqual(['b5', 'b4', 'b3', 'b2', 'b1']);
    expect(useLiveAuction.getState().auction?.bidsNextCursor).toBeNull();
    await useLiveAuction.getState().loadMoreBids();
    expect(requested('/auction/bids').map((request) => request.query.get('cursor'))).toEqual([
      'c1',
      'c2',
    ]);
  });

  it('leave out a bid shown already and one retracted since, and count from the events', async () => {
    close = await opened(paged(3, [bid('b5', 50), bid('b4', 40)], 5));
    broadcast(4, bid('b6', 60));
    retracted(5, bid('b3', 30), 'b6', 5);
    expect(shown()).toEqual({ revision: 5, bids: ['b6', 'b5', 'b4'], count: 5 });
    // A page from a catalog that has not applied the retraction yet.
    bidPages.set('c1', { bids: [bid('b4', 40), bid('b3', 30), bid('b2', 20)], nextCursor: null });
    await useLiveAuction.getState().loadMoreBids();
    expect(shown().bids).toEqual(['b6', 'b5', 'b4', 'b2']);
  });

  it('drop a page that arrives after a newer view replaced the one it follows', async () => {
    close = await opened(paged(3, [bid('b5', 50), bid('b4', 40)], 5));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    api().answer = async (request) => {
      if (request.path === '/auction/bids') await held;
      return answer(request);
    };
    bidPages.set('c1', { bids: [bid('b3', 30)], nextCursor: null });
    const loading = useLiveAuction.getState().loadMoreBids();
    await vi.waitFor(() => expect(requested('/auction/bids')).toHaveLength(1));
    fake.handlers.get('auction:state')?.({
      productId: AUCTION,
      revision: 400,
      auction: { ...paged(400, [bid('b9', 90), bid('b5', 50)], 6), bidsNextCursor: 'c9' },
    });
    release();
    await loading;
    expect(shown()).toEqual({ revision: 400, bids: ['b9', 'b5'], count: 6 });
    expect(useLiveAuction.getState().auction?.bidsNextCursor).toBe('c9');
  });

  it('load the next page when a retraction makes a bid not shown the leader', async () => {
    close = await opened(paged(3, [bid('b5', 50), bid('b4', 40)], 5));
    bidPages.set('c1', { bids: [bid('b3', 30), bid('b2', 20)], nextCursor: 'c2' });
    retracted(4, bid('b5', 50), 'b4', 4);
    expect(requested('/auction/bids')).toHaveLength(0);
    retracted(5, bid('b4', 40), 'b3', 3);
    await vi.waitFor(() => expect(shown().bids).toEqual(['b3', 'b2']));
    expect(useLiveAuction.getState().auction?.leadingBidId).toBe('b3');
  });
});

describe('a revision that changes nothing everyone sees', () => {
  /** The server's payload for a reserve edit or a private raise: no bid, no changes, no type. */
  const quiet = (revision: number) =>
    fake.handlers.get('auctionUpdated')?.({
      productId: AUCTION,
      revision,
      type: 'Revision',
      bid: null,
      currentBid: 0,
      status: 'Live',
      reserve: 'not-met',
      changes: {},
      at: new Date().toISOString(),
    });
  const withReserve = (revision: number, reservePrice: number): AuctionView => ({
    ...view(revision, []),
    reserve: 'not-met',
    viewer: { bidId: null, maxBid: null, reservePrice, retractable: [] },
  });
  const detailsAsked = () => requested('/auction/fetchSpecificAuction').length;

  it('brings its seller the reserve they set, with a refetch', async () => {
    useSession.setState({ user: { ...ada, _id: 'seller', id: 'seller' } });
    close = await opened(withReserve(3, 150));
    details.push(withReserve(4, 120));
    quiet(4);
    await vi.waitFor(() =>
      expect(useLiveAuction.getState().auction?.viewer?.reservePrice).toBe(120),
    );
    expect(detailsAsked()).toBe(2);
  });

  it('is fetched by a bidder, not by a watcher with nothing of their own in the auction', async () => {
    useSession.setState({ user: ada });
    close = await opened({
      ...view(3, [bid('b1', 20)]),
      viewer: { bidId: null, maxBid: null, reservePrice: null, retractable: [] },
    });
    quiet(4);
    broadcast(5, bid('b2', 21));
    expect(shown()).toEqual({ revision: 5, bids: ['b2', 'b1'], count: 2 });
    expect(detailsAsked()).toBe(1);

    close();
    close = await opened({
      ...view(5, [bid('b1', 20)]),
      viewer: { bidId: 'b1', maxBid: 40, reservePrice: null, retractable: [] },
    });
    details.push({
      ...view(6, [bid('b1', 20)]),
      viewer: { bidId: 'b1', maxBid: 60, reservePrice: null, retractable: [] },
    });
    quiet(6);
    await vi.waitFor(() => expect(useLiveAuction.getState().auction?.viewer?.maxBid).toBe(60));
    expect(detailsAsked()).toBe(3);
  });
});

describe('a detail answered Read-Models-Behind', () => {
  const path = '/auction/fetchSpecificAuction';
  /** Lets fake time pass in steps, each once the stand-in has had the request it leads to. */
  const stepUntil = async (done: () => boolean) => {
    for (let step = 0; step < 40 && !done(); step++) {
      const asked = requested(path).length;
      await vi.advanceTimersByTimeAsync(1000);
      await expect
        .poll(() => requested(path).length > asked || done(), { interval: 5, timeout: 2000 })
        .toBe(true);
      // The answer reaches the client over real I/O.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  beforeEach(() => {
    vi.useRealTimers();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });

  it('says the page is catching up after the retries, and fetches again until it is current', async () => {
    let current = false;
    api().answer = (request) =>
      request.path !== path
        ? refused(404, 'Not found')
        : current
          ? ok({ auctionDetails: view(4, [bid('b2', 21)]) })
          : {
              ...ok({ auctionDetails: view(3, [bid('b1', 20)]) }),
              headers: { 'Read-Models-Behind': 'catalog, watchlist' },
            };
    close = useLiveAuction.getState().open(AUCTION);
    await stepUntil(() => useLiveAuction.getState().behind);
    expect(useLiveAuction.getState()).toMatchObject({ behind: true, load: 'ready' });
    expect(shown().revision).toBe(3);
    // The client asked again, a few times, before it gave the marked answer to the page.
    const retried = requested(path).length;
    expect(retried).toBeGreaterThanOrEqual(3);

    // Still marked: asked again after a while, still catching up.
    await vi.advanceTimersByTimeAsync(BEHIND_REFETCH_MS);
    await expect.poll(() => requested(path).length, { interval: 5 }).toBeGreaterThan(retried);
    expect(useLiveAuction.getState().behind).toBe(true);

    current = true;
    await stepUntil(() => !useLiveAuction.getState().behind);
    expect(useLiveAuction.getState().behind).toBe(false);
    expect(shown()).toEqual({ revision: 4, bids: ['b2'], count: 1 });
    // Current now: nothing more is asked.
    const asked = requested(path).length;
    await vi.advanceTimersByTimeAsync(BEHIND_REFETCH_MS * 3);
    expect(requested(path)).toHaveLength(asked);
  });
});

describe('the socket back after a loss', () => {
  const path = '/auction/fetchSpecificAuction';

  it('fetches the auction and its bids again, resyncing until a fetch lands (a 503 is tried again)', async () => {
    let answers: (() => ReturnType<typeof answer>)[] = [];
    api().answer = (request) =>
      request.path === path
        ? (answers.shift() ?? (() => refused(404, 'Auction not found')))()
        : answer(request);
    answers = [() => ok({ auctionDetails: view(3, [bid('b1', 20)]) })];
    close = useLiveAuction.getState().open(AUCTION);
    await vi.waitFor(() => expect(shown().revision).toBe(3));
    fake.handlers.get('connect')?.(undefined);
    fake.handlers.get('disconnect')?.('transport close');
    expect(requested(path)).toHaveLength(1);

    // Back: the first fetch meets a server still starting up, the next one lands.
    answers = [
      () => refused(503, 'The marketplace is starting up. Please try again in a moment.'),
      () => ok({ auctionDetails: view(5, [bid('b3', 30), bid('b1', 20)]) }),
    ];
    fake.handlers.get('connect')?.(undefined);
    expect(useLiveAuction.getState().resyncing).toBe(true);
    await expect.poll(() => requested(path).length, { interval: 5 }).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(shown().revision).toBe(3);
    expect(useLiveAuction.getState().resyncing).toBe(true);
    await vi.advanceTimersByTimeAsync(RESYNC_RETRY_MS[0]);
    await expect.poll(() => shown().revision, { interval: 5 }).toBe(5);
    expect(shown()).toEqual({ revision: 5, bids: ['b3', 'b1'], count: 2 });
    expect(useLiveAuction.getState().resyncing).toBe(false);
    expect(useLiveAuction.getState().highlighted.has('b3')).toBe(true);
  });

  it('does not fetch for a page closed before the socket came back', async () => {
    close = await opened(view(3, [bid('b1', 20)]));
    close();
    close = () => undefined;
    fake.handlers.get('disconnect')?.('transport close');
    fake.handlers.get('connect')?.(undefined);
    await vi.advanceTimersByTimeAsync(RESYNC_RETRY_MS[0]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(requested(path)).toHaveLength(1);
    expect(useLiveAuction.getState().resyncing).toBe(false);
  });
});
