import type { AuctionView } from '@auction/contracts';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { notify } from '../../lib/toast';
import { usePagedList } from '../../lib/use-paged-list';
import { PagedAuctionGrid } from './paged-auction-grid';
import { watchlistApi } from '../../lib/watchlist-api';
import './dashboard.css';

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
  const list = usePagedList<AuctionView>(fetchWatched, 'watchlist', onError);
  const { setItems } = list;

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
      <PagedAuctionGrid
        list={list}
        loadingText="Loading your watchlist..."
        what="your watchlist"
        label="Watched auctions"
        empty={
          <div className="empty card">
            <h2>No Watched Auctions Yet</h2>
            <p>Tap the star on any auction to follow it here.</p>
            <Link to="/auctions" className="btn btn-primary">
              Browse Auctions
            </Link>
          </div>
        }
        cardProps={(auction) => ({
          onWatchChange: (watching) => {
            if (!watching) setItems((items) => items.filter((a) => a._id !== auction._id));
          },
        })}
      />
    </section>
  );
};
