import { z } from 'zod';
import { Id } from '../ids';

/** Hex SHA-256. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** 128 random bits, hex. */
export const SaltHex = z.string().regex(/^[0-9a-f]{32}$/);

/**
 * What every stored event carries beside its data (the business time `at` is in the data).
 * `prevHash` chains each event to the one before it in its stream (the first event's `prevHash` is
 * the hash of the stream id), and `hash` seals the event itself.
 *
 * `hash` covers the data's secret fields (bidders' maxima, the reserve: `SECRET_FIELDS` in the
 * engine's chain) only through a commitment, the SHA-256 of those fields and `salt`, so a reader
 * shown the event without its secrets and salt can check the chain but cannot recover them. Events
 * sealed before commitments have no `salt` and hash every field as it is.
 */
export const EventMetadata = z.object({
  /** The command that produced the event. */
  commandId: Id,
  /** The acting user's id, or `system`. */
  actorId: Id,
  /** Ties together everything one user action caused. */
  correlationId: Id,
  prevHash: Sha256Hex,
  /** The commitment's random salt: stored, shown only to auditors. */
  salt: SaltHex.optional(),
  /**
   * In place of `salt`, in an event as shown to a reader who may not see its secrets: the
   * commitment itself. Never stored.
   */
  commitment: Sha256Hex.optional(),
  /**
   * A command sent with an Idempotency-Key: the SHA-256 of `salt` and the request's digest, so a
   * retry with another request under the same key is told apart (and nobody learns the request).
   */
  request: Sha256Hex.optional(),
  /** SHA-256 of this event (stream, revision, type, data and the metadata above): see `verifyChain`. */
  hash: Sha256Hex,
});
export type EventMetadata = z.infer<typeof EventMetadata>;
