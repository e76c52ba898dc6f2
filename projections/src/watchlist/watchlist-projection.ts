import type { CollectionSpec, Doc } from '../read-store/read-store';
import { asAuctionEvent } from '@auction/contracts';
import type { RecordedEvent, Projection, UnitOfWork } from '../runner/projection';
import { asWatchlistEvent, deletedAccountOf } from './watchlist-events';

/**
 * The `watchlist` read model: who watches which auction, from the users'
 * `watchlist-{userId}` streams, with its own copy of whether each auction was cancelled.
 */
export const watchlistCollections = {
  /** One per user and auction ever watched (`_id` = `${userId}:${auctionId}`). */
  entries: {
    name: 'watchlist_entries',
    indexes: ['userId', 'auctionId', 'listed', 'watching', 'watchedAt'],
    // A user's list newest first; an auction's watchers.
    compoundIndexes: [
      ['userId', 'listed', 'watchedAt'],
      ['auctionId', 'watching'],
    ],
  },
  /** Auctions as far as the list needs them (`_id` = auction id). */
  auctions: { name: 'watchlist_auctions', indexes: [] },
} as const satisfies Record<string, CollectionSpec>;

const ENTRIES = watchlistCollections.entries.name;
const AUCTIONS = watchlistCollections.auctions.name;

export type WatchlistEntryFields = {
  readonly userId: string;
  readonly auctionId: string;
  /** Whether the user watches it now. */
  readonly watching: boolean;
  /** Whether it is on the user's list: watched and not cancelled (a cancelled auction leaves lists). */
  readonly listed: boolean;
  /** Business time of the watch that put it on the list: the list's order. */
  readonly watchedAt: string;
};
export type WatchlistEntryDoc = Doc & WatchlistEntryFields;

type WatchlistAuctionFields = { readonly cancelled: boolean };
type WatchlistAuctionDoc = Doc & WatchlistAuctionFields;

export const watchlistEntryId = (userId: string, auctionId: string): string =>
  `${userId}:${auctionId}`;

const unlist = async (uow: UnitOfWork, entries: readonly WatchlistEntryDoc[], watching?: false) => {
  for (const entry of entries)
    await uow.update<WatchlistEntryDoc>(ENTRIES, entry._id, (current) =>
      current
        ? {
            userId: current.userId,
            auctionId: current.auctionId,
            watching: watching ?? current.watching,
            listed: false,
            watchedAt: current.watchedAt,
          }
        : undefined,
    );
};

const apply = async (event: RecordedEvent, uow: UnitOfWork): Promise<void> => {
  const watch = asWatchlistEvent(event);
  if (watch) {
    const { userId, auctionId, at } = watch.data;
    const watching = watch.type === 'AuctionWatched';
    const auction = await uow.get<WatchlistAuctionDoc>(AUCTIONS, auctionId);
    await uow.update<WatchlistEntryDoc>(
      ENTRIES,
      watchlistEntryId(userId, auctionId),
      (current) => ({
        userId,
        auctionId,
        watching,
        listed: watching && auction?.cancelled !== true,
        watchedAt: watching ? at : (current?.watchedAt ?? at),
      }),
    );
    return;
  }
  const erased = deletedAccountOf(event);
  if (erased !== undefined) {
    // The erased account's watchlist goes with it: nothing of it is listed or notified again.
    const entries = await uow.find<WatchlistEntryDoc>(ENTRIES, {
      where: { userId: erased, watching: true },
    });
    await unlist(uow, entries, false);
    return;
  }
  const auctionEvent = asAuctionEvent(event);
  if (auctionEvent?.type === 'AuctionCreated') {
    await uow.update<WatchlistAuctionDoc>(AUCTIONS, auctionEvent.data.auctionId, () => ({
      cancelled: false,
    }));
  } else if (auctionEvent?.type === 'AuctionCancelled') {
    const { auctionId } = auctionEvent.data;
    await uow.update<WatchlistAuctionDoc>(AUCTIONS, auctionId, () => ({ cancelled: true }));
    await unlist(uow, await uow.find<WatchlistEntryDoc>(ENTRIES, { where: { auctionId } }));
  }
};

/**
 * Watches, unwatches, cancellations and erased accounts into each user's watchlist. Every write is
 * a whole document derived from the event and documents the same replay rebuilds, so a redelivered
 * event changes nothing (`uow.update` skips a document that has seen it).
 */
export const watchlistProjection: Projection = {
  name: 'watchlist',
  collections: Object.values(watchlistCollections),
  handle: apply,
};
