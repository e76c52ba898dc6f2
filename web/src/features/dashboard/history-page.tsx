import type { HistoryEntry } from '@auction/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AuctionImage } from '../../components/auction-image';
import { Badge, historyStatusTone } from '../../components/status';
import { formatDate, formatMoney } from '../../lib/format';
import { type HistoryFilter, dashboardApi } from './api';
import './dashboard.css';

const FILTERS: { value: HistoryFilter; label: string }[] = [
  { value: 'all', label: 'All Activities' },
  { value: 'created', label: 'Created' },
  { value: 'won', label: 'Won' },
  { value: 'bid', label: 'Bid' },
];

const LIST_LIMIT = 20;
/** The most the server returns at once: the summary counts the latest this many. */
const SUMMARY_LIMIT = 100;

const LABELS: Record<string, string> = { won: 'Won', created: 'Created', bid: 'Bid Placed' };
const TYPE_TONES: Record<string, string> = { won: 'green', created: 'brand', bid: 'blue' };

const HistoryItem = ({ entry }: { entry: HistoryEntry }) => (
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

const count = (entries: HistoryEntry[], type: HistoryEntry['type']) =>
  entries.filter((entry) => entry.type === type).length;

/** Everything the user did, filterable by kind, with counts of each (spec §2 History). */
export const HistoryPage = () => {
  const [all, setAll] = useState<HistoryEntry[]>([]);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const [loading, setLoading] = useState(true);
  const [listLoading, setListLoading] = useState(false);
  const latest = useRef(0);

  useEffect(() => {
    let active = true;
    dashboardApi
      .history('all', SUMMARY_LIMIT)
      .then(({ history }) => {
        if (!active) return;
        setAll(history);
        if (latest.current === 0) setEntries(history.slice(0, LIST_LIMIT));
      })
      .catch((error: unknown) => console.error('Cannot fetch user history', error))
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
    };
  }, []);

  const choose = (next: HistoryFilter) => {
    if (next === filter) return;
    setFilter(next);
    const request = ++latest.current;
    setListLoading(true);
    dashboardApi
      .history(next, LIST_LIMIT)
      .then(({ history }) => {
        if (request === latest.current) setEntries(history);
      })
      .catch((error: unknown) => {
        console.error('Cannot fetch user history', error);
        if (request === latest.current) setEntries([]);
      })
      .finally(() => {
        if (request === latest.current) setListLoading(false);
      });
  };

  const summary = [
    { label: 'Total Activities', value: all.length },
    { label: 'Items Won', value: count(all, 'won') },
    { label: 'Auctions Created', value: count(all, 'created') },
    { label: 'Bids Placed', value: count(all, 'bid') },
  ];

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>History</h1>
          <p className="muted">Your auctions, bids and wins over time.</p>
        </div>
      </header>
      {loading ? (
        <p className="dashboard-loading" role="status">
          Loading your history...
        </p>
      ) : (
        <>
          <div className="grid-4 summary">
            {summary.map((card) => (
              <div key={card.label} className="stat-card">
                <p className="stat-label">{card.label}</p>
                <p className="stat-value">{card.value}</p>
              </div>
            ))}
          </div>
          <div className="filters" role="group" aria-label="Filter history">
            {FILTERS.map((option) => (
              <button
                key={option.value}
                type="button"
                aria-pressed={filter === option.value}
                onClick={() => choose(option.value)}
              >
                {option.label}
              </button>
            ))}
          </div>
          <div aria-busy={listLoading} aria-live="polite">
            {entries.length === 0 && !listLoading ? (
              <div className="empty card">
                <h2>No History Yet</h2>
                <p>Start participating in auctions to see your history here</p>
              </div>
            ) : (
              <ul className={`history-list ${listLoading ? 'is-loading' : ''}`}>
                {entries.map((entry) => (
                  <HistoryItem key={`${entry.type}-${entry.id}`} entry={entry} />
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
};
