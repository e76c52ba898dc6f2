import { type CommandMetadata, type UserEvent, userStream } from '@auction/contracts';
import {
  type EventStore,
  WrongExpectedRevisionError,
  genesisHash,
  sealEvents,
} from '@auction/engine';

/** Appends an account lifecycle event to `user-{id}`, chained to the stream's last event. */
export const appendUserEvent = async (
  store: EventStore,
  event: UserEvent,
  metadata: CommandMetadata,
): Promise<number> => {
  const streamId = userStream(event.data.userId);
  for (let attempt = 0; ; attempt++) {
    const [last] = await store.readStream(streamId, {
      fromRevision: Math.max(0, (await store.streamRevision(streamId)) ?? -1),
    });
    const revision = last?.revision ?? -1;
    const prevHash = last ? (last.metadata as { hash: string }).hash : genesisHash(streamId);
    const { events } = sealEvents(streamId, revision, prevHash, [event], metadata);
    try {
      return (await store.append(streamId, events, revision < 0 ? 'no_stream' : revision)).position;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= 5) throw error;
    }
  }
};
