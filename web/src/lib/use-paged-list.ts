import { useCallback, useEffect, useRef, useState } from 'react';
import { type Page, appendPage } from './paging';

export interface PagedList<T> {
  readonly items: T[];
  /** The first page is on its way. */
  readonly loading: boolean;
  /** A further page is on its way. */
  readonly loadingMore: boolean;
  readonly hasMore: boolean;
  /** Asks for the next page (once at a time); the sentinel does it when scrolled into view. */
  readonly loadMore: () => void;
  /** Changes the loaded items (an item deleted, say) without asking the server. */
  readonly setItems: (update: (items: T[]) => T[]) => void;
  /** Put at the end of the list: the next page loads when it comes within 400 px of view. */
  readonly sentinelRef: (element: Element | null) => void;
}

/**
 * The pages fetched so far for `key`: the first at once, the next on `loadMore` (one at a time).
 * A change of `key` starts again from the first page; an answer to an older key is dropped.
 */
const usePages = <T extends { readonly _id: string }>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  key: string,
  onError: (error: unknown) => void,
) => {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [cursor, setCursor] = useState<string | null>(null);
  const generation = useRef(0);
  const busy = useRef(false);
  const latest = useRef({ fetchPage, onError, cursor });
  latest.current = { fetchPage, onError, cursor };

  const load = useCallback((after: string | undefined) => {
    const mine = generation.current;
    busy.current = true;
    latest.current
      .fetchPage(after)
      .then(
        (page) => {
          if (mine !== generation.current) return;
          setItems((current) =>
            after === undefined ? [...page.items] : appendPage(current, page.items),
          );
          setCursor(page.nextCursor);
        },
        (error: unknown) => {
          if (mine !== generation.current) return;
          if (!(error instanceof DOMException && error.name === 'AbortError'))
            latest.current.onError(error);
        },
      )
      .finally(() => {
        if (mine !== generation.current) return;
        busy.current = false;
        setLoading(false);
        setLoadingMore(false);
      });
  }, []);

  useEffect(() => {
    generation.current++;
    setItems([]);
    setCursor(null);
    setLoading(true);
    setLoadingMore(false);
    load(undefined);
  }, [key, load]);

  const loadMore = useCallback(() => {
    const next = latest.current.cursor;
    if (busy.current || next === null) return;
    setLoadingMore(true);
    load(next);
  }, [load]);

  return { items, setItems, loading, loadingMore, cursor, loadMore };
};

/**
 * The ref for the sentinel after the last item: `loadMore` runs when it comes within 400 px of
 * view, and again after each page that leaves it there.
 */
const useSentinel = (
  loadMore: () => void,
  {
    loading,
    loadingMore,
    cursor,
  }: { loading: boolean; loadingMore: boolean; cursor: string | null },
) => {
  const observer = useRef<IntersectionObserver | null>(null);
  const sentinelVisible = useRef(false);
  const sentinelRef = useCallback(
    (element: Element | null) => {
      observer.current?.disconnect();
      observer.current = null;
      sentinelVisible.current = false;
      if (!element || typeof IntersectionObserver === 'undefined') return;
      observer.current = new IntersectionObserver(
        (entries) => {
          sentinelVisible.current = entries.at(-1)?.isIntersecting ?? false;
          if (sentinelVisible.current) loadMore();
        },
        { rootMargin: '400px 0px' },
      );
      observer.current.observe(element);
    },
    [loadMore],
  );

  // A page that did not fill the view leaves the sentinel in it: the observer does not fire
  // again, so the next page is asked for as soon as this one lands.
  useEffect(() => {
    if (!loading && !loadingMore && cursor !== null && sentinelVisible.current) loadMore();
  }, [loading, loadingMore, cursor, loadMore]);

  return sentinelRef;
};

/**
 * A list the server pages, loaded as the user scrolls: the first page at once, the next one
 * when the sentinel after the last item comes near the viewport (IntersectionObserver), or on
 * `loadMore`. A change of `key` (the filters) starts again from the first page; an answer to an
 * older key is dropped. `onError` runs when a page fails (the loaded items stay).
 */
export const usePagedList = <T extends { readonly _id: string }>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  key: string,
  onError: (error: unknown) => void,
): PagedList<T> => {
  const { items, setItems, loading, loadingMore, cursor, loadMore } = usePages(
    fetchPage,
    key,
    onError,
  );
  const sentinelRef = useSentinel(loadMore, { loading, loadingMore, cursor });
  return {
    items,
    loading,
    loadingMore,
    hasMore: cursor !== null,
    loadMore,
    setItems: (update) => setItems(update),
    sentinelRef,
  };
};
