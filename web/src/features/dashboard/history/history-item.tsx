import type { HistoryEntry } from '@auction/contracts';
import { Link } from 'react-router';
import { AuctionImage } from '../../../components/auction-image';
import { Badge, historyStatusTone } from '../../../components/status';
import { formatDate, formatMoney } from '../../../lib/format';

const LABELS: Record<string, string> = { won: 'Won', created: 'Created', bid: 'Bid Placed' };
const TYPE_TONES: Record<string, string> = { won: 'green', created: 'brand', bid: 'blue' };

/** One entry: the auction, what the user did, its state and the amount. */
export const HistoryItem = ({ entry }: { entry: HistoryEntry }) => (
  <li>
    <Link to={`/auction/${entry.auctionId}`} className="card history-item">
      <AuctionImage url={entry.image} alt={entry.title} className="history-thumb" />
      <div className="history-body">
        <h2 className="history-title">{entry.title}</h2>
        <div className="row history-badges">
          <Badge tone={TYPE_TONES[entry.type] ?? 'grey'}>{entry.type}</Badge>
          <Badge tone={historyStatusTone(entry.status)}>{entry.status}</Badge>
          <time className="muted" dateTime={entry.date}>
            {formatDate(entry.date)}
          </time>
        </div>
      </div>
      <div className="history-amount">
        <span className="history-label">{LABELS[entry.type] ?? 'Activity'}</span>
        <strong>{formatMoney(entry.amount)}</strong>
      </div>
    </Link>
  </li>
);
