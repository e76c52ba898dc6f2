import type { AuctionView } from '@auction/contracts';
import { useNavigate } from 'react-router';
import { formatMoney } from '../../../lib/format';
import { enterOrMore } from './bid-dialogs';
import type { AuctionStanding } from './use-auction-detail';
import type { Dialog } from './use-bid-actions';

interface BidPanelProps {
  auction: AuctionView;
  standing: AuctionStanding;
  open: (dialog: Dialog) => void;
}

/**
 * The next acceptable bid ("Enter $X or more"), Place Bid, Raise maximum and Buy It Now, or why
 * the viewer cannot bid.
 */
export const BidPanel = ({ auction, standing, open }: BidPanelProps) => {
  const navigate = useNavigate();
  const { user, cancelled, isSeller, biddingOpen } = standing;
  if (cancelled) return null;
  if (isSeller)
    return <p className="muted bid-reason">This is your auction, so you cannot bid on it.</p>;
  if (!biddingOpen) return <BiddingClosed />;
  // A guest logs in first, and comes back here to bid.
  const openForUser = (dialog: Dialog) =>
    user ? open(dialog) : void navigate('/login', { state: { from: `/auction/${auction._id}` } });
  const { leading, myMaximum, myMaximumBidId, buyNowPrice } = standing;
  return (
    <>
      <p className="next-bid-note">{enterOrMore(auction)}</p>
      <button
        type="button"
        className="btn btn-primary btn-lg"
        onClick={() => openForUser({ kind: 'place' })}
      >
        Place Bid
      </button>
      {leading && myMaximumBidId !== null && myMaximum !== null ? (
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => open({ kind: 'maximum', bidId: myMaximumBidId, maxBid: myMaximum })}
        >
          Raise maximum
        </button>
      ) : null}
      {buyNowPrice !== null ? (
        <button
          type="button"
          className="btn btn-accent btn-lg"
          onClick={() => openForUser({ kind: 'buyNow', price: buyNowPrice })}
        >
          Buy It Now for {formatMoney(buyNowPrice)}
        </button>
      ) : null}
      {!user && <p className="muted bid-reason">Log in to place a bid.</p>}
    </>
  );
};

const BiddingClosed = () => (
  <>
    <button
      type="button"
      className="btn btn-primary btn-lg"
      disabled
      aria-describedby="bid-closed-reason"
    >
      Place Bid
    </button>
    <p id="bid-closed-reason" className="muted bid-reason">
      Bidding is closed for this auction.
    </p>
  </>
);
