import { z } from 'zod';
import { Id } from '../ids';
import { IsoTime } from '../time';

/**
 * The watchlist (issue 16): each user's watches are their own stream, `watchlist-{userId}`, apart
 * from the auction's (watching is not bidding: it never contends with the auction's actor). Ids
 * only, never personal data. A watch that changes nothing (watching twice, unwatching what is not
 * watched) writes nothing.
 */
export const AuctionWatched = z.object({
  type: z.literal('AuctionWatched'),
  data: z.object({ userId: Id, auctionId: Id, at: IsoTime }),
});

export const AuctionUnwatched = z.object({
  type: z.literal('AuctionUnwatched'),
  data: z.object({ userId: Id, auctionId: Id, at: IsoTime }),
});

export const WatchlistEvent = z.discriminatedUnion('type', [AuctionWatched, AuctionUnwatched]);
export type AuctionWatched = z.infer<typeof AuctionWatched>;
export type AuctionUnwatched = z.infer<typeof AuctionUnwatched>;
export type WatchlistEvent = z.infer<typeof WatchlistEvent>;
export const watchlistEventTypes = WatchlistEvent.options.map((o) => o.shape.type.value);
