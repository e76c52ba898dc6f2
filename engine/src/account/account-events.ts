import { type CommandMetadata, type UserEvent, userStream } from '@auction/contracts';
import { genesisHash } from '../chain/hash-chain';
import { sealEvents } from '../chain/seal';
import { type EventStore, WrongExpectedRevisionError } from '../event-store/event-store';

const ATTEMPTS = 6;

/**
 * Appends an account lifecycle event to `user-{id}`, chained to the stream's last event. A retry
 * of the same command finds its own event already stored and appends nothing. Returns the event's
 * global position.
 */
export const recordAccountEvent = async (
  store: EventStore,
  event: UserEvent,
  metadata: CommandMetadata,
): Promise<number> => {
  const streamId = userStream(event.data.userId);
  for (let attempt = 1; ; attempt++) {
    const head = await store.streamRevision(streamId);
    const [last] =
      head === undefined ? [] : await store.readStream(streamId, { fromRevision: head });
    const revision = last?.revision ?? -1;
    const prevHash = last ? (last.metadata as { hash: string }).hash : genesisHash(streamId);
    const { events } = sealEvents(streamId, revision, prevHash, [event], metadata);
    if (last !== undefined && last.id === events[0]?.id) return last.position;
    try {
      return (await store.append(streamId, events, revision < 0 ? 'no_stream' : revision)).position;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= ATTEMPTS) throw error;
    }
  }
};
