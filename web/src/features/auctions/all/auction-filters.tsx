import { useId } from 'react';
import type { AuctionFilters } from './use-auction-filters';

/** Search by title, the category, and Clear filters once either is set. */
export const AuctionFilterForm = ({ filters }: { filters: AuctionFilters }) => {
  const searchId = useId();
  const categoryId = useId();
  const { query, category, categoryNames, setFilter, clear, filtered } = filters;
  return (
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
        <button type="button" className="btn btn-ghost auction-filter-clear" onClick={clear}>
          Clear filters
        </button>
      )}
    </form>
  );
};
