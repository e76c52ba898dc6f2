import { AccountDeleted, WatchlistEvent } from '@auction/contracts';
import type { RecordedEvent } from '../runner/projection';

/** The watch or unwatch this is (from a `watchlist-{userId}` stream), validated; else undefined. */
export const asWatchlistEvent = (event: RecordedEvent): WatchlistEvent | undefined => {
  if (!event.streamId.startsWith('watchlist-')) return undefined;
  const parsed = WatchlistEvent.safeParse({ type: event.type, data: event.data });
  return parsed.success ? parsed.data : undefined;
};

/** The erased account this event reports (`AccountDeleted` on `user-{id}`); else undefined. */
export const deletedAccountOf = (event: RecordedEvent): string | undefined => {
  if (event.type !== 'AccountDeleted' || !event.streamId.startsWith('user-')) return undefined;
  const parsed = AccountDeleted.safeParse({ type: event.type, data: event.data });
  return parsed.success ? parsed.data.data.userId : undefined;
};
