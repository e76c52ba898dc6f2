import type { AuctionView } from '@auction/contracts';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { TimeLeft } from '../../../components/time-left';
import { formatMoney } from '../../../lib/format';
import type { AuctionStanding } from './use-auction-detail';
import type { Dialog } from './use-bid-actions';
import './sticky-bid-bar.css';

/** The class the page's body wears while the bar is shown: room at the page's end for it. */
const BODY_CLASS = 'has-bid-bar';

interface StickyBidBarProps {
  auction: AuctionView;
  standing: AuctionStanding;
  open: (dialog: Dialog) => void;
}

/**
 * On a narrow screen, where the price and the bid button are below the fold: a bar fixed to the
 * bottom with the current price, the time left and Bid, which opens the same dialog as Place Bid
 * (a guest logs in first). Shown while the viewer may bid; wider screens never show it (CSS), and
 * the body keeps room for it at the page's end so it covers no content.
 */
export const StickyBidBar = ({ auction, standing, open }: StickyBidBarProps) => {
  const navigate = useNavigate();
  const shown = standing.biddingOpen && !standing.isSeller;
  useEffect(() => {
    if (!shown) return;
    document.body.classList.add(BODY_CLASS);
    return () => document.body.classList.remove(BODY_CLASS);
  }, [shown]);
  if (!shown) return null;
  const hasBid = auction.bidCount > 0;
  const bid = () =>
    standing.user
      ? open({ kind: 'place' })
      : void navigate('/login', { state: { from: `/auction/${auction._id}` } });
  return (
    <aside className="sticky-bid-bar" aria-label="Bid on this auction">
      <div className="sticky-bid-facts">
        <p className="sticky-bid-price">
          <span className="sticky-bid-label">{hasBid ? 'Current bid' : 'Starting price'}</span>{' '}
          <strong>{formatMoney(hasBid ? auction.currentBid : auction.startingPrice)}</strong>
        </p>
        <p className="sticky-bid-left">
          <TimeLeft endsAt={auction.auctionEndTime} />
        </p>
      </div>
      <button type="button" className="btn btn-primary sticky-bid-button" onClick={bid}>
        Bid
      </button>
    </aside>
  );
};
