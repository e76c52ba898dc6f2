import { type AuctionCreated, type AuctionEvent, formatCents, isoToMs } from '@auction/contracts';
import type { CollectionSpec, Doc } from '../read-store/read-store';
import type { RecordedEvent, UnitOfWork } from '../runner/projection';
import { asWatchlistEvent, deletedAccountOf } from '../watchlist/watchlist-events';

/**
 * Watchers' notices, from the `notifications` model's own copy of who watches what, so it rebuilds
 * alone: ending soon, first extended, ended. A notice's id is `${event id}:${user id}`, so someone
 * already told of the event as seller, bidder or winner is not told twice. See docs/watchlist.md.
 */
export const watchersCollection = {
  name: 'notifications_watchers',
  indexes: ['auctionId', 'userId', 'watching'],
  compoundIndexes: [
    ['auctionId', 'watching'],
    ['userId', 'watching'],
  ],
} as const satisfies CollectionSpec;

const WATCHERS = watchersCollection.name;

type WatcherFields = {
  readonly auctionId: string;
  readonly userId: string;
  readonly watching: boolean;
};
type WatcherDoc = Doc & WatcherFields;

export type WatcherNoticeKind =
  'ending-soon' | 'extended' | 'watched-sold' | 'watched-ended' | 'watched-cancelled';

export interface WatcherNotice {
  readonly userId: string;
  readonly kind: WatcherNoticeKind;
  readonly message: string;
}

/** What the auction's notification document keeps for watchers. */
export interface WatcherAuctionFields {
  readonly title: string;
  /** Whether watchers have heard of a soft-close extension (absent in documents before it). */
  readonly watchersToldExtended?: boolean;
}

/** Follows watches, unwatches and erased accounts; true when the event was one of them. */
export const applyWatcherEvent = async (
  event: RecordedEvent,
  uow: UnitOfWork,
): Promise<boolean> => {
  const watch = asWatchlistEvent(event);
  if (watch) {
    const { auctionId, userId } = watch.data;
    await uow.update<WatcherDoc>(WATCHERS, `${auctionId}:${userId}`, () => ({
      auctionId,
      userId,
      watching: watch.type === 'AuctionWatched',
    }));
    return true;
  }
  const erased = deletedAccountOf(event);
  if (erased === undefined) return false;
  const watched = await uow.find<WatcherDoc>(WATCHERS, {
    where: { userId: erased, watching: true },
  });
  for (const doc of watched)
    await uow.update<WatcherDoc>(WATCHERS, doc._id, (current) =>
      current
        ? { auctionId: current.auctionId, userId: current.userId, watching: false }
        : undefined,
    );
  return true;
};

/** One notice per user and event (its id is `${event id}:${user id}`): the first one wins. */
export const firstPerUser = <N extends { readonly userId: string }>(notices: readonly N[]): N[] => {
  const told = new Set<string>();
  return notices.filter((notice) => !told.has(notice.userId) && told.add(notice.userId));
};

const watchersOf = async (uow: UnitOfWork, auctionId: string): Promise<string[]> => {
  const docs = await uow.find<WatcherDoc>(WATCHERS, { where: { auctionId, watching: true } });
  return docs.map((doc) => doc.userId).sort();
};

const minutesBetween = (from: string, to: string): number =>
  Math.max(1, Math.round((isoToMs(to) - isoToMs(from)) / 60_000));

/**
 * Who among the auction's watchers hears of `event`, and the auction's document fields it changes
 * for them; the event's actor (the bidder who extended it) is left out.
 */
export const watcherOutcome = async (
  event: Exclude<AuctionEvent, AuctionCreated>,
  auction: WatcherAuctionFields,
  uow: UnitOfWork,
): Promise<{
  readonly notices: readonly WatcherNotice[];
  readonly auction: Partial<WatcherAuctionFields>;
}> => {
  const title = `"${auction.title}"`;
  const tell = async (kind: WatcherNoticeKind, message: string, except?: string) => ({
    auction: {},
    notices: (await watchersOf(uow, event.data.auctionId))
      .filter((userId) => userId !== except)
      .map((userId) => ({ userId, kind, message })),
  });
  switch (event.type) {
    case 'AuctionEndingSoon': {
      const minutes = minutesBetween(event.data.at, event.data.endsAt);
      return tell(
        'ending-soon',
        `${title}, on your watchlist, ends in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      );
    }
    case 'BidPlaced':
    case 'BidEdited':
    case 'AutomaticBidPlaced': {
      if (event.data.endsAt === undefined || auction.watchersToldExtended === true)
        return { notices: [], auction: {} };
      const told = await tell(
        'extended',
        `A late bid extended ${title}, on your watchlist: bidding goes on a little longer.`,
        event.data.bidderId,
      );
      return { ...told, auction: { watchersToldExtended: true } };
    }
    case 'AuctionClosed':
      return event.data.outcome === 'Sold'
        ? tell(
            'watched-sold',
            `${title}, on your watchlist, has ended: sold for ${formatCents(event.data.finalPrice)}.`,
          )
        : tell('watched-ended', `${title}, on your watchlist, has ended without a winner.`);
    case 'AuctionCancelled':
      return tell('watched-cancelled', `${title}, on your watchlist, was cancelled.`);
    case 'AuctionEdited':
    case 'BidMaximumRaised':
    case 'BidRetracted':
      return { notices: [], auction: {} };
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
};
