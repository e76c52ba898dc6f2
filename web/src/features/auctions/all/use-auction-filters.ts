import type { CategoryView } from '@auction/contracts';
import { useEffect, useMemo, useState } from 'react';
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

/**
 * The filter as the URL holds it (`q`, `category`), the title search once typing pauses, and the
 * category names it offers.
 */
export const useAuctionFilters = () => {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const category = params.get('category') ?? '';
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

  return {
    query,
    category,
    search,
    categoryNames,
    setFilter,
    clear: () => setParams(new URLSearchParams(), { replace: true }),
    filtered: Boolean(query.trim() || category),
  };
};

export type AuctionFilters = ReturnType<typeof useAuctionFilters>;
