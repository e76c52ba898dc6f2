import type { AuctionView } from '@auction/contracts';
import { closedAtOf } from '../../../components/time-left';
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
  auction.status === 'Live'
    ? `${auction.bidCount} bids are live`
    : `${auction.bidCount} ${auction.bidCount === 1 ? 'bid was' : 'bids were'} placed`;

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
