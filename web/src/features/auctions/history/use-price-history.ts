import { PriceHistoryEntry } from '@auction/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { call } from '../../../lib/api-client';

const Page = z.object({
  entries: z.array(PriceHistoryEntry),
  lastRevision: z.number().int(),
  nextAfter: z.number().int().nullable(),
});

/** Pages read in one go; a longer history is read on in the next go (the next revision). */
const PAGES_AT_ONCE = 20;
/** A live revision waits this long before its entries are fetched, so a burst costs one fetch. */
export const LIVE_FETCH_DELAY_MS = 250;

interface History {
  readonly auctionId: string;
  readonly entries: readonly PriceHistoryEntry[];
  /** The last stream revision read (-1: none). */
  readonly through: number;
  readonly loaded: boolean;
  readonly failed: boolean;
}

const fresh = (auctionId: string): History => ({
  auctionId,
  entries: [],
  through: -1,
  loaded: false,
  failed: false,
});

/**
 * The auction's price history (`GET /auction/history`), kept up with the live auction: whenever
 * the live store's revision passes the last one read, the revisions after it are fetched (one
 * fetch at a time, a burst of revisions together), so a live bid adds its entry without a reload,
 * and a reconnect's catch-up adds what was missed.
 */
export const usePriceHistory = (auctionId: string, revision: number) => {
  const [history, setHistory] = useState<History>(() => fresh(auctionId));
  const busy = useRef(false);
  const current = history.auctionId === auctionId ? history : fresh(auctionId);
  const wanted = !current.failed && (!current.loaded || current.through < revision);

  useEffect(() => {
    if (history.auctionId !== auctionId) {
      setHistory(fresh(auctionId));
      return;
    }
    if (!wanted || busy.current) return;
    const timer = setTimeout(
      () => {
        busy.current = true;
        void (async () => {
          const added: PriceHistoryEntry[] = [];
          let through = history.through;
          try {
            for (let pages = 0; pages < PAGES_AT_ONCE; pages++) {
              const page = await call('/auction/history', Page, {
                query: { auctionId, after: through },
              });
              added.push(...page.entries);
              through = page.nextAfter ?? page.lastRevision;
              if (page.nextAfter === null) break;
            }
            setHistory((h) =>
              h.auctionId !== auctionId
                ? h
                : {
                    ...h,
                    entries: [...h.entries, ...added.filter((e) => e.revision > h.through)],
                    through: Math.max(h.through, through),
                    loaded: true,
                    failed: false,
                  },
            );
          } catch {
            setHistory((h) => (h.auctionId === auctionId ? { ...h, failed: true } : h));
          } finally {
            busy.current = false;
          }
        })();
      },
      history.loaded ? LIVE_FETCH_DELAY_MS : 0,
    );
    return () => clearTimeout(timer);
  }, [auctionId, history, wanted]);

  const retry = useCallback(
    () => setHistory((h) => (h.auctionId === auctionId ? { ...h, failed: false } : h)),
    [auctionId],
  );
  return {
    entries: current.entries,
    loaded: current.loaded,
    failed: current.failed,
    retry,
  };
};
