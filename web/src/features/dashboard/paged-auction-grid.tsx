import type { AuctionView } from '@auction/contracts';
import type { ReactNode } from 'react';
import { ListFailed } from '../../components/list-failed';
import { LoadMore } from '../../components/load-more';
import type { PagedList } from '../../lib/use-paged-list';
import { AuctionCard } from '../../components/auction-card';

interface PagedAuctionGridProps {
  /** The list as `usePagedList` keeps it. */
  list: PagedList<AuctionView>;
  /** Said while the first page is on its way. */
  loadingText: string;
  /** Shown when the list turns out empty. */
  empty: ReactNode;
  /** What the list holds, for its error ("Could not load your watchlist."). */
  what: string;
  /** The grid's accessible name, when the page's heading does not say it. */
  label?: string;
  /** What each card shows beside its own links (the owner's buttons, a star's follow-up). */
  cardProps?: (auction: AuctionView) => {
    actions?: ReactNode;
    onWatchChange?: (watching: boolean) => void;
  };
}

/**
 * A dashboard list of the user's auctions: loading, failed (with Retry), empty, or cards a page
 * at a time.
 */
export const PagedAuctionGrid = ({
  list,
  loadingText,
  empty,
  what,
  label,
  cardProps,
}: PagedAuctionGridProps) => {
  if (list.loading)
    return (
      <p className="dashboard-loading" role="status">
        {loadingText}
      </p>
    );
  if (list.failed) return <ListFailed what={what} onRetry={list.retry} />;
  if (list.items.length === 0 && !list.hasMore) return <>{empty}</>;
  return (
    <>
      <ul className="grid auction-grid mine-grid" aria-label={label}>
        {list.items.map((auction) => (
          <li key={auction._id}>
            <AuctionCard auction={auction} headingLevel="h2" showStatus {...cardProps?.(auction)} />
          </li>
        ))}
      </ul>
      <LoadMore
        hasMore={list.hasMore}
        loading={list.loadingMore}
        onMore={list.loadMore}
        sentinel={list.sentinelRef}
      />
    </>
  );
};
