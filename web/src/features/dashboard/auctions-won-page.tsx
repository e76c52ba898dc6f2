import type { WinningItem, WinningsStatistics } from '@auction/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { AuctionImage } from '../../components/auction-image';
import { ListFailed } from '../../components/list-failed';
import { formatDate, formatMoney } from '../../lib/format';
import { useRefetchOnReconnect } from '../../lib/use-socket-link';
import { dashboardApi } from './api';
import { SummaryChart } from './summary-chart';
import { winningsSeries } from './summary-series';
import './dashboard.css';

const NO_STATISTICS: WinningsStatistics = {
  totalItems: 0,
  totalValue: 0,
  totalSavings: 0,
  averageSavings: 0,
};

const WonCard = ({ item }: { item: WinningItem }) => {
  const savings = item.originalPrice - item.finalPrice;
  return (
    <li className="card won-card">
      <div className="won-media">
        <AuctionImage url={item.image?.url} alt={item.title} />
        <span className="badge badge-green won-badge">Won</span>
      </div>
      <div className="won-body">
        <h2 className="won-title">{item.title}</h2>
        <p className="muted won-description">{item.description || 'No description available'}</p>
        <div className="won-price-row">
          <div>
            <p className="won-price-label">Final price</p>
            <p className="won-price">{formatMoney(item.finalPrice)}</p>
          </div>
          <span className={`badge ${savings >= 0 ? 'badge-green' : 'badge-amber'}`}>
            Savings {formatMoney(savings)}
          </span>
        </div>
        <dl className="won-facts">
          <div>
            <dt>Original Price</dt>
            <dd>{formatMoney(item.originalPrice)}</dd>
          </div>
          <div>
            <dt>Won Date</dt>
            <dd>{formatDate(item.wonDate)}</dd>
          </div>
          <div>
            <dt>Category</dt>
            <dd>{item.category ?? 'N/A'}</dd>
          </div>
          {item.seller ? (
            <div>
              <dt>Seller</dt>
              <dd>{item.seller}</dd>
            </div>
          ) : null}
        </dl>
        <div className="won-actions">
          <Link
            to={`/auction/${item.id}`}
            className="btn btn-primary btn-sm"
            aria-label={`View Details of ${item.title}`}
          >
            View Details
          </Link>
          <button type="button" className="btn btn-ghost btn-sm" disabled title="Coming soon">
            Contact Seller
          </button>
        </div>
      </div>
    </li>
  );
};

/**
 * The items the user won, with totals and savings (spec §2 Auctions Won); fetched again when the
 * socket comes back, and an error with Retry (not "No Winnings Yet") when they cannot be fetched.
 */
export const AuctionsWonPage = () => {
  const [winnings, setWinnings] = useState<WinningItem[]>([]);
  const [statistics, setStatistics] = useState<WinningsStatistics>(NO_STATISTICS);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const loaded = useRef(false);
  /** Bumped by Retry and by the socket coming back: each fetches the winnings again. */
  const [attempt, setAttempt] = useState(0);
  useRefetchOnReconnect(() => setAttempt((n) => n + 1));

  useEffect(() => {
    let current = true;
    dashboardApi
      .winnings()
      .then((result) => {
        if (!current) return;
        setWinnings(result.winnings);
        setStatistics(result.statistics);
        loaded.current = true;
        setFailed(false);
      })
      .catch((error: unknown) => {
        console.error('Cannot fetch user winnings', error);
        // A refetch that fails keeps what was shown; with nothing shown yet, the page says so.
        if (current && !loaded.current) setFailed(true);
      })
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [attempt]);

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>Auctions Won</h1>
          <p className="muted">Everything you came out on top for.</p>
        </div>
      </header>
      {loading ? (
        <p className="dashboard-loading" role="status">
          Loading your winnings...
        </p>
      ) : failed ? (
        <ListFailed
          what="your winnings"
          onRetry={() => {
            setLoading(true);
            setAttempt((n) => n + 1);
          }}
        />
      ) : (
        <>
          <div className="grid-4 summary">
            <div className="stat-card">
              <p className="stat-label">Items Won</p>
              <p className="stat-value">{statistics.totalItems}</p>
            </div>
            <div className="stat-card">
              <p className="stat-label">Total Value</p>
              <p className="stat-value">{formatMoney(statistics.totalValue)}</p>
            </div>
            <div className="stat-card">
              <p className="stat-label">Total Savings</p>
              <p className="stat-value">{formatMoney(statistics.totalSavings)}</p>
            </div>
            <div className="stat-card">
              <p className="stat-label">Avg. Savings</p>
              <p className="stat-value">{formatMoney(statistics.averageSavings)}</p>
            </div>
          </div>
          {winnings.length > 0 && (
            <SummaryChart
              title="Your winnings over time"
              series={winningsSeries(winnings)}
              empty="No winnings yet."
            />
          )}
          {winnings.length === 0 ? (
            <div className="empty card">
              <h2>No Winnings Yet</h2>
              <p>Start bidding on auctions to win amazing items</p>
              <Link to="/auctions" className="btn btn-primary">
                Browse Auctions
              </Link>
            </div>
          ) : (
            <ul className="won-grid">
              {winnings.map((item) => (
                <WonCard key={item.id} item={item} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
};
