import { type AuditEvent, centsToDollars } from '@auction/contracts';
import type { RecordedEvent } from '@auction/engine';

/** The money fields auction events carry in their data, in cents. */
const MONEY_FIELDS = ['startingPrice', 'amount', 'previousAmount', 'currentBid', 'finalPrice'];

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
