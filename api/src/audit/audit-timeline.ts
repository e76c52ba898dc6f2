import {
  type AuditActor,
  type AuditChange,
  type AuditEvent,
  type AuditStep,
  AuctionEvent,
  centsToDollars,
} from '@auction/contracts';
import { type AuctionState, evolve, initialState } from '@auction/engine';
import { unreadable } from './audit-state';
import type { AuditReader } from './audit-events';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const SYSTEM_ACTOR = 'system';

const actorOf = (event: AuditEvent): AuditActor =>
  event.actorId === null
    ? { kind: 'unknown' }
    : event.actorId === SYSTEM_ACTOR
      ? { kind: 'system' }
      : { kind: 'user', userId: event.actorId };

const dollars = (cents: number | null | undefined): number | null =>
  cents === null || cents === undefined ? null : centsToDollars(cents);

const leaderOf = (state: AuctionState): string | null =>
  state.leadingBidId === null ? null : (state.bids.get(state.leadingBidId)?.bidderId ?? null);

type Value = number | string | null;

/** The fields of the board one event changed, before and after it. */
const changesBetween = (
  before: AuctionState,
  after: AuctionState,
  bidId: string | null,
  reader: AuditReader,
): AuditChange[] => {
  const changes: AuditChange[] = [];
  const add = (
    field: AuditChange['field'],
    kind: AuditChange['kind'],
    from: Value,
    to: Value,
    bidder: string | null = null,
  ) => {
    if (from !== to) changes.push({ field, kind, bidder, before: from, after: to });
  };
  add('status', 'text', before.status, after.status);
  add('title', 'text', before.title || null, after.title || null);
  add('startingPrice', 'money', dollars(before.startingPrice), dollars(after.startingPrice));
  add('reservePrice', 'money', dollars(before.reservePrice), dollars(after.reservePrice));
  add('buyNowPrice', 'money', dollars(before.buyNowPrice), dollars(after.buyNowPrice));
  add('price', 'money', dollars(before.currentBid), dollars(after.currentBid));
  add('leader', 'user', leaderOf(before), leaderOf(after));
  add('endsAt', 'time', before.endsAt, after.endsAt);
  if (bidId !== null) {
    const was = before.bids.get(bidId);
    const is = after.bids.get(bidId);
    const bidder = is?.bidderId ?? was?.bidderId ?? null;
    const standing = (bid: typeof was) => (bid && !bid.retracted ? bid : undefined);
    add('bid', 'money', dollars(standing(was)?.amount), dollars(standing(is)?.amount), bidder);
    // A bidder's secret maximum: for auditors and admins only, never for a seller; and only a
    // maximum above the bid (a bid without one has its amount as its maximum: nothing to show).
    const proxied = (bid: typeof was) => bid !== undefined && bid.maxAmount !== bid.amount;
    if (reader === 'auditor' && (proxied(standing(was)) || proxied(standing(is)))) {
      add(
        'maximum',
        'money',
        dollars(standing(was)?.maxAmount),
        dollars(standing(is)?.maxAmount),
        bidder,
      );
    }
  }
  add('winner', 'user', before.winnerId, after.winnerId);
  add('finalPrice', 'money', dollars(before.finalPrice), dollars(after.finalPrice));
  return changes;
};

export interface Timeline {
  readonly steps: AuditStep[];
  /** Every user a step names (actors, bidders, leaders, winners, the seller), to look up once. */
  readonly userIds: Set<string>;
}

/**
 * The stream folded event by event with the engine's `evolve` (as stored: the maxima are needed to
 * fold), each step with its actor and the board fields it changed; a seller's steps carry no
 * maximum. One pass over the events already read, so no dearer than listing them.
 */
export const timelineOf = (events: readonly AuditEvent[], reader: AuditReader): Timeline => {
  let state = initialState;
  const steps: AuditStep[] = [];
  const userIds = new Set<string>();
  for (const event of events) {
    const parsed = AuctionEvent.safeParse({ type: event.type, data: event.data });
    if (!parsed.success) throw unreadable(event.revision);
    const next = evolve(state, parsed.data);
    const data = isRecord(event.data) ? event.data : {};
    const bidId = typeof data.bidId === 'string' ? data.bidId : null;
    const bidder = typeof data.bidderId === 'string' ? data.bidderId : null;
    const actor = actorOf(event);
    const changes = changesBetween(state, next, bidId, reader);
    const leader = leaderOf(next);
    for (const id of [
      actor.kind === 'user' ? actor.userId : null,
      bidder,
      leader,
      next.sellerId,
      ...changes.filter((c) => c.kind === 'user').flatMap((c) => [c.before, c.after]),
      ...changes.map((c) => c.bidder),
    ]) {
      if (typeof id === 'string') userIds.add(id);
    }
    steps.push({
      revision: event.revision,
      type: event.type,
      at: event.at,
      actor,
      bidder,
      changes,
      price: centsToDollars(next.currentBid),
      leader,
    });
    state = next;
  }
  return { steps, userIds };
};
