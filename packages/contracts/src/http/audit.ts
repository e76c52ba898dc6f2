import { z } from 'zod';
import { BidView, ImageView, PublicUser } from './views';

/**
 * One stored event of an auction's stream, as the audit routes, the NDJSON export and the
 * `npm run audit` timeline show it. `data` and `metadata` are exactly as stored (money in cents);
 * `dollars` repeats the money fields of `data` in dollars.
 */
export const AuditEvent = z.object({
  streamId: z.string(),
  /** 0-based position in the auction's stream. */
  revision: z.number().int().min(0),
  /** Position in the global log (commit order across every stream). */
  position: z.number().int(),
  eventId: z.string(),
  type: z.string(),
  /** Business time: `data.at`, null when the stored data has none. */
  at: z.string().nullable(),
  /** When the event store committed it. */
  recordedAt: z.string(),
  /** `metadata.actorId`: the acting user's id or `system`; null when the metadata has none. */
  actorId: z.string().nullable(),
  /** `metadata.hash` and `metadata.prevHash` (see `verifyChain`); null when missing. */
  hash: z.string().nullable(),
  prevHash: z.string().nullable(),
  data: z.unknown(),
  metadata: z.unknown(),
  /** The money fields of `data` (amounts, prices, maxima), in dollars. */
  dollars: z.record(z.string(), z.number()),
  /** Fields taken out of `data` for this reader (a seller does not see bidders' maxima). */
  redacted: z.array(z.string()).optional(),
});
export type AuditEvent = z.infer<typeof AuditEvent>;

/** `None`: the point is before the auction was created. */
export const AuditStatus = z.enum(['None', 'Live', 'Sold', 'Expired', 'Cancelled']);
export type AuditStatus = z.infer<typeof AuditStatus>;

/** The auction folded through one point of its stream. Money in dollars, as in every view. */
export const AuditState = z.object({
  auctionId: z.string(),
  /** The last revision folded in, null when no event is (a time before the auction existed). */
  revision: z.number().int().nullable(),
  /** The stream's last revision, null when the stream is empty. */
  lastRevision: z.number().int().nullable(),
  /** Business time of the last event folded in. */
  at: z.string().nullable(),
  status: AuditStatus,
  title: z.string(),
  description: z.string(),
  category: z.object({ _id: z.string(), name: z.string().nullable() }).nullable(),
  image: ImageView,
  seller: PublicUser.nullable(),
  startingPrice: z.number(),
  endsAt: z.string().nullable(),
  /** The highest standing bid, 0 when none. */
  currentBid: z.number(),
  leadingBidId: z.string().nullable(),
  leader: PublicUser.nullable(),
  /** Standing bids, highest first (then earliest, then by id), bidders' names joined. */
  bids: z.array(BidView),
  winner: PublicUser.nullable(),
  finalPrice: z.number().nullable(),
  /** The event at `revision`. */
  event: AuditEvent.nullable(),
});
export type AuditState = z.infer<typeof AuditState>;

export const ChainBreak = z.enum([
  'revision-gap',
  'metadata-invalid',
  'prev-hash-mismatch',
  'hash-mismatch',
]);

/** The stream's hash chain: intact, or the first revision that does not hold. */
export const AuditChainCheck = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), length: z.number().int(), headHash: z.string() }),
  z.object({
    ok: z.literal(false),
    length: z.number().int(),
    brokenAt: z.number().int(),
    reason: ChainBreak,
  }),
]);
export type AuditChainCheck = z.infer<typeof AuditChainCheck>;

/**
 * Events cut off the end of the stream (which the chain cannot show): the catalog records the
 * revision and global position of the last event it applied to the auction, and the log must
 * still hold that very event.
 */
export const AuditTruncationCheck = z.object({
  ok: z.boolean(),
  /** The stream's last revision and its global position; null when the stream is empty. */
  logRevision: z.number().int().nullable(),
  logPosition: z.number().int().nullable(),
  /** What the catalog applied last; null when it has no document for the auction. */
  recordedRevision: z.number().int().nullable(),
  recordedPosition: z.number().int().nullable(),
  message: z.string(),
});
export type AuditTruncationCheck = z.infer<typeof AuditTruncationCheck>;

/**
 * A stored read-model document that is not what a fresh replay builds. `missing`: the replay has
 * the document and the read model does not; `unexpected`: the other way round (`path` is empty
 * and the whole document is given); `changed`: the field at `path` differs. `stored` or
 * `replayed` is absent where that side has no such field.
 */
export const AuditDifference = z.object({
  projection: z.string(),
  collection: z.string(),
  documentId: z.string(),
  kind: z.enum(['missing', 'unexpected', 'changed']),
  path: z.string(),
  stored: z.unknown().optional(),
  replayed: z.unknown().optional(),
});
export type AuditDifference = z.infer<typeof AuditDifference>;

export const AuditReadModelCheck = z.object({
  ok: z.boolean(),
  projections: z.array(
    z.object({
      name: z.string(),
      /** The read model's checkpoint (global position), null before its first batch. */
      checkpoint: z.number().int().nullable(),
      /** True when it has not applied the auction's last event yet: not compared. */
      behind: z.boolean(),
      /** Documents of this auction compared (stored and replayed, counted once). */
      documents: z.number().int(),
    }),
  ),
  differences: z.array(AuditDifference),
  /** Differences found beyond the ones listed. */
  omitted: z.number().int(),
});
export type AuditReadModelCheck = z.infer<typeof AuditReadModelCheck>;

export const AuditVerification = z.object({
  auctionId: z.string(),
  /** Every check passed and every read model was compared. */
  ok: z.boolean(),
  /** One line per problem found, for people. */
  problems: z.array(z.string()),
  chain: AuditChainCheck,
  truncation: AuditTruncationCheck,
  readModels: AuditReadModelCheck,
});
export type AuditVerification = z.infer<typeof AuditVerification>;
