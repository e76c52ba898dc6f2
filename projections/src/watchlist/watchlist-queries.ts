import type { AuctionView } from '@auction/contracts';
import { auctionsByIds } from '../catalog/catalog-queries';
import { type ImageUrl, storedImagePath } from '../images';
import { type Page, type PageRequest, findPage } from '../paging';
import type { ReadStore } from '../read-store/read-store';
import type { UserDirectory } from '../users/user-directory';
import {
  type WatchlistEntryDoc,
  watchlistCollections,
  watchlistEntryId,
} from './watchlist-projection';

const ENTRIES = watchlistCollections.entries.name;

/** How many auctions are on the user's watchlist (`watchListCount`): watched, not cancelled. */
export const watchListCount = (store: ReadStore, userId: string): Promise<number> =>
  store.count(ENTRIES, { userId, listed: true });

/** Which of `auctionIds` the user watches. */
export const watchedAmong = async (
  store: ReadStore,
  userId: string,
  auctionIds: readonly string[],
): Promise<Set<string>> => {
  if (auctionIds.length === 0) return new Set();
  const found = await store.getMany(
    ENTRIES,
    auctionIds.map((id) => watchlistEntryId(userId, id)),
  );
  const watched = new Set<string>();
  for (const doc of found.values()) {
    const entry = doc as WatchlistEntryDoc;
    if (entry.watching) watched.add(entry.auctionId);
  }
  return watched;
};

/** How many users watch the auction now. */
export const watcherCount = (store: ReadStore, auctionId: string): Promise<number> =>
  store.count(ENTRIES, { auctionId, watching: true });

/**
 * One page of the user's watchlist, most recently watched first, as auction cards (the shape of
 * every auction list, with `watching: true`). Live, sold and expired auctions stay on it until
 * unwatched; a cancelled one leaves it. An auction the catalog has not applied yet is left out of
 * its page.
 */
export const watchlistPage = async (
  store: ReadStore,
  users: UserDirectory,
  userId: string,
  page: PageRequest = {},
  imageUrl: ImageUrl = storedImagePath,
): Promise<Page<AuctionView>> => {
  const { docs, nextCursor } = await findPage(
    'watchlist',
    (options) => store.find(ENTRIES, options) as Promise<WatchlistEntryDoc[]>,
    { where: { userId, listed: true }, orderBy: [{ field: 'watchedAt', direction: 'desc' }] },
    page,
  );
  const auctions = await auctionsByIds(
    store,
    users,
    docs.map((doc) => doc.auctionId),
    imageUrl,
  );
  return { items: auctions.map((auction) => ({ ...auction, watching: true })), nextCursor };
};
