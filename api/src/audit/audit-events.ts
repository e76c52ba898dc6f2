import { type AuditEvent, centsToDollars } from '@auction/contracts';
import { type RecordedEvent, commitmentOf } from '@auction/engine';

/** The money fields auction events carry in their data, in cents. */
const MONEY_FIELDS = [
  'startingPrice',
  'amount',
  'previousAmount',
  'currentBid',
  'finalPrice',
  'maxAmount',
  'previousMaxAmount',
  'reservePrice',
  'buyNowPrice',
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const textField = (value: unknown, field: string): string | null => {
  const found = isRecord(value) ? value[field] : undefined;
  return typeof found === 'string' ? found : null;
};

const dollarsOf = (data: unknown): Record<string, number> => {
  const dollars: Record<string, number> = {};
  if (!isRecord(data)) return dollars;
  for (const field of MONEY_FIELDS) {
    const cents = data[field];
    if (typeof cents === 'number' && Number.isSafeInteger(cents)) {
      dollars[field] = centsToDollars(cents);
    }
  }
  return dollars;
};

/** A stored event as the audit shows it: everything as stored, plus the fields people look for. */
export const toAuditEvent = (event: RecordedEvent): AuditEvent => ({
  streamId: event.streamId,
  revision: event.revision,
  position: event.position,
  eventId: event.id,
  type: event.type,
  at: textField(event.data, 'at'),
  recordedAt: event.recordedAt,
  actorId: textField(event.metadata, 'actorId'),
  hash: textField(event.metadata, 'hash'),
  prevHash: textField(event.metadata, 'prevHash'),
  data: event.data,
  metadata: event.metadata,
  dollars: dollarsOf(event.data),
});

/** Who reads the audit: auditors and admins see every event as stored; a seller, less. */
export type AuditReader = 'auditor' | 'seller';

/**
 * The bidders' secrets each event type may carry, hidden from a seller. Named per type, not per
 * event, so `redacted` does not tell a bid with a maximum from one without.
 */
const BIDDER_SECRETS: Readonly<Record<string, readonly string[]>> = {
  BidPlaced: ['maxAmount'],
  BidEdited: ['maxAmount'],
  BidMaximumRaised: ['maxAmount', 'previousMaxAmount'],
};

const holdsBidderSecret = (data: unknown): boolean =>
  isRecord(data) && ('maxAmount' in data || 'previousMaxAmount' in data);

const without = <T>(record: Record<string, T>, fields: readonly string[]): Record<string, T> => {
  const kept = { ...record };
  for (const field of fields) delete kept[field];
  return kept;
};

/**
 * A stream's events as a seller sees them: each bidder's maximum replaced by its commitment, so the
 * seller can check the chain and learns nothing of a maximum. From the first event sealed before
 * commitments on, every hash is a function of a maximum, so those hashes are withheld.
 */
export const sellerView = (): ((event: AuditEvent) => AuditEvent) => {
  let withholding = false;
  return (event) => {
    const hidden = BIDDER_SECRETS[event.type] ?? [];
    const data = isRecord(event.data) ? without(event.data, hidden) : event.data;
    const dollars = without(event.dollars, hidden);
    let metadata = event.metadata;
    let { hash, prevHash } = event;
    if (isRecord(metadata)) {
      const { salt, ...rest } = metadata;
      if (typeof salt === 'string') {
        metadata = { ...rest, commitment: commitmentOf(salt, event.data) };
      } else if (!withholding && holdsBidderSecret(event.data)) {
        withholding = true;
        metadata = without(rest, ['hash']);
        hash = null;
      }
      if (withholding && hash !== null) {
        metadata = without(metadata as Record<string, unknown>, ['hash', 'prevHash']);
        hash = null;
        prevHash = null;
      }
    }
    return {
      ...event,
      data,
      dollars,
      metadata,
      hash,
      prevHash,
      ...(hidden.length > 0 ? { redacted: [...hidden] } : {}),
    };
  };
};

/** How `reader` sees a stream's events, taken in order (a fresh view per stream). */
export const viewFor = (reader: AuditReader): ((event: AuditEvent) => AuditEvent) =>
  reader === 'auditor' ? (event) => event : sellerView();
