import type { AuctionView } from '@auction/contracts';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { LoadMore } from '../../components/load-more';
import { notify } from '../../lib/toast';
import { usePagedList } from '../../lib/use-paged-list';
import { AuctionCard } from '../auctions/auction-card';
import { watchlistApi } from './api';
import '../dashboard/dashboard.css';

const fetchWatched = async (cursor: string | undefined) => {
  const { auctions, nextCursor } = await watchlistApi.page({ cursor });
  return { items: auctions, nextCursor };
};

/** Dashboard › Watchlist: the auctions the user watches, most recently watched first. */
export const WatchlistPage = () => {
  const onError = useCallback((error: unknown) => {
    console.error(error);
    notify.error('Cannot fetch your watchlist');
  }, []);
  const { items, setItems, loading, loadingMore, hasMore, loadMore, sentinelRef } =
    usePagedList<AuctionView>(fetchWatched, 'watchlist', onError);

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>Watchlist</h1>
          <p className="muted">
            Auctions you watch. You are told when each is about to end, and when it ends.
          </p>
        </div>
      </header>
      {loading ? (
        <p className="dashboard-loading" role="status">
          Loading your watchlist...
        </p>
      ) : items.length === 0 && !hasMore ? (
        <div className="empty card">
          <h2>No Watched Auctions Yet</h2>
          <p>Tap the star on any auction to follow it here.</p>
          <Link to="/auctions" className="btn btn-primary">
            Browse Auctions
          </Link>
        </div>
      ) : (
        <ul className="grid auction-grid mine-grid" aria-label="Watched auctions">
          {items.map((auction) => (
            <li key={auction._id}>
              <AuctionCard
                auction={auction}
                headingLevel="h2"
                showStatus
                onWatchChange={(watching) => {
                  if (!watching) setItems((list) => list.filter((a) => a._id !== auction._id));
                }}
              />
            </li>
          ))}
        </ul>
      )}
      {!loading && (
        <LoadMore
          hasMore={hasMore}
          loading={loadingMore}
          onMore={loadMore}
          sentinel={sentinelRef}
        />
      )}
    </section>
  );
};
