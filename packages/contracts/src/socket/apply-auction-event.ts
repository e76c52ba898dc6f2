import { latestRetractions, standingOrder } from '../http/bid-view';
import type { AuctionView, BidView } from '../http/views';
import type { AuctionSocketEvent } from './socket';

/** Highest first; among equal amounts the leading bid first (its maximum came first), then the earlier. */
export const sortBids = (bids: readonly BidView[], leadingBidId: string | null): BidView[] =>
  standingOrder(bids, leadingBidId, (bid) => ({
    id: bid._id,
    amount: bid.bidAmount,
    placedAt: bid.createdAt,
  }));

const withBid = (bids: readonly BidView[], bid: BidView, leadingBidId: string | null): BidView[] =>
  sortBids([...bids.filter((b) => b._id !== bid._id), bid], leadingBidId);

const IMAGE_CHANGE = 'image';

/**
 * The auction as one realtime event leaves it: how a client keeps a fetched view current. The
 * payload carries the state after the event, so the client decides nothing; an event's bid is
 * added or removed and `bidsNextCursor` stays, so later pages bring the rest. Checked against the
 * server's own view by `auction-fold.prop.spec.ts` in the API.
 */
export const applyAuctionEvent = (auction: AuctionView, event: AuctionSocketEvent): AuctionView => {
  const next: AuctionView = { ...auction, revision: event.revision, currentBid: event.currentBid };
  next.status = event.status;
  // The auction after the event, as the server tells it (older servers: leave as it was).
  if (event.leadingBidId !== undefined) next.leadingBidId = event.leadingBidId;
  if (event.reserve !== undefined) next.reserve = event.reserve;
  if (event.buyNowPrice !== undefined) next.buyNowPrice = event.buyNowPrice;
  switch (event.type) {
    case 'BidPlaced':
      if (event.bid) {
        const known = auction.bids.some((bid) => bid._id === event.bid?._id);
        next.bids = withBid(auction.bids, event.bid, next.leadingBidId);
        if (!known) next.bidCount = auction.bidCount + 1;
      }
      break;
    case 'BidEdited':
    case 'AutomaticBidPlaced':
      if (event.bid) next.bids = withBid(auction.bids, event.bid, next.leadingBidId);
      break;
    case 'BidRetracted':
      if (event.bid) {
        const { _id: id, bidder, amount, createdAt } = event.bid;
        next.bids = auction.bids.filter((bid) => bid._id !== id);
        next.bidCount = Math.max(
          0,
          auction.bidCount - (next.bids.length < auction.bids.length ? 1 : 0),
        );
        next.retractions = latestRetractions(
          [
            { _id: id, bidder, amount, createdAt, retractedAt: event.at },
            ...auction.retractions.filter((retraction) => retraction._id !== id),
          ],
          (retraction) => ({ id: retraction._id, retractedAt: retraction.retractedAt }),
        );
      }
      break;
    case 'AuctionEdited': {
      const changes = event.changes ?? {};
      for (const key of ['title', 'description', 'startingPrice', 'auctionEndTime'] as const)
        if (key in changes) (next as Record<string, unknown>)[key] = changes[key];
      if (IMAGE_CHANGE in changes) {
        const image = (changes[IMAGE_CHANGE] ?? null) as AuctionView['image'];
        next.image = image;
        next.images = image;
      }
      break;
    }
    case 'AuctionClosed': {
      next.winner =
        event.winner !== undefined
          ? event.winner
          : (auction.bids.find((bid) => bid.bidder._id === event.winnerId)?.bidder ?? null);
      next.finalPrice = event.finalPrice ?? null;
      next.boughtNow = event.boughtNow ?? false;
      next.closedAt = event.at;
      break;
    }
    case 'AuctionCancelled':
      next.closedAt = event.at;
      break;
    default:
      break;
  }
  if (event.bidCount !== undefined) next.bidCount = event.bidCount;
  // A bid or raise in the soft-close window moved the end: the countdown follows it.
  if (
    (event.type === 'BidPlaced' ||
      event.type === 'BidEdited' ||
      event.type === 'AutomaticBidPlaced') &&
    event.changes
  ) {
    const end = event.changes.auctionEndTime;
    if (typeof end === 'string') {
      next.auctionEndTime = end;
      next.extended = true;
    }
  }
  return next;
};

/**
 * The auction with a further page of its standing bids (`GET /auction/bids` from its
 * `bidsNextCursor`) merged in: a bid it holds already stays as it is (the room's events keep it
 * current), one in `gone` (retracted since, by an event a lagging page has not seen) is left out,
 * and the cursor moves to the page's.
 */
export const withBidsPage = (
  auction: AuctionView,
  page: { readonly bids: readonly BidView[]; readonly nextCursor: string | null },
  gone: ReadonlySet<string> = new Set(),
): AuctionView => {
  const held = new Set(auction.bids.map((bid) => bid._id));
  const added = page.bids.filter((bid) => !held.has(bid._id) && !gone.has(bid._id));
  return {
    ...auction,
    bids: sortBids([...auction.bids, ...added], auction.leadingBidId),
    bidsNextCursor: page.nextCursor,
  };
};
