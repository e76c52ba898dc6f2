import {
  type AuctionSocketEvent,
  type AuctionView,
  type BidView,
  MAX_PAGE_SIZE,
  applyAuctionEvent,
  quietRevisionType,
  withBidsPage,
} from '@auction/contracts';
import { type StoreApi, create } from 'zustand';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session/store';
import { advanceWatch, onSocketReconnect, watchAuction } from '../../lib/socket';
import { auctionsApi } from '../../lib/auctions-api';

/** How long a newly placed bid stays highlighted (spec §9). */
export const HIGHLIGHT_MS = 2200;
/**
 * How long after a fetch still marked behind (the API client has retried it for some seconds
 * already) the auction is fetched again, for as long as the answers stay marked.
 */
export const BEHIND_REFETCH_MS = 3000;

type LoadState = 'idle' | 'loading' | 'ready' | 'missing' | 'failed';

interface LiveAuctionState {
  auctionId: string | null;
  auction: AuctionView | null;
  load: LoadState;
  /** Bid ids highlighted because they just arrived. */
  highlighted: ReadonlySet<string>;
  /** A further page of bids is on its way. */
  loadingBids: boolean;
  /**
   * The last fetch was answered from read models that had not yet applied this user's latest
   * write (`Read-Models-Behind`, after the client's retries): the page says it is catching up,
   * and the auction is fetched again until an answer is current.
   */
  behind: boolean;
  /**
   * The socket connected again after a loss and the refetch of what was missed is on its way:
   * until it lands, the page still may show an old price.
   */
  resyncing: boolean;
  /**
   * Adds the standing bids after those shown (from `bidsNextCursor`, `limit` of them); rejects
   * when the page cannot be fetched. A view that replaced the shown one meanwhile drops the page.
   */
  loadMoreBids: (limit?: number) => Promise<void>;
  open: (auctionId: string) => () => void;
  /** Refetches and keeps whichever of the fetched view and the live one is newer. */
  refresh: () => Promise<void>;
  apply: (event: AuctionSocketEvent) => void;
  /**
   * The user's own accepted bid, from the place-bid answer: applied at its revision like the
   * socket's `newBid` (which is then dropped as a repeat), or, when events before it have not
   * arrived yet, by a refetch. Applied at most once, whichever comes first.
   */
  applyOwnBid: (auctionId: string, placed: OwnBid) => Promise<void>;
  /** The user's own secret maximum, from a bid or raise they made (only they are told it). */
  noteOwnMaximum: (auctionId: string, bidId: string, maxBid: number) => void;
}

/** What the place-bid route answers: the bid, the current bid after it, its stream revision. */
export interface OwnBid {
  readonly newBid: BidView;
  readonly currentBid: number;
  readonly revision: number;
  /** The bidder's own maximum (the amount itself when they set none). */
  readonly maxBid?: number | undefined;
  /** The auction's new end, when the bid landed in its soft-close window. */
  readonly auctionEndTime?: string | undefined;
}

/** Whether a quiet revision may have changed what this viewer alone sees of `auction`. */
const mayBeConcerned = (auction: AuctionView): boolean => {
  if (auction.viewer === undefined) return false;
  if (auction.viewer.bidId !== null) return true;
  const userId = useSession.getState().user?._id;
  return userId !== undefined && userId === auction.seller._id;
};

const highlightTimers = new Map<string, ReturnType<typeof setTimeout>>();
/** Bids retracted since the auction was opened: a page read from a lagging catalog may list them. */
let gone = new Set<string>();
/** The follow-up fetch while the last one was marked behind. */
let behindTimer: ReturnType<typeof setTimeout> | undefined;

/** The store's own setter and getter, which each action below is handed. */
interface Store {
  readonly set: StoreApi<LiveAuctionState>['setState'];
  readonly get: StoreApi<LiveAuctionState>['getState'];
}

const highlight = ({ set }: Store, bidId: string) => {
  set((state) => ({ highlighted: new Set(state.highlighted).add(bidId) }));
  clearTimeout(highlightTimers.get(bidId));
  highlightTimers.set(
    bidId,
    setTimeout(() => {
      highlightTimers.delete(bidId);
      set((state) => {
        const highlighted = new Set(state.highlighted);
        highlighted.delete(bidId);
        return { highlighted };
      });
    }, HIGHLIGHT_MS),
  );
};

