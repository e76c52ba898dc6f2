/** What the reserve and Buy It Now rules read of an auction. Money in cents. */
export interface PriceFacts {
  readonly status: string;
  readonly reservePrice: number | null;
  readonly buyNowPrice: number | null;
  readonly leadingBidId: string | null;
  readonly currentBid: number;
}

/** What others may know of the reserve: whether there is one, and whether the leading bid reaches it. */
export type ReserveStatus = 'none' | 'not-met' | 'met';

export const reserveStatus = (auction: PriceFacts): ReserveStatus => {
  if (auction.reservePrice === null) return 'none';
  return auction.leadingBidId !== null && auction.currentBid >= auction.reservePrice
    ? 'met'
    : 'not-met';
};

/**
 * Whether Buy It Now is on offer: while the auction is Live, until a bid reaches the reserve (or,
 * without a reserve, until the first bid).
 */
export const buyNowOnOffer = (auction: PriceFacts): boolean => {
  if (auction.buyNowPrice === null || auction.status !== 'Live') return false;
  if (auction.reservePrice === null) return auction.leadingBidId === null;
  return reserveStatus(auction) === 'not-met';
};
