import type { AuctionView } from '@auction/contracts';
import { AuctionCard, AuctionCardSkeleton } from '../../../components/auction-card';
import { ListFailed } from '../../../components/list-failed';
import { LoadMore } from '../../../components/load-more';
import type { PagedList } from '../../../lib/use-paged-list';

/**
 * How many are shown ("12+" while more pages remain), then the cards, skeletons, the empty note,
 * or, when the list could not be fetched, the error with Retry (never the empty note).
 */
export const AuctionResults = ({
  list,
  filtered,
}: {
  list: PagedList<AuctionView>;
  filtered: boolean;
}) => {
  const { items: shown, loading, loadingMore, hasMore, loadMore, sentinelRef, failed } = list;
  return (
    <>
      <p className="auction-count muted" role="status">
        {loading
          ? 'Loading auctions…'
          : failed
            ? 'Auctions could not be loaded'
            : `${shown.length}${hasMore ? '+' : ''} ${shown.length === 1 && !hasMore ? 'auction' : 'auctions'}`}
      </p>

      {loading ? (
        <div className="grid" aria-hidden="true">
          {[0, 1, 2, 3].map((key) => (
            <AuctionCardSkeleton key={key} />
          ))}
        </div>
      ) : failed ? (
        <ListFailed what="auctions" onRetry={list.retry} />
      ) : shown.length === 0 ? (
        <div className="empty card">
          <h2>No auctions found.</h2>
          {filtered && <p>Try another title or category.</p>}
        </div>
      ) : (
        <>
          <ul className="grid auction-grid">
            {shown.map((auction) => (
              <li key={auction._id}>
                <AuctionCard auction={auction} headingLevel="h2" />
              </li>
            ))}
          </ul>
          <LoadMore
            hasMore={hasMore}
            loading={loadingMore}
            onMore={loadMore}
            sentinel={sentinelRef}
          />
        </>
      )}
    </>
  );
};
