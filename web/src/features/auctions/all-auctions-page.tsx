import type { AuctionView } from '@auction/contracts';
import { useEffect, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { notify } from '../../lib/toast';
import { auctionsApi } from './api';
import { AuctionCard, AuctionCardSkeleton } from './auction-card';
import { FIXED_CATEGORIES } from './categories';
import './auctions.css';

/** Spec §5: case-insensitive substring on the title, exact match on the category name. */
export const filterAuctions = (
  auctions: readonly AuctionView[],
  query: string,
  category: string,
): AuctionView[] => {
  const needle = query.trim().toLowerCase();
  return auctions.filter(
    (auction) =>
      (!needle || auction.title.toLowerCase().includes(needle)) &&
      (!category || auction.category.name === category),
  );
};

/** Every live auction, filtered by title and category; the filter lives in the URL. */
export const AllAuctionsPage = () => {
  const [auctions, setAuctions] = useState<AuctionView[]>([]);
  const [loading, setLoading] = useState(true);
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const searchId = useId();
  const categoryId = useId();

  useEffect(() => {
    let current = true;
    auctionsApi.all().then(
      ({ auctions: fetched }) => {
        if (!current) return;
        setAuctions(fetched);
        setLoading(false);
      },
      (error: unknown) => {
        if (!current) return;
        console.error('Cannot fetch auctions', error);
        notify.error('No Auctions Currently Present');
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const shown = useMemo(
    () => filterAuctions(auctions, query, category),
    [auctions, query, category],
  );

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
            placeholder="e.g. vintage watch"
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
            {FIXED_CATEGORIES.map(({ name }) => (
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
          : `${shown.length} ${shown.length === 1 ? 'auction' : 'auctions'}`}
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
        <ul className="grid auction-grid">
          {shown.map((auction) => (
            <li key={auction._id}>
              <AuctionCard auction={auction} headingLevel="h2" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
