import { type CommandMetadata, WatchlistEvent, watchlistStream } from '@auction/contracts';
import { genesisHash } from '../chain/hash-chain';
import { eventIdFor, sealEvents } from '../chain/seal';
import { type EventStore, WrongExpectedRevisionError } from '../event-store/event-store';

const ATTEMPTS = 6;

export interface WatchCommand {
  readonly userId: string;
  readonly auctionId: string;
  /** true: watch; false: unwatch. */
  readonly watching: boolean;
}

export interface WatchOutcome {
  /** Whether an event was written (false: it already stood so). */
  readonly changed: boolean;
  /**
   * The global position of the user's last watchlist event after the command (the new one, or the
   * one that made it stand so), for read-your-writes; undefined when the stream is empty.
   */
  readonly position: number | undefined;
}

/**
 * Records a watch or unwatch in `watchlist-{userId}` (the watchlist, issue 16), chained like every
 * stream and appended at the revision it was decided on (a conflict re-reads and decides again).
 * Idempotent: watching a watched auction, or unwatching one not watched, writes nothing; a retried
 * command finds its own event and writes nothing either. Whether the auction exists, and may be
 * watched, is the caller's check (the catalog): watching is not the auction's business, so it never
 * waits in the auction's actor.
 */
export const recordWatch = async (
  store: EventStore,
  command: WatchCommand,
  metadata: CommandMetadata,
): Promise<WatchOutcome> => {
  const streamId = watchlistStream(command.userId);
  for (let attempt = 1; ; attempt++) {
    const events = await store.readStream(streamId);
    const last = events.at(-1);
    if (last !== undefined && last.id === eventIdFor(streamId, metadata.commandId, 0))
      return { changed: false, position: last.position };
    let watching = false;
    let decidedBy = last;
    for (const recorded of events) {
      const parsed = WatchlistEvent.safeParse({ type: recorded.type, data: recorded.data });
      if (!parsed.success || parsed.data.data.auctionId !== command.auctionId) continue;
      watching = parsed.data.type === 'AuctionWatched';
      decidedBy = recorded;
    }
    if (watching === command.watching) return { changed: false, position: decidedBy?.position };
    const event: WatchlistEvent = {
      type: command.watching ? 'AuctionWatched' : 'AuctionUnwatched',
      data: { at: metadata.at, auctionId: command.auctionId, userId: command.userId },
    };
    const revision = last?.revision ?? -1;
    const prevHash = last ? (last.metadata as { hash: string }).hash : genesisHash(streamId);
    const sealed = sealEvents(streamId, revision, prevHash, [event], metadata);
    try {
      const appended = await store.append(
        streamId,
        sealed.events,
        revision < 0 ? 'no_stream' : revision,
      );
      return { changed: true, position: appended.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= ATTEMPTS) throw error;
    }
  }
};
