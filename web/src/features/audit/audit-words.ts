import type { AuditChange, AuditEvent, AuditStep, PublicUser } from '@auction/contracts';
import { formatMoney } from '../../lib/format';

/** What each stored event type is called on the page (the stored name stays in the export). */
const NAMES: Readonly<Record<string, string>> = {
  AuctionCreated: 'Auction created',
  AuctionEdited: 'Auction edited',
  AuctionCancelled: 'Auction cancelled',
  BidPlaced: 'Bid placed',
  BidEdited: 'Bid raised',
  BidMaximumRaised: 'Maximum raised',
  AutomaticBidPlaced: 'Automatic bid',
  BidRetracted: 'Bid retracted',
  AuctionClosed: 'Auction closed',
  AuctionEndingSoon: 'Ending soon announced',
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The plain name of an event: "Automatic bid", "Auction closed: sold", ... */
export const eventName = (event: Pick<AuditEvent, 'type' | 'data'>): string => {
  const name = NAMES[event.type] ?? event.type;
  if (event.type !== 'AuctionClosed' || !isRecord(event.data)) return name;
  if (event.data.boughtNow === true) return 'Bought now';
  if (event.data.outcome === 'Sold') return 'Auction closed: sold';
  return event.data.reserveNotMet === true
    ? 'Auction closed: reserve not met'
    : 'Auction closed: no sale';
};

/** The name and the event's main amount: "Bid placed · $150". */
export const eventSummary = (event: AuditEvent): string => {
  const amount = event.dollars.amount ?? event.dollars.startingPrice ?? event.dollars.finalPrice;
  return amount === undefined ? eventName(event) : `${eventName(event)} · ${formatMoney(amount)}`;
};

/** Users by id, as the timeline names them. */
export type Users = ReadonlyMap<string, PublicUser>;

export const userName = (users: Users, id: string | null): string => {
  if (id === null) return 'Nobody';
  const user = users.get(id);
  return user ? `${user.firstName} ${user.lastName}` : 'Deleted user';
};

/**
 * Who acted: a user's public name, or "System" for timers and closes. The system places an
 * automatic bid for a bidder, in answer to the command of the user the log records.
 */
export const actorName = (step: AuditStep | undefined, users: Users): string => {
  if (!step) return '';
  if (step.type === 'AutomaticBidPlaced') return `System, for ${userName(users, step.bidder)}`;
  if (step.actor.kind === 'system') return 'System';
  if (step.actor.kind === 'unknown') return 'Unknown';
  return userName(users, step.actor.userId);
};

const msTime = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
});

/** `Nov 29, 2026, 2:52:07.123 AM`: to the millisecond, so events of one minute tell apart. */
export const formatMs = (iso: string | null): string => {
  if (iso === null) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : msTime.format(date);
};

const FIELD_NAMES: Readonly<Record<AuditChange['field'], string>> = {
  status: 'Status',
  price: 'Current bid',
  leader: 'Leader',
  endsAt: 'Ends',
  title: 'Title',
  startingPrice: 'Starting price',
  reservePrice: 'Reserve',
  buyNowPrice: 'Buy It Now price',
  bid: 'bid',
  maximum: 'maximum',
  winner: 'Winner',
  finalPrice: 'Final price',
};

/** "Current bid", or "Ann Archer's maximum" for a bidder's own field. */
export const changeField = (change: AuditChange, users: Users): string =>
  change.bidder === null
    ? FIELD_NAMES[change.field]
    : `${userName(users, change.bidder)}'s ${FIELD_NAMES[change.field]}`;

/** A value before or after: money, a name, a time to the millisecond or a word; "—" for none. */
export const changeValue = (
  change: AuditChange,
  value: AuditChange['before'],
  users: Users,
): string => {
  if (value === null) return change.kind === 'user' ? 'Nobody' : '—';
  switch (change.kind) {
    case 'money':
      return typeof value === 'number' ? formatMoney(value) : String(value);
    case 'user':
      return userName(users, String(value));
    case 'time':
      return formatMs(String(value));
    case 'text':
      return String(value);
  }
};
