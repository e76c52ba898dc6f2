import type { HistoryEntry } from '@auction/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useRefetchOnReconnect } from '../../../lib/use-socket-link';
import { type HistoryFilter, dashboardApi } from '../api';

const LIST_LIMIT = 20;
/** The most the server returns at once: the summary counts the latest this many. */
const SUMMARY_LIMIT = 100;

/**
 * The user's history: `all` (the latest for the summary), and the entries of the chosen filter,
 * each choice fetched anew (an answer to an earlier choice is dropped). Both are fetched again
 * when the socket comes back; a summary never fetched is `failed` (with `retry`), not empty.
 */
export const useHistory = () => {
  const [all, setAll] = useState<HistoryEntry[]>([]);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const [loading, setLoading] = useState(true);
  const [listLoading, setListLoading] = useState(false);
  /** The summary could not be fetched and nothing is shown: the page says so, with Retry. */
  const [failed, setFailed] = useState(false);
  /** The chosen filter's entries could not be fetched: an error with Retry, not "No History Yet". */
  const [listFailed, setListFailed] = useState(false);
  /** Bumped by Retry and by the socket coming back: the summary (and the chosen list) again. */
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  const loaded = useRef(false);
  const chosen = useRef<HistoryFilter>('all');
  useRefetchOnReconnect(() => setAttempt((n) => n + 1));

  const fetchList = useCallback((next: HistoryFilter) => {
    const request = ++latest.current;
    setListLoading(true);
    dashboardApi
      .history(next, LIST_LIMIT)
      .then(({ history }) => {
        if (request !== latest.current) return;
        setEntries(history);
        setListFailed(false);
      })
      .catch((error: unknown) => {
        console.error('Cannot fetch user history', error);
        if (request === latest.current) setListFailed(true);
      })
      .finally(() => {
        if (request === latest.current) setListLoading(false);
      });
  }, []);

  useEffect(() => {
    let active = true;
    dashboardApi
      .history('all', SUMMARY_LIMIT)
      .then(({ history }) => {
        if (!active) return;
        loaded.current = true;
        setFailed(false);
        setAll(history);
        if (chosen.current === 'all') setEntries(history.slice(0, LIST_LIMIT));
        else fetchList(chosen.current);
      })
      .catch((error: unknown) => {
        console.error('Cannot fetch user history', error);
        if (active && !loaded.current) setFailed(true);
      })
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
    };
  }, [attempt, fetchList]);

  const retry = () => {
    setLoading(true);
    setAttempt((n) => n + 1);
  };

  const choose = (next: HistoryFilter) => {
    if (next === filter) return;
    setFilter(next);
    chosen.current = next;
    fetchList(next);
  };

  return {
    all,
    entries,
    filter,
    choose,
    loading,
    listLoading,
    failed,
    retry,
    listFailed,
    retryList: () => fetchList(chosen.current),
  };
};
