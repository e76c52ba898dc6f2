import { z } from 'zod';

/** What `POST` and `DELETE /auction/watch/:id` answer beside `{success, message}`. */
export const WatchlistState = z.object({
  auctionId: z.string(),
  /** Whether the signed-in user watches the auction now. */
  watching: z.boolean(),
});
export type WatchlistState = z.infer<typeof WatchlistState>;
