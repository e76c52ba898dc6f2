import { useEffect, useState } from 'react';
import { auctionsApi } from '../../../lib/auctions-api';

/** The names of the categories in use (the first page), fetched once; `add` shows a new one. */
export const useCategoryNames = () => {
  const [names, setNames] = useState<string[]>([]);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let active = true;
    auctionsApi
      .categories()
      .then(({ categories }) => {
        if (active) setNames(categories.map((category) => category.name));
      })
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        if (active) setLoaded(true);
      });
    return () => {
      active = false;
    };
  }, []);

  return { names, loaded, add: (name: string) => setNames((list) => [...list, name]) };
};
