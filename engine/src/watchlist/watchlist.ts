import { type CommandMetadata, WatchlistEvent, watchlistStream } from '@auction/contracts';
import type { SnapshotStore, StoredSnapshot } from '../event-store/snapshot-store';
import { genesisHash } from '../chain/hash-chain';
import { eventIdFor, sealEvents } from '../chain/seal';
import {
  type EventStore,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from '../event-store/event-store';

const ATTEMPTS = 6;

/** Users whose watch sets one process keeps by default (the least recently used go first). */
export const WATCH_SETS = 10_000;

/** A snapshot is left once this many events have followed the last one. */
export const WATCH_SNAPSHOT_EVERY = 64;

/** The layout of a watch set's snapshot payload: `{"watched": [auctionId, ...]}`. */
const SNAPSHOT_VERSION = 'watchlist:1';

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
   * The global position of the user's last watchlist event after the command (the new one, or
   * the last one before it, which the standing state includes), for read-your-writes; undefined
   * when the stream is empty.
   */
  readonly position: number | undefined;
}

/** A user's watched auctions as folded up to `revision` of their stream (-1: none). */
interface WatchSet {
  readonly revision: number;
  readonly watched: ReadonlySet<string>;
  /** The revision of the snapshot the store is known to hold (-1: none). */
  readonly snapshot: number;
}

const EMPTY: WatchSet = { revision: -1, watched: new Set(), snapshot: -1 };

const encode = (set: WatchSet): StoredSnapshot => ({
  revision: set.revision,
  version: SNAPSHOT_VERSION,
  payload: JSON.stringify({ watched: [...set.watched] }),
});

const decode = (stored: StoredSnapshot | undefined): WatchSet | undefined => {
  if (stored?.version !== SNAPSHOT_VERSION || !Number.isSafeInteger(stored.revision))
    return undefined;
  try {
    const { watched } = JSON.parse(stored.payload) as { watched?: unknown };
    if (!Array.isArray(watched) || !watched.every((id) => typeof id === 'string')) return undefined;
    return {
      revision: stored.revision,
      watched: new Set(watched),
      snapshot: stored.revision,
    };
  } catch {
    return undefined;
  }
};

const folded = (set: WatchSet, events: readonly RecordedEvent[]): WatchSet => {
  const after = events.filter((event) => event.revision > set.revision);
  if (after.length === 0) return set;
  const watched = new Set(set.watched);
  for (const recorded of after) {
    const parsed = WatchlistEvent.safeParse({ type: recorded.type, data: recorded.data });
    if (!parsed.success) continue;
    if (parsed.data.type === 'AuctionWatched') watched.add(parsed.data.data.auctionId);
    else watched.delete(parsed.data.data.auctionId);
  }
  return { ...set, revision: after.at(-1)?.revision ?? set.revision, watched };
};

/**
 * Watches and unwatches in `watchlist-{userId}`, appended at the revision they were decided on and
 * never through the auction's actor (watching is not the auction's business). Each user's folded
 * set is kept with its revision, and snapshotted, so a toggle costs the same at any history length
 * (docs/watchlist.md).
 */
export class Watchlists {
  private readonly sets = new Map<string, WatchSet>();

  constructor(
    private readonly store: EventStore,
    private readonly snapshots: SnapshotStore | undefined,
    private readonly size = WATCH_SETS,
  ) {}

  /** Callers send one user's commands one at a time (the engine does). */
  async record(command: WatchCommand, metadata: CommandMetadata): Promise<WatchOutcome> {
    const { userId } = command;
    const streamId = watchlistStream(userId);
    let fromStart = false;
    for (let attempt = 1; ; attempt++) {
      const known = fromStart
        ? EMPTY
        : (this.sets.get(userId) ?? (await this.snapshotOf(streamId)) ?? EMPTY);
      const read = await this.store.readStream(
        streamId,
        known.revision < 0 ? {} : { fromRevision: known.revision },
      );
      if (known.revision >= 0 && read[0]?.revision !== known.revision) {
        // Not the stream that was folded (a store restored from an older copy): read it all.
        fromStart = true;
        this.sets.delete(userId);
        continue;
      }
      const current = await this.keep(streamId, userId, folded(known, read));
      const last = read.at(-1);
      if (last !== undefined && last.id === eventIdFor(streamId, metadata.commandId, 0))
        return { changed: false, position: last.position };
      if (current.watched.has(command.auctionId) === command.watching)
        return { changed: false, position: last?.position };
      const event: WatchlistEvent = {
        type: command.watching ? 'AuctionWatched' : 'AuctionUnwatched',
        data: { at: metadata.at, auctionId: command.auctionId, userId },
      };
      const revision = last?.revision ?? -1;
      const prevHash = last ? (last.metadata as { hash: string }).hash : genesisHash(streamId);
      const sealed = sealEvents(streamId, revision, prevHash, [event], metadata);
      let position: number;
      try {
        const expected = revision < 0 ? 'no_stream' : revision;
        position = (await this.store.append(streamId, sealed.events, expected)).position;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= ATTEMPTS) throw error;
        continue;
      }
      const watched = new Set(current.watched);
      if (command.watching) watched.add(command.auctionId);
      else watched.delete(command.auctionId);
      await this.keep(streamId, userId, { ...current, revision: revision + 1, watched });
      return { changed: true, position };
    }
  }

  /**
   * Whether the user watches the auction now: the set kept here (or the snapshot) brought up to
   * the stream's head, read and not kept (only `record`, one user's commands at a time, keeps sets).
   */
  async isWatching(userId: string, auctionId: string): Promise<boolean> {
    const streamId = watchlistStream(userId);
    const known = this.sets.get(userId) ?? (await this.snapshotOf(streamId)) ?? EMPTY;
    const read = await this.store.readStream(
      streamId,
      known.revision < 0 ? {} : { fromRevision: known.revision },
    );
    // Not the stream that was folded (a store restored from an older copy): read it all.
    const current =
      known.revision >= 0 && read[0]?.revision !== known.revision
        ? folded(EMPTY, await this.store.readStream(streamId))
        : folded(known, read);
    return current.watched.has(auctionId);
  }

  /** Keeps the set as the user's most recent, and leaves a snapshot of it when one is due. */
  private async keep(streamId: string, userId: string, set: WatchSet): Promise<WatchSet> {
    let kept = set;
    if (this.snapshots && set.revision - set.snapshot >= WATCH_SNAPSHOT_EVERY) {
      const saved = await this.snapshots.saveSnapshot(streamId, encode(set)).then(
        () => true,
        () => false,
      );
      // A snapshot that failed only means a longer read after a restart.
      if (saved) kept = { ...set, snapshot: set.revision };
    }
    this.sets.delete(userId);
    this.sets.set(userId, kept);
    for (const oldest of this.sets.keys()) {
      if (this.sets.size <= this.size) break;
      this.sets.delete(oldest);
    }
    return kept;
  }

  private async snapshotOf(streamId: string): Promise<WatchSet | undefined> {
    if (!this.snapshots) return undefined;
    return decode(await this.snapshots.loadSnapshot(streamId).catch(() => undefined));
  }
}
