import { type AuctionView, type BidView, rules } from '@auction/contracts';
import { useMemo } from 'react';
import { formatMoney } from '../../../lib/format';
import { notify } from '../../../lib/toast';
import { useLiveAuction } from '../live-auction-store';
import { BidList, bidderName } from './bid-list';
import { RetractedBids } from './retracted-bids';
import { STALE_BADGE, type Staleness } from './link-state';
import type { AuctionStanding } from './use-auction-detail';

/**
 * The viewer's bids the retraction rules still let them delete: the server names them and their
 * grace period; none in the auction's last hour, nor one an automatic bid raised since. The set
 * keeps its identity while its contents stay, so the bid list re-renders only when it changes.
 */
const useDeletableBids = (
  auction: AuctionView,
  biddingOpen: boolean,
  now: number,
): ReadonlySet<string> => {
  const lastHour = Date.parse(auction.auctionEndTime) - rules.retraction.closingMs;
  const raised = new Set(auction.bids.filter((bid) => bid.automatic).map((bid) => bid._id));
  const ids = (auction.viewer?.retractable ?? [])
    .filter(
      ({ bidId, until }) =>
        biddingOpen && !raised.has(bidId) && now < Math.min(Date.parse(until), lastHour),
    )
    .map(({ bidId }) => bidId)
    .join(' ');
  return useMemo(() => new Set(ids === '' ? [] : ids.split(' ')), [ids]);
};

interface LiveBidsProps {
  auction: AuctionView;
  standing: AuctionStanding;
  /** While the page may be out of date, the live badge says so instead of "Live". */
  staleness: Staleness;
  onEdit: (bid: BidView) => void;
  onDelete: (bid: BidView) => void;
}

/** The bids as they arrive, the newest announced to screen readers, and the retractions. */
export const LiveBids = ({ auction, standing, staleness, onEdit, onDelete }: LiveBidsProps) => {
  const highlighted = useLiveAuction((s) => s.highlighted);
  const { biddingOpen, cancelled, isLive, now, userId } = standing;
  const deletable = useDeletableBids(auction, biddingOpen, now);
  const latestNew = auction.bids.find((bid) => highlighted.has(bid._id));
  return (
    <section className="live-bids" aria-labelledby="live-bids-heading">
      <div className="live-bids-header">
        <h2 id="live-bids-heading">Live Auction</h2>
        {isLive &&
          (staleness ? (
            <span className="live-dot live-dot-stale" aria-hidden="true">
              {STALE_BADGE[staleness]}
            </span>
          ) : (
            <span className="live-dot" aria-hidden="true">
              Live
            </span>
          ))}
      </div>
      <p className="sr-only" aria-live="polite">
        {latestNew ? `New bid of ${formatMoney(latestNew.amount)} by ${bidderName(latestNew)}` : ''}
      </p>
      <BidList
        bids={auction.bids}
        leadingBidId={auction.leadingBidId}
        highlighted={highlighted}
        userId={userId}
        canChange={biddingOpen}
        deletable={deletable}
        topLabel={auction.status === 'Sold' ? 'Winning bid' : cancelled ? null : 'Highest'}
        onEdit={onEdit}
        onDelete={onDelete}
      />
      <MoreBids auction={auction} />
      <RetractedBids retractions={auction.retractions} userId={userId} />
    </section>
  );
};

/** The standing bids after those shown, a page at a time, on request. */
const MoreBids = ({ auction }: { auction: AuctionView }) => {
  const loading = useLiveAuction((s) => s.loadingBids);
  const loadMoreBids = useLiveAuction((s) => s.loadMoreBids);
  if (auction.bidsNextCursor === null) return null;
  const more = auction.bidCount - auction.bids.length;
  const showMore = () =>
    void loadMoreBids().catch(() => notify.error('Cannot load more bids. Please try again.'));
  return (
    <div className="load-more">
      <button type="button" className="btn btn-ghost" disabled={loading} onClick={showMore}>
        {loading ? 'Loading…' : more > 0 ? `Show more bids (${more} more)` : 'Show more bids'}
      </button>
    </div>
  );
};
