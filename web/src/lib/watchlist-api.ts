import { AuctionView, WatchlistState } from '@auction/contracts';
import { z } from 'zod';
import { call } from './api-client';
import type { PageQuery } from './auctions-api';

const path = (auctionId: string) => `/auction/watch/${encodeURIComponent(auctionId)}`;

/** The watchlist: watch and unwatch an auction, and the user's watched auctions page by page. */
export const watchlistApi = {
  watch: (auctionId: string) => call(path(auctionId), WatchlistState, { method: 'POST' }),
  unwatch: (auctionId: string) => call(path(auctionId), WatchlistState, { method: 'DELETE' }),
  page: (page: PageQuery = {}) =>
    call(
      '/user/watchlist',
      z.object({ auctions: z.array(AuctionView), nextCursor: z.string().nullable() }),
      { query: { ...page } },
    ),
};
