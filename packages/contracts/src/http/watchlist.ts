import { z } from 'zod';
import { AuctionIdParams } from './auctions';
import { operationTable } from './operation';
import { NextCursor, pageFields } from './paging';
import { AuctionView } from './views';

/** What `POST` and `DELETE /auction/watch/:id` answer beside `{success, message}`. */
export const WatchlistState = z.object({
  auctionId: z.string(),
  /** Whether the signed-in user watches the auction now. */
  watching: z.boolean(),
});
export type WatchlistState = z.infer<typeof WatchlistState>;

/** The watchlist (issue 16): watch and unwatch an auction, and page the watched ones. */
export const watchlistOperations = operationTable({
  watch: {
    method: 'post',
    path: '/auction/watch/{id}',
    summary: 'Watch an auction (watchlist; idempotent; a cancelled auction answers 409)',
    auth: 'user',
    params: AuctionIdParams,
    ok: 200,
    payload: WatchlistState.shape,
  },
  unwatch: {
    method: 'delete',
    path: '/auction/watch/{id}',
    summary: 'Stop watching an auction (idempotent)',
    auth: 'user',
    params: AuctionIdParams,
    ok: 200,
    payload: WatchlistState.shape,
  },
  watchlist: {
    method: 'get',
    path: '/user/watchlist',
    summary: "The signed-in user's watched auctions, most recently watched first, a page at a time",
    auth: 'user',
    query: z.object(pageFields),
    ok: 200,
    payload: { auctions: z.array(AuctionView), nextCursor: NextCursor },
  },
});
