import { z } from 'zod';

/** An entity id: a UUID or another opaque token of URL-safe characters. */
export const Id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Ids use letters, digits, "-" and "_" only');
export type Id = z.infer<typeof Id>;

/** The acting user of commands the system issues itself (the closing scheduler). */
export const SYSTEM_ACTOR = 'system';

export const auctionStream = (auctionId: Id): string => `auction-${auctionId}`;
export const userStream = (userId: Id): string => `user-${userId}`;
/** A user's watches (`AuctionWatched`, `AuctionUnwatched`). */
export const watchlistStream = (userId: Id): string => `watchlist-${userId}`;
export const categoryStream = (categoryId: Id): string => `category-${categoryId}`;
/**
 * Reservation stream that makes a category name unique: appended with expected revision
 * "no_stream". Its prefix is not `category-`, so no category id can name it.
 */
export const categoryNameStream = (name: string): string =>
  `categoryname-${normaliseCategoryName(name)}`;
export const normaliseCategoryName = (name: string): string =>
  name.trim().replace(/\s+/g, ' ').toLowerCase();
