import type { CategoryView } from '@auction/contracts';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { notify } from '../../lib/toast';
import { usePagedList } from '../../lib/use-paged-list';
import { auctionsApi } from '../../lib/auctions-api';
import { AuctionCard, AuctionCardSkeleton } from '../../components/auction-card';
import { LoadMore } from '../../components/load-more';
import { filterCategoryNames } from '../../lib/categories';
import './auctions.css';

/** The text typed, once the typing has paused for `delayMs`. */
const useSettled = (value: string, delayMs = 250): string => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
};

/**
 * Every live auction, a page at a time as the user scrolls. The server filters (spec §5:
 * case-insensitive substring on the title, exact match on the category name) over all of them;
 * the filter lives in the URL.
 */
export const AllAuctionsPage = () => {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const search = useSettled(query.trim());
  const searchId = useId();
  const categoryId = useId();
  const [categories, setCategories] = useState<readonly CategoryView[]>([]);
  const categoryNames = useMemo(
    () => filterCategoryNames(categories, category),
    [categories, category],
  );

  // The filter offers every category, those users made too (the spec's eight stay if this fails).
  useEffect(() => {
    let active = true;
    auctionsApi
      .allCategories()
      .then((all) => {
        if (active) setCategories(all);
      })
      .catch((error: unknown) => console.error('Cannot fetch categories', error));
    return () => {
      active = false;
    };
  }, []);

  const fetchPage = useCallback(
    async (cursor: string | undefined) => {
      const { auctions, nextCursor } = await auctionsApi.all({ search, category }, { cursor });
      return { items: auctions, nextCursor };
    },
    [search, category],
  );
  const onError = useCallback((error: unknown) => {
    console.error('Cannot fetch auctions', error);
    notify.error('No Auctions Currently Present');
  }, []);
  const {
    items: shown,
    loading,
    loadingMore,
    hasMore,
    loadMore,
    sentinelRef,
  } = usePagedList(fetchPage, JSON.stringify([search, category]), onError);

  const setFilter = (key: 'q' | 'category', value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  const filtered = Boolean(query.trim() || category);

  return (
    <section className="page auctions-page" aria-labelledby="auctions-heading">
      <header className="auctions-header">
        <div>
          <h1 id="auctions-heading">All Auctions</h1>
          <p className="muted">
            Find something you love and place your bid before the clock runs out.
          </p>
        </div>
      </header>

      <form className="auction-filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <div className="field auction-filter-search">
          <label htmlFor={searchId}>Search by title</label>
          <input
            id={searchId}
            type="search"
            placeholder="Search by title"
            value={query}
            onChange={(event) => setFilter('q', event.target.value)}
            autoComplete="off"
          />
        </div>
        <div className="field auction-filter-category">
          <label htmlFor={categoryId}>Category</label>
          <select
            id={categoryId}
            value={category}
            onChange={(event) => setFilter('category', event.target.value)}
          >
            <option value="">All Categories</option>
            {categoryNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button
            type="button"
            className="btn btn-ghost auction-filter-clear"
            onClick={() => setParams(new URLSearchParams(), { replace: true })}
          >
            Clear filters
          </button>
        )}
      </form>

      <p className="auction-count muted" role="status">
        {loading
          ? 'Loading auctions…'
          : `${shown.length}${hasMore ? '+' : ''} ${shown.length === 1 && !hasMore ? 'auction' : 'auctions'}`}
      </p>

      {loading ? (
        <div className="grid" aria-hidden="true">
          {[0, 1, 2, 3].map((key) => (
            <AuctionCardSkeleton key={key} />
          ))}
        </div>
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
    </section>
  );
};
