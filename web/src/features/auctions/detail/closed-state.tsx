import type { AuctionView } from '@auction/contracts';
import { formatDateTime } from '../../../lib/format';

/**
 * What the price card calls the price, by how the auction stands: the current bid while Live, the
 * winning bid of a sale (what the buyer paid at Buy It Now), the highest bid of one that ended
 * without a sale or was cancelled.
 */
export const priceLabel = (auction: Pick<AuctionView, 'status' | 'boughtNow'>): string => {
  switch (auction.status) {
    case 'Live':
      return 'Current Bid';
    case 'Sold':
      return auction.boughtNow ? 'Sold For' : 'Winning Bid';
    case 'Expired':
    case 'Cancelled':
      return 'Highest Bid';
  }
};

/** The starting price card's count: the spec's "{n} bids are live" only while bids still can be. */
export const bidCountNote = (auction: Pick<AuctionView, 'status' | 'bidCount'>): string =>
  `${auction.bidCount} ${auction.status === 'Live' ? 'bids are live' : 'bids were placed'}`;

/**
 * When a closed auction stopped taking bids: `closedAt` (a Buy It Now sale closes before the
 * planned end), else its end (an auction the catalog closed before it kept `closedAt`).
 */
const closedAtOf = (auction: Pick<AuctionView, 'closedAt' | 'auctionEndTime'>): string =>
  auction.closedAt ?? auction.auctionEndTime;

/** In place of the countdown once the auction is no longer Live: it ended, and when. */
export const AuctionEnded = ({ auction }: { auction: AuctionView }) => {
  const at = closedAtOf(auction);
  return (
    <div className="auction-ended">
      <p className="auction-ended-title">
        {auction.boughtNow ? 'Sold with Buy It Now' : 'Auction ended'}
      </p>
      <p className="price-note">
        Ended <time dateTime={at}>{formatDateTime(at)}</time>
      </p>
    </div>
  );
};
