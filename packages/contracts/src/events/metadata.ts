import { z } from 'zod';
import { Id } from '../ids';

/** Hex SHA-256. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * What every stored event carries beside its data (the business time `at` is in the data).
 * `prevHash` chains each event to the one before it in its stream (the first event's `prevHash` is
 * the hash of the stream id), and `hash` seals the event itself.
 */
export const EventMetadata = z.object({
  /** The command that produced the event. */
  commandId: Id,
  /** The acting user's id, or `system`. */
  actorId: Id,
  /** Ties together everything one user action caused. */
  correlationId: Id,
  prevHash: Sha256Hex,
  /** SHA-256 of this event (stream, revision, type, data and the metadata above): see `verifyChain`. */
  hash: Sha256Hex,
});
export type EventMetadata = z.infer<typeof EventMetadata>;
