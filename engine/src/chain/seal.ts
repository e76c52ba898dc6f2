import { createHmac, hash, randomBytes } from 'node:crypto';
import type { NewEvent } from '../event-store/event-store';
import {
  canonicalFromJson,
  canonicalJson,
  commitmentOf,
  eventHash,
  eventHashOfCanonical,
  saltedRequest,
  withoutSecrets,
} from './hash-chain';

export interface CommandIds {
  readonly commandId: string;
  readonly actorId: string;
  readonly correlationId: string;
  /** The digest of the request behind a command sent with an Idempotency-Key. */
  readonly requestDigest?: string;
}

/**
 * The secret an event's salt is derived from (256 bits, hex). Derived, not random, so a command
 * decided twice on the same state (two nodes during a handoff) seals into the very same events, as
 * the idempotent append and the chain heads expect. Every node of a cluster must use the same key.
 */
export type SaltKey = string;

/** This process's own key, for engines given none: right for one process, not for a cluster. */
export const localSaltKey: SaltKey = randomBytes(32).toString('hex');

/** A salt key derived from a secret the nodes share (one used for nothing else as it is). */
export const saltKeyFrom = (secret: string): SaltKey =>
  createHmac('sha256', secret).update('auction event salts').digest('hex');

/**
 * An event's 128-bit salt: SHA-256 of the key, the event's revision and its id, cut to 128 bits.
 * The id, of fixed length, comes last, so no salt extends (SHA-256's length extension) to the
 * input of another.
 */
const saltFor = (key: SaltKey, eventId: string, revision: number): string =>
  hash('sha256', `${key}${revision}\n${eventId}`, 'hex').slice(0, 32);

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

/**
 * Puts events of one command into the stream's hash chain, starting after `revision`. Each event
 * gets its own salt; its hash covers its secret fields only through their commitment. Both the
 * stored metadata and the hashed one are plain strings under sorted keys, so their JSON is written
 * here directly, once: this runs for every event of every command.
 */
export const sealEvents = (
  streamId: string,
  revision: number,
  prevHash: string,
  events: readonly { readonly type: string; readonly data: unknown }[],
  ids: CommandIds,
  saltKey: SaltKey = localSaltKey,
): SealedBatch => {
  const sealed: NewEvent[] = [];
  const actorId = JSON.stringify(ids.actorId);
  const commandId = JSON.stringify(ids.commandId);
  const correlationId = JSON.stringify(ids.correlationId);
  let head = prevHash;
  for (const [index, event] of events.entries()) {
    const id = eventIdFor(streamId, ids.commandId, index);
    const salt = saltFor(saltKey, id, revision + 1 + index);
    const request =
      index === 0 && ids.requestDigest !== undefined
        ? saltedRequest(salt, ids.requestDigest)
        : undefined;
    const metadata = {
      actorId: ids.actorId,
      commandId: ids.commandId,
      correlationId: ids.correlationId,
      prevHash: head,
      ...(request === undefined ? {} : { request }),
      salt,
    };
    const tail = `"prevHash":"${head}"${request === undefined ? '' : `,"request":"${request}"`}`;
    const metadataJson = `{"actorId":${actorId},"commandId":${commandId},"correlationId":${correlationId},${tail},"salt":"${salt}"}`;
    // Written once: for the hash and for the store.
    const dataJson = JSON.stringify(event.data) ?? 'null';
    if (event.data === undefined) {
      head = eventHash({
        streamId,
        revision: revision + 1 + index,
        type: event.type,
        data: event.data,
        metadata,
      });
    } else {
      const shown = withoutSecrets(event.data);
      const commitment = commitmentOf(salt, event.data);
      head = eventHashOfCanonical(
        streamId,
        revision + 1 + index,
        event.type,
        shown === event.data ? canonicalFromJson(event.data, dataJson) : canonicalJson(shown),
        `{"actorId":${actorId},"commandId":${commandId},"commitment":"${commitment}","correlationId":${correlationId},${tail}}`,
      );
    }
    sealed.push({
      id,
      type: event.type,
      data: event.data,
      metadata: { ...metadata, hash: head },
      dataJson,
      metadataJson: withHash(metadataJson, head),
    });
  }
  return { events: sealed, headHash: head };
};
