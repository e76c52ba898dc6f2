import { z } from 'zod';
import { Id } from '../ids';
import { IsoTime, toIsoTime } from '../time';
import { operationTable } from './operation';
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
  /**
   * `metadata.hash` and `metadata.prevHash` (see `verifyChain`); null when missing, or withheld
   * from a seller where they would be a function of a maximum sealed before commitments.
   */
  hash: z.string().nullable(),
  prevHash: z.string().nullable(),
  data: z.unknown(),
  metadata: z.unknown(),
  /** The money fields of `data` (amounts, prices, maxima), in dollars. */
  dollars: z.record(z.string(), z.number()),
  /**
   * Fields this event type may carry that were taken out of `data` for this reader (a seller does
   * not see bidders' maxima); `metadata` then carries the commitment to them instead of the salt.
   */
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
  /**
   * Standing bids, highest first (then earliest, then by id), bidders' names joined. `maxAmount`
   * (dollars): the bidder's secret maximum, for auditors and admins only, never for a seller.
   */
  bids: z.array(BidView.extend({ maxAmount: z.number().optional() })),
  /** The seller's reserve and Buy It Now price in dollars, null for none (the seller set them). */
  reservePrice: z.number().nullable().optional(),
  buyNowPrice: z.number().nullable().optional(),
  winner: PublicUser.nullable(),
  finalPrice: z.number().nullable(),
  /** The event at `revision`. */
  event: AuditEvent.nullable(),
});
export type AuditState = z.infer<typeof AuditState>;

/** Who acted: a user (their public name), the system (timers, closes), or unknown (no actor stored). */
export const AuditActor = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string() }),
  z.object({ kind: z.literal('system') }),
  z.object({ kind: z.literal('unknown') }),
]);
export type AuditActor = z.infer<typeof AuditActor>;

/** What a board field holds: dollars, a user id, an ISO time or a word (status, title). */
export const AuditChangeKind = z.enum(['money', 'user', 'time', 'text']);

/**
 * One field of the board an event changed, before and after it. `bidder` names whose bid or
 * maximum it is (`bid`, `maximum`); null for the auction's own fields. `maximum` changes are
 * for auditors and admins only.
 */
export const AuditChange = z.object({
  field: z.enum([
    'status',
    'price',
    'leader',
    'endsAt',
    'title',
    'startingPrice',
    'reservePrice',
    'buyNowPrice',
    'bid',
    'maximum',
    'winner',
    'finalPrice',
  ]),
  kind: AuditChangeKind,
  bidder: z.string().nullable(),
  before: z.union([z.number(), z.string()]).nullable(),
  after: z.union([z.number(), z.string()]).nullable(),
});
export type AuditChange = z.infer<typeof AuditChange>;

/** One event of the timeline: who did it, what it changed, and the price and leader after it. */
export const AuditStep = z.object({
  revision: z.number().int().min(0),
  type: z.string(),
  at: z.string().nullable(),
  actor: AuditActor,
  /** The bidder a bid event is about (for an automatic bid: the one the system bid for). */
  bidder: z.string().nullable(),
  changes: z.array(AuditChange),
  /** The current bid after the event, dollars. */
  price: z.number(),
  /** The leading bidder after the event, null for none. */
  leader: z.string().nullable(),
});
export type AuditStep = z.infer<typeof AuditStep>;

/** The auction's events as a timeline, the users they name (by id) with their public names. */
export const AuditTimeline = z.object({
  auctionId: z.string(),
  lastRevision: z.number().int().nullable(),
  steps: z.array(AuditStep),
  users: z.array(PublicUser),
});
export type AuditTimeline = z.infer<typeof AuditTimeline>;

export const ChainBreak = z.enum([
  'revision-gap',
  'metadata-invalid',
  'prev-hash-mismatch',
  'hash-mismatch',
]);

/** The stream's hash chain: intact, or the first revision that does not hold. */
export const AuditChainCheck = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    length: z.number().int(),
    /** Null for a seller when the stream's hashes are withheld from them (see `AuditEvent`). */
    headHash: z.string().nullable(),
  }),
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
  /** One line per problem found, for people: a broken chain, a cut tail, a read model that differs. */
  problems: z.array(z.string()),
  /**
   * The read models that have not applied the auction's last event yet, so were not compared:
   * lag, not a problem (verify again once they catch up).
   */
  behind: z.array(z.string()),
  chain: AuditChainCheck,
  truncation: AuditTruncationCheck,
  readModels: AuditReadModelCheck,
});
export type AuditVerification = z.infer<typeof AuditVerification>;

/** The auction an audit route reads: `/audit/auctions/{id}/...`. */
export const AuditParams = z.object({
  id: z.custom<string>((value) => Id.safeParse(value).success, { error: 'Invalid auction id' }),
});

const REVISION_MESSAGE = 'revision must be a whole number, 0 or more';
const AT_MESSAGE = 'at must be an ISO date-time such as 2030-01-01T12:00:00.000Z';

const isString = (value: unknown): value is string => typeof value === 'string';

const revision = z
  .custom<string>(isString, { error: REVISION_MESSAGE })
  .pipe(z.string().regex(/^\d{1,15}$/, REVISION_MESSAGE))
  .transform(Number)
  .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, REVISION_MESSAGE));

// Any offset in; out in the fixed UTC form whose string order is the order of business times.
const at = z
  .custom<string>(isString, { error: AT_MESSAGE })
  .pipe(z.iso.datetime({ offset: true, error: AT_MESSAGE }))
  .transform((value) => toIsoTime(Date.parse(value)))
  .refine((value) => IsoTime.safeParse(value).success, { error: 'at is out of range' });

/**
 * Where to stop the fold: through `revision` (inclusive), through the last event whose business
 * time is at or before `at`, or (neither given) through the last event.
 */
export const AuditPoint = z
  .object({ revision: revision.optional(), at: at.optional() })
  .refine((point) => point.revision === undefined || point.at === undefined, {
    error: 'Give either revision or at, not both',
  });
export type AuditPoint = z.infer<typeof AuditPoint>;

/** `/api/v1/audit/auctions/{id}/...` (design §7): for Auditors, Admins and the auction's seller. */
export const auditOperations = operationTable({
  events: {
    method: 'get',
    path: '/audit/auctions/{id}/events',
    summary: "An auction's stored events (Auditor, Admin or its seller)",
    auth: 'user',
    params: AuditParams,
    ok: 200,
    payload: {
      auctionId: z.string(),
      lastRevision: z.number().int().nullable(),
      events: z.array(AuditEvent),
    },
  },
  state: {
    method: 'get',
    path: '/audit/auctions/{id}/state',
    summary: 'The auction folded through a revision or a time',
    auth: 'user',
    params: AuditParams,
    query: AuditPoint,
    ok: 200,
    payload: { state: AuditState },
  },
  timeline: {
    method: 'get',
    path: '/audit/auctions/{id}/timeline',
    summary: 'Each event with its actor and what it changed (maxima for auditors only)',
    auth: 'user',
    params: AuditParams,
    ok: 200,
    payload: { timeline: AuditTimeline },
  },
  verify: {
    method: 'get',
    path: '/audit/auctions/{id}/verify',
    summary: "Check the auction's hash chain and read models",
    auth: 'user',
    params: AuditParams,
    ok: 200,
    payload: { verification: AuditVerification },
  },
  export: {
    method: 'get',
    path: '/audit/auctions/{id}/export',
    summary: "The auction's events as NDJSON, one per line",
    auth: 'user',
    params: AuditParams,
    ok: 200,
    raw: { contentType: 'application/x-ndjson', schema: AuditEvent },
  },
});
