import { useId } from 'react';
import { type AuctionFilters, sortChoices } from './use-auction-filters';
import './auction-sort.css';

/** Search by title, the category, the order, and Clear filters once search or category is set. */
export const AuctionFilterForm = ({ filters }: { filters: AuctionFilters }) => {
  const searchId = useId();
  const categoryId = useId();
  const sortId = useId();
  const { query, category, sort, categoryNames, setFilter, clear, filtered } = filters;
  return (
    <form
      className="auction-filters auction-filters-sortable"
      role="search"
      onSubmit={(event) => event.preventDefault()}
    >
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
      <div className="field auction-filter-sort">
        <label htmlFor={sortId}>Sort by</label>
        <select
          id={sortId}
          value={sort}
          onChange={(event) => setFilter('sort', event.target.value)}
        >
          {sortChoices.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
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
