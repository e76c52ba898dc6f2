import { centsToDollars } from '../money';
import type { BidView, PublicUser, RetractionView } from './views';

/** How every view names a user whose account is deleted (or was never known). */
export const deletedUser = (id: string): PublicUser => ({
  _id: id,
  firstName: 'Deleted',
  lastName: 'user',
  image: null,
});

/** What a view needs of a standing bid (money in cents); the bidder is joined by id. */
export interface BidFacts {
  readonly bidId: string;
  readonly auctionId: string;
  readonly bidderId: string;
  readonly amount: number;
  /** When the bid was first placed (later edits and automatic raises keep it). */
  readonly placedAt: string;
  /** Whether its amount was last set by the system, bidding up to the bidder's maximum. */
  readonly automatic?: boolean | undefined;
}

/** A bid as every view shows it: dollars, under both names the product reads. */
export const bidView = (bid: BidFacts, bidder: PublicUser): BidView => ({
  _id: bid.bidId,
  auctionId: bid.auctionId,
  bidAmount: centsToDollars(bid.amount),
  amount: centsToDollars(bid.amount),
  bidder,
  createdAt: bid.placedAt,
  ...(bid.automatic ? { automatic: true } : {}),
});

/** The three things the standing order reads of a bid, whatever shape it comes in. */
export interface Ranked {
  readonly id: string;
  readonly amount: number;
  readonly placedAt: string;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order every view lists standing bids in: highest first; among equal amounts the leading bid
 * (its maximum came first), then the earlier, then by id. Returns a sorted copy.
 */
export const standingOrder = <T>(
  bids: Iterable<T>,
  leadingBidId: string | null,
  rank: (bid: T) => Ranked,
): T[] =>
  [...bids]
    .map((bid) => ({ bid, key: rank(bid) }))
    .sort(
      ({ key: a }, { key: b }) =>
        b.amount - a.amount ||
        Number(b.id === leadingBidId) - Number(a.id === leadingBidId) ||
        compareText(a.placedAt, b.placedAt) ||
        compareText(a.id, b.id),
    )
    .map(({ bid }) => bid);

/** How many retracted bids an auction's detail shows (the latest; each bidder retracts once). */
export const RETRACTIONS_SHOWN = 20;

/** What a view needs of a retracted bid (money in cents); the bidder is joined by id. */
export interface RetractionFacts {
  readonly bidId: string;
  readonly bidderId: string;
  /** What it stood at when retracted. */
  readonly amount: number;
  readonly placedAt: string;
  readonly retractedAt: string;
}

export const retractionView = (
  retraction: RetractionFacts,
  bidder: PublicUser,
): RetractionView => ({
  _id: retraction.bidId,
  bidder,
  amount: centsToDollars(retraction.amount),
  createdAt: retraction.placedAt,
  retractedAt: retraction.retractedAt,
});

/**
 * The latest `limit` retractions, newest first (then by id, as the read store breaks ties): the
 * order and the bound every view and the realtime fold keep. Returns a sorted copy.
 */
export const latestRetractions = <T>(
  retractions: Iterable<T>,
  key: (retraction: T) => { readonly id: string; readonly retractedAt: string },
  limit = RETRACTIONS_SHOWN,
): T[] =>
  [...retractions]
    .map((retraction) => ({ retraction, key: key(retraction) }))
    .sort(
      ({ key: a }, { key: b }) =>
        compareText(b.retractedAt, a.retractedAt) || compareText(a.id, b.id),
    )
    .slice(0, limit)
    .map(({ retraction }) => retraction);
