import { hash } from 'node:crypto';
import type { NewEvent } from '../event-store/event-store';
import { canonicalFromJson, eventHash, eventHashOfCanonical } from './hash-chain';

export interface CommandIds {
  readonly commandId: string;
  readonly actorId: string;
  readonly correlationId: string;
}

/**
 * The id of the `index`-th event a command writes to a stream, as a UUID (EventStoreDB requires
 * one): a retried command yields the same ids, so the store can drop the duplicate append.
 */
export const eventIdFor = (streamId: string, commandId: string, index: number): string => {
  const h = hash('sha256', `${streamId}\n${commandId}\n${index}`, 'hex');
  const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** `JSON.stringify({ ...metadata, hash })`, from the text of `metadata` (a plain object). */
const withHash = (metadataJson: string, hash: string): string =>
  `${metadataJson.length > 2 ? `${metadataJson.slice(0, -1)},` : '{'}"hash":${JSON.stringify(hash)}}`;

export interface SealedBatch {
  readonly events: NewEvent[];
  /** Hash of the last sealed event (the chain's new head). */
  readonly headHash: string;
}

/** Puts events of one command into the stream's hash chain, starting after `revision`. */
export const sealEvents = (
  streamId: string,
  revision: number,
  prevHash: string,
  events: readonly { readonly type: string; readonly data: unknown }[],
  ids: CommandIds,
): SealedBatch => {
  const sealed: NewEvent[] = [];
  let head = prevHash;
  for (const [index, event] of events.entries()) {
    // Keys in sorted order: the hash's canonical JSON is then plain `JSON.stringify`.
    const metadata = {
      actorId: ids.actorId,
      commandId: ids.commandId,
      correlationId: ids.correlationId,
      prevHash: head,
    };
    // Each text is written once: for the hash and for the store (`dataJson`, `metadataJson`).
    const dataJson = JSON.stringify(event.data) ?? 'null';
    const metadataJson = JSON.stringify(metadata);
    head =
      event.data === undefined
        ? eventHash({
            streamId,
            revision: revision + 1 + index,
            type: event.type,
            data: event.data,
            metadata,
          })
        : eventHashOfCanonical(
            streamId,
            revision + 1 + index,
            event.type,
            canonicalFromJson(event.data, dataJson),
            canonicalFromJson(metadata, metadataJson),
          );
    sealed.push({
      id: eventIdFor(streamId, ids.commandId, index),
      type: event.type,
      data: event.data,
      metadata: { ...metadata, hash: head },
      dataJson,
      metadataJson: withHash(metadataJson, head),
    });
  }
  return { events: sealed, headHash: head };
};
