import {
  type AuctionView,
  type BidView,
  type PublicUser,
  centsToDollars,
} from '@auction/contracts';
import type { AuctionState, BidState } from '@auction/engine';
import {
  type ImageUrl,
  deletedUser,
  imageView,
  priceView,
  storedImagePath,
} from '@auction/projections';

/** What the view shows that the decider's state does not keep. */
export interface AuctionFacts {
  /** The business time of `AuctionCreated`. */
  readonly createdAt: string;
  /** The category's name ('' while unknown, as in the catalog). */
  readonly categoryName: string;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The standing bids, highest first, as the catalog orders them (the leading bid first among equals). */
const standing = (state: AuctionState): BidState[] =>
  [...state.bids.values()]
    .filter((bid) => !bid.retracted)
    .sort(
      (a, b) =>
        b.amount - a.amount ||
        Number(b.bidId === state.leadingBidId) - Number(a.bidId === state.leadingBidId) ||
        compareText(a.placedAt, b.placedAt) ||
        compareText(a.bidId, b.bidId),
    );

/** The users an auction's view names: seller, winner and standing bidders. */
export const usersOfView = (state: AuctionState): string[] => {
  const ids = new Set<string>();
  if (state.sellerId !== null) ids.add(state.sellerId);
  if (state.winnerId !== null) ids.add(state.winnerId);
  for (const bid of state.bids.values()) if (!bid.retracted) ids.add(bid.bidderId);
  return [...ids];
};

/**
 * The auction at `revision` as the detail route shows it (`auctionDetail` in the catalog), built
 * from the gateway's fold of the stream, so it stands exactly at that revision.
 */
export const auctionView = (
  state: AuctionState,
  revision: number,
  facts: AuctionFacts,
  users: ReadonlyMap<string, PublicUser>,
  imageUrl: ImageUrl = storedImagePath,
): AuctionView => {
  const user = (id: string) => users.get(id) ?? deletedUser(id);
  const auctionId = state.auctionId ?? '';
  const image = imageView(state.image, imageUrl);
  const bids = standing(state);
  return {
    _id: auctionId,
    title: state.title,
    description: state.description,
    category: { _id: state.categoryId ?? '', name: facts.categoryName },
    startingPrice: centsToDollars(state.startingPrice),
    currentBid: centsToDollars(state.currentBid),
    image,
    images: image,
    seller: user(state.sellerId ?? ''),
    auctionEndTime: state.endsAt ?? '',
    softClose: state.softClose,
    extended: state.extended,
    ...priceView(state),
    status: state.status === 'None' ? 'Live' : state.status,
    bids: bids.map((bid): BidView => ({
      _id: bid.bidId,
      auctionId,
      bidAmount: centsToDollars(bid.amount),
      amount: centsToDollars(bid.amount),
      bidder: user(bid.bidderId),
      createdAt: bid.placedAt,
      ...(bid.automatic ? { automatic: true } : {}),
    })),
    bidCount: bids.length,
    createdAt: facts.createdAt,
    winner: state.winnerId === null ? null : user(state.winnerId),
    finalPrice: state.finalPrice === null ? null : centsToDollars(state.finalPrice),
    revision,
  };
};