const noteBehind = ({ set, get }: Store, auctionId: string, behind: boolean) => {
  if (get().auctionId !== auctionId) return;
  clearTimeout(behindTimer);
  behindTimer = undefined;
  if (get().behind !== behind) set({ behind });
  if (behind) behindTimer = setTimeout(() => void get().refresh(), BEHIND_REFETCH_MS);
};

/** The auction as the server reads it, and whether that read was marked behind. */
const fetchView = async (
  store: Store,
  auctionId: string,
): Promise<{ view: AuctionView; behind: boolean } | null> => {
  try {
    const { auctionDetails, behind } = await auctionsApi.detail(auctionId);
    noteBehind(store, auctionId, behind !== undefined);
    return { view: auctionDetails, behind: behind !== undefined };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
};

/** `behind`: a fetch marked behind, which may lack what this user's latest write changed. */
const accept = (store: Store, auctionId: string, view: AuctionView, behind = false) => {
  const { set, get } = store;
  const current = get();
  if (current.auctionId !== auctionId) return;
  const previous = current.auction;
  if (previous && previous.revision >= view.revision) {
    // The live copy is as new, but only a fetch brings what this user alone may see (unless
    // the fetch is behind: what the page holds, from the write's own answer, may be newer).
    if (view.viewer !== undefined && !behind)
      set({ auction: { ...previous, viewer: view.viewer } });
    return;
  }
  advanceWatch(auctionId, view.revision);
  // A view for everyone (the socket's `auction:state`) keeps what only this user may see.
  const viewer = view.viewer ?? previous?.viewer;
  set({ auction: viewer === undefined ? view : { ...view, viewer }, load: 'ready' });
  // A refetch can overtake the socket: bids it brings are as new as the socket's would be.
  if (previous)
    for (const bid of view.bids)
      if (!previous.bids.some((known) => known._id === bid._id)) highlight(store, bid._id);
  // The new view holds a first page: as many bids as were shown come back in one more page.
  const shown = previous?.bids.length ?? 0;
  if (shown > view.bids.length)
    void get()
      .loadMoreBids(Math.min(MAX_PAGE_SIZE, shown - view.bids.length))
      .catch(() => undefined);
};

/** The leader's bid on screen, when an event made an unshown bid the leader (a retraction). */
const showLeader = ({ get }: Store) => {
  const auction = get().auction;
  if (auction?.leadingBidId && !auction.bids.some((bid) => bid._id === auction.leadingBidId))
    void get()
      .loadMoreBids()
      .catch(() => undefined);
};

const open = (store: Store, auctionId: string): (() => void) => {
  const { set, get } = store;
  gone = new Set();
  clearTimeout(behindTimer);
  set({
    auctionId,
    auction: null,
    load: 'loading',
    highlighted: new Set(),
    loadingBids: false,
    behind: false,
    resyncing: false,
  });
  let stop: (() => void) | null = null;
  let closed = false;
  // Back after a loss (the socket's tries, or a reconnect): events were missed, and the watch's
  // replay brings only what the room hears, so the auction and its bids are fetched again.
  const stopRefetching = onSocketReconnect(() => {
    if (!closed && get().auction) void resync(store, auctionId, () => closed);
  });
  fetchView(store, auctionId).then(
    (fetched) => {
      if (closed) return;
      if (!fetched) return set({ load: 'missing' });
      const { view, behind } = fetched;
      accept(store, auctionId, view, behind);
      stop = watchAuction(
        auctionId,
        view.revision,
        (event) => get().apply(event),
        (state) => accept(store, auctionId, state),
      );
    },
    () => {
      if (!closed) set({ load: 'failed' });
    },
  );
  return () => {
    closed = true;
    stop?.();
    stopRefetching();
    if (get().auctionId !== auctionId) return;
    clearTimeout(behindTimer);
    set({ auctionId: null, auction: null, load: 'idle', behind: false, resyncing: false });
  };
};

/**
 * Waits before the next fetch after a reconnect whose fetch failed: a server that has just
 * started answers reads 503 until its read models have caught up.
 */
export const RESYNC_RETRY_MS = [1000, 2000, 4000, 5000] as const;
/** The latest reconnect's fetch; an older one stops. */
let resyncs = 0;

/**
 * After a reconnect: `resyncing` until the auction as the server has it now is fetched and
 * accepted, trying again while fetches fail (for as long as the page is open).
 */
const resync = async (store: Store, auctionId: string, closed: () => boolean) => {
  const mine = ++resyncs;
  const current = () => mine === resyncs && !closed() && store.get().auctionId === auctionId;
  store.set({ resyncing: true });
  for (let attempt = 0; current(); attempt++) {
    try {
      const fetched = await fetchView(store, auctionId);
      if (fetched && current()) accept(store, auctionId, fetched.view, fetched.behind);
      break;
    } catch {
      const wait = RESYNC_RETRY_MS[Math.min(attempt, RESYNC_RETRY_MS.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  if (current()) store.set({ resyncing: false });
};

const refresh = async (store: Store) => {
  const auctionId = store.get().auctionId;
  if (!auctionId) return;
  const fetched = await fetchView(store, auctionId).catch(() => null);
  if (fetched) accept(store, auctionId, fetched.view, fetched.behind);
};

const apply = (store: Store, event: AuctionSocketEvent) => {
  const { auction } = store.get();
  if (!auction || auction._id !== event.productId || event.revision <= auction.revision) return;
  if (event.type === 'BidRetracted' && event.bid) gone.add(event.bid._id);
  store.set({ auction: applyAuctionEvent(auction, event) });
  if (event.type === 'BidPlaced' && event.bid) highlight(store, event.bid._id);
  showLeader(store);
  // A revision that changed nothing everyone sees: a seller's edit of the reserve, a bidder's
  // raise of their maximum. Its seller and its bidders fetch what only they see (one of them
  // may have made it, in another tab or on the edit page); other watchers have nothing to get.
  if (event.type === quietRevisionType && mayBeConcerned(auction)) void store.get().refresh();
};

const loadMoreBids = async ({ set, get }: Store, limit: number | undefined) => {
  const { auction, loadingBids } = get();
  const cursor = auction?.bidsNextCursor ?? null;
  if (!auction || loadingBids || cursor === null) return;
  set({ loadingBids: true });
  try {
    const page = await auctionsApi.bids(auction._id, {
      cursor,
      ...(limit === undefined ? {} : { limit }),
    });
    const current = get().auction;
    if (current?._id !== auction._id || current.bidsNextCursor !== cursor) return;
    set({ auction: withBidsPage(current, page, gone) });
  } finally {
    set({ loadingBids: false });
  }
};

const noteOwnMaximum = ({ set, get }: Store, auctionId: string, bidId: string, maxBid: number) => {
  const shown = get().auction;
  if (shown?._id !== auctionId) return;
  set({
    auction: { ...shown, viewer: { reservePrice: null, ...shown.viewer, bidId, maxBid } },
  });
};

const applyOwnBid = async ({ get }: Store, auctionId: string, placed: OwnBid) => {
  // The bidder's own maximum, whichever of the answer and the socket came first.
  if (placed.maxBid !== undefined)
    get().noteOwnMaximum(auctionId, placed.newBid._id, placed.maxBid);
  const { auction } = get();
  if (!auction || auction._id !== auctionId || placed.revision <= auction.revision) return;
  if (placed.revision > auction.revision + 1) {
    // Events before it are still on their way: the detail shows them all (read-your-writes).
    await get().refresh();
    return;
  }
  // The watch moves first, so the socket's copy of this revision is dropped as a repeat.
  advanceWatch(auctionId, placed.revision);
  // At its own revision the bid leads at its amount; an automatic answer follows on the socket.
  get().apply({
    type: 'BidPlaced',
    productId: auctionId,
    revision: placed.revision,
    bid: placed.newBid,
    currentBid: placed.newBid.bidAmount,
    leadingBidId: placed.newBid._id,
    status: auction.status,
    at: placed.newBid.createdAt,
    ...(placed.auctionEndTime === undefined
      ? {}
      : { changes: { auctionEndTime: placed.auctionEndTime, extended: true } }),
  });
};

/**
 * The auction on screen: fetched once, then kept current by the socket, revision by revision.
 * Each action is a named function above, handed the store's setter and getter.
 */
export const useLiveAuction = create<LiveAuctionState>()((set, get) => {
  const store: Store = { set, get };
  return {
    auctionId: null,
    auction: null,
    load: 'idle',
    highlighted: new Set(),
    loadingBids: false,
    behind: false,
    resyncing: false,
    open: (auctionId) => open(store, auctionId),
    refresh: () => refresh(store),
    apply: (event) => apply(store, event),
    loadMoreBids: (limit) => loadMoreBids(store, limit),
    noteOwnMaximum: (auctionId, bidId, maxBid) => noteOwnMaximum(store, auctionId, bidId, maxBid),
    applyOwnBid: (auctionId, placed) => applyOwnBid(store, auctionId, placed),
  };
});
