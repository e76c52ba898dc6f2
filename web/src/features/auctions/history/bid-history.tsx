import type { PriceHistoryEntry } from '@auction/contracts';
import { useState } from 'react';
import { formatMoney } from '../../../lib/format';
import { clock, entryNotes, entryTitle } from './price-history-model';

/** Rows shown at first, and added by each "Show more". */
export const HISTORY_ROWS = 25;

const KIND_LABEL: Record<PriceHistoryEntry['kind'], string> = {
  opened: 'Opened',
  bid: 'Bid',
  raise: 'Raise',
  automatic: 'Automatic',
  retraction: 'Retracted',
  edited: 'Edited',
  closed: 'Closed',
  cancelled: 'Cancelled',
};

/**
 * Every price move in time order, each at its own time to the second: bids, raises as their own
 * rows, automatic bids labelled, retractions, the close. The spec's "Live Auction" list above
 * stays the standing bids; this is how the price got there.
 */
export const BidHistory = ({ entries }: { entries: readonly PriceHistoryEntry[] }) => {
  const [shown, setShown] = useState(HISTORY_ROWS);
  const rows = entries.slice(0, shown);
  return (
    <div className="bid-history">
      <table>
        <caption className="sr-only">Every bid and price change, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Kind</th>
            <th scope="col">What happened</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              Price after
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((entry) => {
            const notes = entryNotes(entry);
            return (
              <tr
                key={entry.revision}
                data-revision={entry.revision}
                data-kind={entry.kind}
                className={`history-row history-${entry.kind}`}
              >
                <td>
                  <time dateTime={entry.at}>{clock(entry.at)}</time>
                </td>
                <td>
                  <span className={`history-kind history-kind-${entry.kind}`}>
                    {KIND_LABEL[entry.kind]}
                  </span>
                </td>
                <td>
                  {entryTitle(entry)}
                  {notes.length > 0 && <span className="history-notes"> ({notes.join('; ')})</span>}
                </td>
                <td className="num">{entry.amount === null ? '' : formatMoney(entry.amount)}</td>
                <td className="num">{entry.price > 0 ? formatMoney(entry.price) : '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {entries.length > shown && (
        <button
          type="button"
          className="btn btn-outline btn-small"
          onClick={() => setShown((n) => n + HISTORY_ROWS)}
        >
          Show more ({entries.length - shown} more)
        </button>
      )}
    </div>
  );
};
