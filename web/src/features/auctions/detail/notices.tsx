import type { AuctionView } from '@auction/contracts';
import { Avatar } from '../../../components/avatar';
import { formatMoney } from '../../../lib/format';
import { useLiveAuction } from '../live-auction-store';
import { LinkNotice, type Staleness } from './link-state';
import { nameOf, type AuctionStanding } from './use-auction-detail';

/**
 * What the page says above the prices: out of date (the socket is down), catching up, closing
 * soon, and how the auction ended.
 */
export const AuctionNotices = ({
  auction,
  standing,
  staleness,
}: {
  auction: AuctionView;
  standing: AuctionStanding;
  staleness: Staleness;
}) => {
  const behind = useLiveAuction((s) => s.behind);
  return (
    <>
      <LinkNotice staleness={staleness} />
      {/* Always in the page, so a screen reader hears the notice when it appears. */}
      <div role="status" className="catching-up-region">
        {behind && (
          <p className="catching-up">
            Some of your recent changes are still being applied. This page will update when they
            are.
          </p>
        )}
      </div>
      {standing.closingSoon && (
        <p className="closing-soon" role="status">
          Auction Closing soon - Place your Bid!
        </p>
      )}
      <Outcome auction={auction} viewerId={standing.userId} />
      {standing.ended && (
        <p className="outcome outcome-ending" role="status">
          Bidding has ended. The result will appear in a moment.
        </p>
      )}
    </>
  );
};

/** How the auction ended; its winner reads the sale as theirs ("You won"), everyone else its buyer. */
const Outcome = ({ auction, viewerId }: { auction: AuctionView; viewerId: string | null }) => {
  if (auction.status === 'Sold') {
    const price = formatMoney(auction.finalPrice ?? auction.currentBid);
    const how = auction.boughtNow ? ' with Buy It Now' : '';
    return (
      <div className="outcome outcome-sold" role="status">
        {auction.winner && viewerId !== null && auction.winner._id === viewerId ? (
          <p>
            <strong>You won</strong> this auction for <strong>{price}</strong>
            {how}
          </p>
        ) : auction.winner ? (
          <>
            <Avatar name={nameOf(auction.winner)} imageUrl={auction.winner.image?.url} size={40} />
            <p>
              Sold to <strong>{nameOf(auction.winner)}</strong> for <strong>{price}</strong>
              {auction.boughtNow ? ' with Buy It Now' : ''}
            </p>
          </>
        ) : (
          <p>
            Sold for <strong>{price}</strong>
          </p>
        )}
      </div>
    );
  }
  if (auction.status === 'Expired')
    return (
      <p className="outcome outcome-expired" role="status">
        {auction.reserve === 'not-met' && auction.bidCount > 0
          ? 'This auction ended without a sale: no bid reached the reserve price.'
          : 'This auction has expired without a winning bid.'}
      </p>
    );
  if (auction.status === 'Cancelled')
    return (
      <p className="outcome outcome-cancelled" role="status">
        This auction was cancelled by the seller.
      </p>
    );
  return null;
};

/** What the page tells a bidder below the prices: outbid, or leading (with their maximum). */
export const BidderNotices = ({ standing }: { standing: AuctionStanding }) => {
  const { biddingOpen, leading, outbid, showsMaximum, myMaximum } = standing;
  return (
    <>
      {outbid && (
        <p className="alert alert-danger outbid" role="alert">
          Someone outbid you. Increase your bid to win!
        </p>
      )}
      {biddingOpen && leading && (
        <p className="leading" role="status">
          {showsMaximum && myMaximum !== null
            ? `You are the highest bidder (your maximum ${formatMoney(myMaximum)}).`
            : 'You are the highest bidder.'}
        </p>
      )}
    </>
  );
};
