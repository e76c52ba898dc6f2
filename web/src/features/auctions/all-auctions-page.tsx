import { useCallback } from 'react';
import { isNetworkFailure } from '../../lib/api-client';
import { notify } from '../../lib/toast';
import { usePagedList } from '../../lib/use-paged-list';
import { auctionsApi } from '../../lib/auctions-api';
import { AuctionFilterForm } from './all/auction-filters';
import { AuctionResults } from './all/auction-results';
import { useAuctionFilters } from './all/use-auction-filters';
import './auctions.css';

/**
 * Every live auction, a page at a time as the user scrolls. The server filters (spec §5:
 * case-insensitive substring on the title, exact match on the category name) and orders (newest
 * first by default; ending soonest, price) over all of them; the filter and order live in the URL.
 */
export const AllAuctionsPage = () => {
  const filters = useAuctionFilters();
  const { search, category, sort } = filters;

  const fetchPage = useCallback(
    async (cursor: string | undefined) => {
      const { auctions, nextCursor } = await auctionsApi.all(
        { search, category, sort },
        { cursor },
      );
      return { items: auctions, nextCursor };
    },
    [search, category, sort],
  );
  // The results say when the list could not be fetched; the spec's toast, which reads as an
  // empty marketplace, is kept for a refusal only, never for a server that did not answer.
  const onError = useCallback((error: unknown) => {
    console.error('Cannot fetch auctions', error);
    if (!isNetworkFailure(error)) notify.error('No Auctions Currently Present');
  }, []);
  const list = usePagedList(fetchPage, JSON.stringify([search, category, sort]), onError);

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
      <AuctionFilterForm filters={filters} />
      <AuctionResults list={list} filtered={filters.filtered} />
    </section>
  );
};
