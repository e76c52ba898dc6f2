import { AuctionSort, type CategoryView } from '@auction/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { auctionsApi } from '../../../lib/auctions-api';
import { filterCategoryNames } from '../../../lib/categories';

/** The text typed, once the typing has paused for `delayMs`. */
const useSettled = (value: string, delayMs = 250): string => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
};

/** The orders the list offers, with their labels; newest first is the spec's, and the default. */
export const sortChoices: readonly { value: AuctionSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'ending-soon', label: 'Ending soonest' },
  { value: 'price-low', label: 'Price: low to high' },
  { value: 'price-high', label: 'Price: high to low' },
];

/**
 * The filter as the URL holds it (`q`, `category`, `sort`; an order the page does not know reads
 * as newest), the title search once typing pauses, and the category names it offers.
 */
export const useAuctionFilters = () => {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const parsedSort = AuctionSort.safeParse(params.get('sort'));
  const sort: AuctionSort = parsedSort.success ? parsedSort.data : 'newest';
  const search = useSettled(query.trim());
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

  // The URL last asked for, until a render shows it: the router's own "previous" is the params
  // of the last render, so two changes before it (the search cleared, then a category chosen at
  // once) would otherwise bring the first one's old value back.
  const asked = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    if (asked.current?.toString() === params.toString()) asked.current = null;
  }, [params]);
  const replaceParams = (next: URLSearchParams) => {
    asked.current = next;
    setParams(next, { replace: true });
  };

  const setFilter = (key: 'q' | 'category' | 'sort', value: string) => {
    const next = new URLSearchParams(asked.current ?? params);
    // Newest first is the default: the URL names another order only.
    if (value && !(key === 'sort' && value === 'newest')) next.set(key, value);
    else next.delete(key);
    replaceParams(next);
  };

  return {
    query,
    category,
    sort,
    search,
    categoryNames,
    setFilter,
    // Clears what narrows the list; the order stays.
    clear: () => {
      const order = (asked.current ?? params).get('sort');
      replaceParams(new URLSearchParams(order ? { sort: order } : {}));
    },
    filtered: Boolean(query.trim() || category),
  };
};

export type AuctionFilters = ReturnType<typeof useAuctionFilters>;
