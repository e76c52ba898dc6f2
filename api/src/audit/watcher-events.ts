import { userStream, watchlistStream } from '@auction/contracts';
import type { EventStore, RecordedEvent } from '@auction/engine';
import { type ReadStore, notificationsCollections } from '@auction/projections';

/**
 * The events beside an auction's own that its read models depend on: who watched it (the
 * watchlist, issue 16) decides who is notified of its events. Its watchers are read from the
 * notifications read model (everyone who ever watched it has a document there); for each, their
 * watches and unwatches of this auction and their account's erasure, so the audit's replay tells
 * the same watchers as the live read model did.
 */
export const watcherEventsOf = async (
  events: Pick<EventStore, 'readStream'>,
  read: ReadStore,
  auctionId: string,
): Promise<RecordedEvent[]> => {
  await read.ensureCollections([notificationsCollections.watchers]);
  const docs = await read.find(notificationsCollections.watchers.name, { where: { auctionId } });
  const userIds = [...new Set(docs.map((doc) => String(doc.userId)))].sort();
  const found = await Promise.all(
    userIds.map(async (userId) => [
      ...(await events.readStream(watchlistStream(userId))).filter(
        (event) => (event.data as { auctionId?: unknown }).auctionId === auctionId,
      ),
      ...(await events.readStream(userStream(userId))).filter(
        (event) => event.type === 'AccountDeleted',
      ),
    ]),
  );
  return found.flat();
};
