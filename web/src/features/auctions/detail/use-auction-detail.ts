import type { AuctionView, BidView, SessionUser } from '@auction/contracts';
import { remainingUntil } from '../../../lib/format';
import { useSession } from '../../../lib/session/store';
import { useNow } from '../../../lib/use-now';

const DAY_MS = 24 * 60 * 60 * 1000;

export const nameOf = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

/** Where the auction stands for this viewer at `now`: what every part of the page decides on. */
export interface AuctionStanding {
  now: number;
  user: SessionUser | null;
  userId: string | null;
  isLive: boolean;
  cancelled: boolean;
  /** Live and before its end: a live auction past its end waits for the server to close it. */
  biddingOpen: boolean;
  ended: boolean;
  closingSoon: boolean;
  isSeller: boolean;
  topBid: BidView | null;
  leading: boolean;
  outbid: boolean;
  /** The viewer's own secret maximum and its bid; only they are sent it. */
  myMaximum: number | null;
  myMaximumBidId: string | null;
  showsMaximum: boolean;
  /** The Buy It Now price while others may take it. */
  buyNowPrice: number | null;
}

export const standingOf = (
  auction: AuctionView,
  user: SessionUser | null,
  now: number,
): AuctionStanding => {
  const remainingMs = remainingUntil(auction.auctionEndTime, now).totalMs;
  const isLive = auction.status === 'Live';
  const biddingOpen = isLive && remainingMs > 0;
  const userId = user?._id ?? null;
  const isSeller = userId !== null && userId === auction.seller._id;
  const topBid =
    auction.bids.find((bid) => bid._id === auction.leadingBidId) ?? auction.bids[0] ?? null;
  // The own bid may be on a page not loaded: the detail names it for its bidder (`viewer`).
  const hasStandingBid =
    userId !== null &&
    ((auction.viewer?.bidId ?? null) !== null || auction.bids.some((b) => b.bidder._id === userId));
  const leading = userId !== null && topBid?.bidder._id === userId;
  const myMaximum = auction.viewer?.maxBid ?? null;
  return {
    now,
    user,
    userId,
    isLive,
    cancelled: auction.status === 'Cancelled',
    biddingOpen,
    ended: isLive && remainingMs === 0,
    closingSoon: biddingOpen && remainingMs <= DAY_MS,
    isSeller,
    topBid,
    leading,
    outbid: biddingOpen && hasStandingBid && !leading,
    myMaximum,
    myMaximumBidId: auction.viewer?.bidId ?? null,
    showsMaximum: leading && myMaximum !== null && myMaximum > auction.currentBid,
    buyNowPrice: biddingOpen && !isSeller ? auction.buyNowPrice : null,
  };
};

/** The viewer's standing, kept current by the second (the countdown, the end of bidding). */
export const useAuctionDetail = (auction: AuctionView): AuctionStanding => {
  const user = useSession((s) => s.user);
  const now = useNow(1000);
  return standingOf(auction, user, now);
};
