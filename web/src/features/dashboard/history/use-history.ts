import type { HistoryEntry } from '@auction/contracts';
import { useEffect, useRef, useState } from 'react';
import { type HistoryFilter, dashboardApi } from '../api';

const LIST_LIMIT = 20;
/** The most the server returns at once: the summary counts the latest this many. */
const SUMMARY_LIMIT = 100;

/**
 * The user's history: `all` (the latest for the summary, fetched once), and the entries of the
 * chosen filter, each choice fetched anew (an answer to an earlier choice is dropped).
 */
export const useHistory = () => {
  const [all, setAll] = useState<HistoryEntry[]>([]);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const [loading, setLoading] = useState(true);
  const [listLoading, setListLoading] = useState(false);
  const latest = useRef(0);

  useEffect(() => {
    let active = true;
    dashboardApi
      .history('all', SUMMARY_LIMIT)
      .then(({ history }) => {
        if (!active) return;
        setAll(history);
        if (latest.current === 0) setEntries(history.slice(0, LIST_LIMIT));
      })
      .catch((error: unknown) => console.error('Cannot fetch user history', error))
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
    };
  }, []);

  const choose = (next: HistoryFilter) => {
    if (next === filter) return;
    setFilter(next);
    const request = ++latest.current;
    setListLoading(true);
    dashboardApi
      .history(next, LIST_LIMIT)
      .then(({ history }) => {
        if (request === latest.current) setEntries(history);
      })
      .catch((error: unknown) => {
        console.error('Cannot fetch user history', error);
        if (request === latest.current) setEntries([]);
      })
      .finally(() => {
        if (request === latest.current) setListLoading(false);
      });
  };

  return { all, entries, filter, choose, loading, listLoading };
};
