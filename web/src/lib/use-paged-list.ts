import { useCallback, useEffect, useRef, useState } from 'react';
import { type Page, appendPage } from './paging';
import { useRefetchOnReconnect } from './use-socket-link';

export interface PagedList<T> {
  readonly items: T[];
  /** The first page is on its way. */
  readonly loading: boolean;
  /** A further page is on its way. */
  readonly loadingMore: boolean;
  /**
   * The first page could not be fetched: the list is unknown, not empty. The page shows an error
   * with a Retry button (`retry`), never its empty state.
   */
  readonly failed: boolean;
  /** Fetches the first page again after a failure. */
  readonly retry: () => void;
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
  const [failed, setFailed] = useState(false);
  const [cursor, setCursor] = useState<string | null>(null);
  const generation = useRef(0);
  const busy = useRef(false);
  const latest = useRef({ fetchPage, onError, cursor });
  latest.current = { fetchPage, onError, cursor };

  /** `quiet`: a refetch of the first page over the items shown, which stay if it fails. */
  const load = useCallback((after: string | undefined, quiet = false) => {
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
          if (after === undefined) setFailed(false);
        },
        (error: unknown) => {
          if (mine !== generation.current || quiet) return;
          if (error instanceof DOMException && error.name === 'AbortError') return;
          if (after === undefined) setFailed(true);
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

  const restart = useCallback(() => {
    generation.current++;
    setItems([]);
    setCursor(null);
    setLoading(true);
    setLoadingMore(false);
    setFailed(false);
    load(undefined);
  }, [load]);

  useEffect(restart, [key, restart]);

  /** The first page again over what is shown (after the socket came back), or a retry. */
  const refresh = useCallback(() => {
    if (failed) return restart();
    generation.current++;
    setLoadingMore(false);
    load(undefined, true);
  }, [failed, restart, load]);

  const loadMore = useCallback(() => {
    const next = latest.current.cursor;
    if (busy.current || next === null) return;
    setLoadingMore(true);
    load(next);
  }, [load]);

  return {
    items,
    setItems,
    loading,
    loadingMore,
    failed,
    retry: restart,
    refresh,
    cursor,
    loadMore,
  };
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
 * older key is dropped. `onError` runs when a page fails (the loaded items stay); a failed first
 * page sets `failed` (the list is unknown, not empty) until `retry`, the browser coming back
 * online, or the socket reconnecting. Each socket reconnect fetches the first page again.
 */
export const usePagedList = <T extends { readonly _id: string }>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  key: string,
  onError: (error: unknown) => void,
): PagedList<T> => {
  const { items, setItems, loading, loadingMore, failed, retry, refresh, cursor, loadMore } =
    usePages(fetchPage, key, onError);
  const sentinelRef = useSentinel(loadMore, { loading, loadingMore, cursor });
  // Back from a loss: what the list shows may have changed, and a failed list may load now.
  useRefetchOnReconnect(refresh);
  useEffect(() => {
    if (!failed || typeof window === 'undefined') return;
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [failed, retry]);
  return {
    items,
    loading,
    loadingMore,
    failed,
    retry,
    hasMore: cursor !== null,
    loadMore,
    setItems: (update) => setItems(update),
    sentinelRef,
  };
};
