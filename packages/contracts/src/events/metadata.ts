import { z } from 'zod';
import { Id } from '../ids';

/** Hex SHA-256. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** 128 random bits, hex. */
export const SaltHex = z.string().regex(/^[0-9a-f]{32}$/);

/**
 * What every stored event carries beside its data. `prevHash` chains it to the event before it
 * (the first: the stream id's hash) and `hash` seals it, covering the secret fields (maxima, the
 * reserve) only through a salted commitment, so the chain can be checked without revealing them.
 * Events sealed before commitments have no `salt`.
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
