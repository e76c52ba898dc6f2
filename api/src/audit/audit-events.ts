import { type AuditEvent, centsToDollars } from '@auction/contracts';
import type { RecordedEvent } from '@auction/engine';

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

/** Fields only their bidder and auditors may see: secret maxima (proxy bids). */
const PRIVATE_FIELDS = ['maxAmount', 'previousMaxAmount'];

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

/**
 * The event as a seller's audit shows it: the bidders' secret maxima taken out of `data` and
 * `dollars`, and named in `redacted`. The hash seals the stored data, so a redacted event cannot
 * be re-hashed by its reader; the server's own check (`verify`) covers it, and auditors see all.
 */
export const withoutMaxima = (event: AuditEvent): AuditEvent => {
  if (!isRecord(event.data)) return event;
  const hidden = PRIVATE_FIELDS.filter((field) => isRecord(event.data) && field in event.data);
  if (hidden.length === 0) return event;
  const data = { ...event.data };
  const dollars = { ...event.dollars };
  for (const field of hidden) {
    delete data[field];
    delete dollars[field];
  }
  return { ...event, data, dollars, redacted: hidden };
};
