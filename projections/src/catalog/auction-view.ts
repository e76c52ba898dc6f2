import {
  type AuctionSummary,
  type AuctionView,
  type BidFacts,
  type PublicUser,
  type RetractionFacts,
  bidView,
  centsToDollars,
  deletedUser,
  isoToMs,
  latestRetractions,
  retractionView,
  rules,
  standingOrder,
  toIsoTime,
} from '@auction/contracts';
import { type ImageUrl, imageView } from '../images';
import { priceView } from './price-view';

/**
 * What an auction's view is built from (money in cents), whichever fold produced it: the
 * catalog's documents, or the engine's state as the realtime gateway folds it.
 */
export type AuctionFacts = AuctionSummary & {
  readonly categoryName: string;
  /** Standing bids, in any order: a first page of them (`bid-pages.ts`). */
  readonly bids: readonly BidFacts[];
  /** The cursor of the standing bids after `bids`, null when `bids` holds them all. */
  readonly bidsNextCursor: string | null;
  /** How many bids stand (lists carry only the top few in `bids`). */
  readonly bidCount: number;
  /** Retracted bids, in any order (all of them, or the latest few). */
  readonly retractions: readonly RetractionFacts[];
  readonly createdAt: string;
  /** The stream revision the facts stand at. */
  readonly revision: number;
};

const shownRetractions = (facts: AuctionFacts): RetractionFacts[] =>
  latestRetractions(facts.retractions, (retraction) => ({
    id: retraction.bidId,
    retractedAt: retraction.retractedAt,
  }));

/** The users an auction's view names: seller, winner and the bidders it lists. */
export const usersOfAuction = (facts: AuctionFacts): string[] => {
  const ids = new Set<string>([facts.sellerId]);
  if (facts.winnerId !== null) ids.add(facts.winnerId);
  for (const bid of facts.bids) ids.add(bid.bidderId);
  for (const retraction of shownRetractions(facts)) ids.add(retraction.bidderId);
  return [...ids];
};

/**
 * An auction as every route and socket shows it: dollars, the standing bids in the order views
 * list them, the latest retractions, names joined from `users` ("Deleted user" for ids it lacks),
 * the reserve's state but never its amount.
 */
export const auctionView = (
  facts: AuctionFacts,
  users: ReadonlyMap<string, PublicUser>,
  imageUrl: ImageUrl,
): AuctionView => {
  const user = (id: string) => users.get(id) ?? deletedUser(id);
  const image = imageView(facts.image, imageUrl);
  const bids = standingOrder(facts.bids, facts.leadingBidId, (bid) => ({
    id: bid.bidId,
    amount: bid.amount,
    placedAt: bid.placedAt,
  }));
  return {
    _id: facts.auctionId,
    title: facts.title,
    description: facts.description,
    category: { _id: facts.categoryId, name: facts.categoryName },
    startingPrice: centsToDollars(facts.startingPrice),
    currentBid: centsToDollars(facts.currentBid),
    image,
    images: image,
    seller: user(facts.sellerId),
    auctionEndTime: facts.endsAt,
    increments: facts.increments,
    softClose: facts.softClose,
    extended: facts.extended,
    ...priceView(facts),
    status: facts.status,
    bids: bids.map((bid) => bidView(bid, user(bid.bidderId))),
    bidsNextCursor: facts.bidsNextCursor,
    bidCount: facts.bidCount,
    retractions: shownRetractions(facts).map((retraction) =>
      retractionView(retraction, user(retraction.bidderId)),
    ),
    createdAt: facts.createdAt,
    winner: facts.winnerId === null ? null : user(facts.winnerId),
    finalPrice: facts.finalPrice === null ? null : centsToDollars(facts.finalPrice),
    closedAt: facts.closedAt,
    revision: facts.revision,
  };
};

/** One of the viewer's own bids on an auction (money in cents), whichever fold holds it. */
export interface ViewerBidFacts {
  readonly bidId: string;
  readonly amount: number;
  /** The bidder's secret maximum (the amount when absent). */
  readonly maxAmount?: number | undefined;
  readonly retracted: boolean;
  /** When its bidder last entered it; a bid without it cannot be retracted. */
  readonly enteredAt?: string | undefined;
  /** Whether its bidder can no longer retract it (an automatic bid raised it, or it moved the end). */
  readonly bound?: boolean | undefined;
  /** Whether another's maximum answered it at once: then its bidder can retract no bid. */
  readonly answered?: boolean | undefined;
}

/**
 * What only `viewerId` may see of an auction, from their own bids on it (`mine`, retracted ones
 * included): their secret maximum (the largest of their standing bids', with that bid), the bids
 * they may still retract and until when (the page also hides them in the last hour), and the
 * reserve price when they are its seller. The catalog and the engine's state both answer through it.
 */
export const viewerView = (
  auction: {
    readonly status: string;
    readonly sellerId: string | null;
    readonly reservePrice?: number | null | undefined;
  },
  viewerId: string,
  mine: readonly ViewerBidFacts[],
): NonNullable<AuctionView['viewer']> => {
  let best: ViewerBidFacts | null = null;
  for (const bid of mine)
    if (
      !bid.retracted &&
      (best === null || (bid.maxAmount ?? bid.amount) > (best.maxAmount ?? best.amount))
    )
      best = bid;
  const retractable =
    auction.status !== 'Live' || mine.some((bid) => bid.retracted || bid.answered === true)
      ? []
      : mine.flatMap((bid) =>
          bid.bound === true || bid.enteredAt === undefined
            ? []
            : [
                {
                  bidId: bid.bidId,
                  until: toIsoTime(isoToMs(bid.enteredAt) + rules.retraction.graceMs),
                },
              ],
        );
  return {
    bidId: best?.bidId ?? null,
    maxBid: best === null ? null : centsToDollars(best.maxAmount ?? best.amount),
    reservePrice:
      auction.sellerId === viewerId &&
      auction.reservePrice !== undefined &&
      auction.reservePrice !== null
        ? centsToDollars(auction.reservePrice)
        : null,
    retractable,
  };
};
