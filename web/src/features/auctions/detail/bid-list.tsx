import { type BidView, sortBids } from '@auction/contracts';
import { memo, useMemo } from 'react';
import { Avatar } from '../../../components/avatar';
import { formatDateTime, formatMoney } from '../../../lib/format';

export const bidderName = (bid: BidView) => `${bid.bidder.firstName} ${bid.bidder.lastName}`.trim();

interface BidListProps {
  bids: readonly BidView[];
  /** The bid that leads: first among equal amounts (its maximum came first). */
  leadingBidId: string | null;
  highlighted: ReadonlySet<string>;
  userId: string | null;
  /** Whether the owner of a bid may still edit it (the auction is open). */
  canChange: boolean;
  /** The owner's bids the retraction rules still let them delete. */
  deletable: ReadonlySet<string>;
  /** The badge of the top bid: 'Highest' while bidding, 'Winning bid' once sold. */
  /** The first bid's badge; none on a cancelled auction, where nobody leads. */
  topLabel: string | null;
  onEdit: (bid: BidView) => void;
  onDelete: (bid: BidView) => void;
}

/** The standing bids, highest first; a bid that just arrived is highlighted. */
export const BidList = memo(function BidList({
  bids,
  leadingBidId,
  highlighted,
  userId,
  canChange,
  deletable,
  topLabel,
  onEdit,
  onDelete,
}: BidListProps) {
  const sorted = useMemo(() => sortBids(bids, leadingBidId), [bids, leadingBidId]);
  if (sorted.length === 0) return <p className="bids-empty">No Bids Yet!!</p>;
  return (
    <ol className="bid-list" aria-label="Live Auction">
      {sorted.map((bid, index) => {
        const own = userId !== null && bid.bidder._id === userId;
        const name = bidderName(bid);
        return (
          <li
            key={bid._id}
            className={`bid-item${highlighted.has(bid._id) ? ' bid-new' : ''}${own ? ' bid-own' : ''}`}
          >
            <Avatar name={name} imageUrl={bid.bidder.image?.url} size={44} />
            <div className="bid-who">
              <p className="bid-name">
                {name}
                {own && <span className="badge badge-brand">You</span>}
                {index === 0 && topLabel !== null && (
                  <span className="badge badge-green">{topLabel}</span>
                )}
                {bid.automatic ? (
                  <span
                    className="badge badge-grey"
                    title="Bid by the system, up to a secret maximum"
                  >
                    Automatic
                  </span>
                ) : null}
              </p>
              <time className="bid-time" dateTime={bid.createdAt}>
                {formatDateTime(bid.createdAt)}
              </time>
            </div>
            <p className="bid-amount">{formatMoney(bid.amount)}</p>
            {own && canChange && (
              <div className="bid-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Edit bid"
                  onClick={() => onEdit(bid)}
                >
                  Edit
                </button>
                {deletable.has(bid._id) && (
                  <button
                    type="button"
                    className="icon-button danger"
                    aria-label="Delete bid"
                    onClick={() => onDelete(bid)}
                  >
                    Delete
                  </button>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
});
