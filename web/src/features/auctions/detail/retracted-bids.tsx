import type { RetractionView } from '@auction/contracts';
import { memo } from 'react';
import { formatClockTime, formatDateTime, formatMoney } from '../../../lib/format';

interface RetractedBidsProps {
  retractions: readonly RetractionView[];
  userId: string | null;
}

/** Bids taken back, newest first: everyone sees who retracted what, and when. */
export const RetractedBids = memo(function RetractedBids({
  retractions,
  userId,
}: RetractedBidsProps) {
  if (retractions.length === 0) return null;
  return (
    <section className="retracted-bids" aria-labelledby="retracted-bids-heading">
      <h3 id="retracted-bids-heading">Retracted bids</h3>
      <ol className="bid-list" aria-label="Retracted bids">
        {retractions.map((retraction) => {
          const name = `${retraction.bidder.firstName} ${retraction.bidder.lastName}`.trim();
          return (
            <li key={retraction._id} className="bid-item bid-retracted">
              <div className="bid-who">
                <p className="bid-name">
                  {name}
                  {userId !== null && retraction.bidder._id === userId && (
                    <span className="badge badge-brand">You</span>
                  )}
                </p>
                <time
                  className="bid-time"
                  dateTime={retraction.retractedAt}
                  title={`Placed ${formatDateTime(retraction.createdAt)}`}
                >
                  Retracted at {formatClockTime(retraction.retractedAt)}
                </time>
              </div>
              <p className="bid-amount">
                <s>{formatMoney(retraction.amount)}</s>
              </p>
            </li>
          );
        })}
      </ol>
    </section>
  );
});
