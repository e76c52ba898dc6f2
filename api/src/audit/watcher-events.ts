import { userStream, watchlistStream } from '@auction/contracts';
import type { EventStore, RecordedEvent } from '@auction/engine';
import { type ReadStore, notificationsCollections } from '@auction/projections';

/**
 * The events beside an auction's own that its read models depend on: its watchers' watches and
 * unwatches of it and their accounts' erasure (who watched decides who is notified), read from the
 * notifications read model, so the audit's replay tells the same watchers as the live model did.
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
