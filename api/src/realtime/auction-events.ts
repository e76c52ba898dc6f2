import {
  type AuctionEvent,
  type AuctionSocketEvent,
  type AuctionSocketEventName,
  type PublicUser,
  bidView,
  centsToDollars,
  deletedUser,
  quietRevisionType,
  socketEventNames,
} from '@auction/contracts';
import type { AuctionState } from '@auction/engine';
import { type ImageUrl, priceView, storedImagePath } from '@auction/projections';

type Broadcast = Exclude<AuctionEvent, { type: 'AuctionCreated' }>;

/** The auction events watchers hear about (creation has no watchers yet). */
export const isBroadcast = (event: AuctionEvent): event is Broadcast =>
  event.type !== 'AuctionCreated';

export const socketEventName = (event: Broadcast): AuctionSocketEventName =>
  socketEventNames[event.type];

const statusOf = (state: AuctionState): AuctionSocketEvent['status'] =>
  state.status === 'None' ? 'Live' : state.status;

/**
 * How many bids stand after `event`, from how many stood before it and the state before it, in
 * constant time (a broadcast never walks the auction's bids).
 */
export const bidCountAfter = (count: number, event: AuctionEvent, before: AuctionState): number => {
  if (event.type !== 'BidPlaced' && event.type !== 'BidRetracted') return count;
  const standing = before.bids.get(event.data.bidId)?.retracted === false;
  if (event.type === 'BidPlaced') return standing ? count : count + 1;
  return standing ? count - 1 : count;
};

/** How many bids stand in `state` (walks them: for a load, not a broadcast). */
export const standingBidCount = (state: AuctionState): number => {
  let count = 0;
  for (const bid of state.bids.values()) if (!bid.retracted) count++;
  return count;
};

type BidEvent = Extract<
  Broadcast,
  { type: 'BidPlaced' | 'BidEdited' | 'AutomaticBidPlaced' | 'BidRetracted' }
>;

/** The bid an event is about, with its bidder's profile, and the end a soft-close bid moved. */
const bidChange = (
  event: BidEvent,
  state: AuctionState,
  users: ReadonlyMap<string, PublicUser>,
): Pick<AuctionSocketEvent, 'bid'> & { changes?: AuctionSocketEvent['changes'] } => {
  const d = event.data;
  const placed = state.bids.get(d.bidId);
  return {
    bid: bidView(
      {
        bidId: d.bidId,
        auctionId: d.auctionId,
        bidderId: d.bidderId,
        amount: d.amount,
        placedAt: placed?.placedAt ?? d.at,
        automatic: event.type === 'AutomaticBidPlaced',
      },
      users.get(d.bidderId) ?? deletedUser(d.bidderId),
    ),
    ...('endsAt' in d && d.endsAt !== undefined
      ? { changes: { auctionEndTime: d.endsAt, extended: true } }
      : {}),
  };
};

/**
 * The public fields an edit changed, as views show them. The reserve's amount stays the seller's:
 * `reserve` in the payload says whether it is met.
 */
const editedFields = (
  changed: Extract<Broadcast, { type: 'AuctionEdited' }>['data'],
  imageUrl: ImageUrl,
): Record<string, unknown> => {
  const changes: Record<string, unknown> = {};
  if (changed.title !== undefined) changes.title = changed.title;
  if (changed.description !== undefined) changes.description = changed.description;
  if (changed.image !== undefined)
    changes.image = changed.image ? { url: imageUrl(changed.image) } : null;
  if (changed.startingPrice !== undefined)
    changes.startingPrice = centsToDollars(changed.startingPrice);
  if (changed.endsAt !== undefined) changes.auctionEndTime = changed.endsAt;
  return changes;
};

/**
 * The payload of one auction event for the room `auction:{id}`: the stream revision, the bid it is
 * about (with the bidder's public profile) and the auction as it stands after it (`state`, and
 * `bidCount` standing bids, which a watcher holding only the first pages cannot count).
 */
export const socketPayload = (
  event: Broadcast,
  revision: number,
  state: AuctionState,
  users: ReadonlyMap<string, PublicUser>,
  imageUrl: ImageUrl = storedImagePath,
  bidCount?: number,
): AuctionSocketEvent => {
  const { reserve, buyNowPrice, leadingBidId } = priceView(state);
  const base = {
    productId: event.data.auctionId,
    revision,
    type: event.type,
    currentBid: centsToDollars(state.currentBid),
    status: statusOf(state),
    leadingBidId,
    reserve,
    buyNowPrice,
    ...(bidCount === undefined ? {} : { bidCount }),
    at: event.data.at,
  };
  // Nothing visible changed: one shape for every such revision (no bid, no changes, no type).
  const quiet = { ...base, type: quietRevisionType, bid: null, changes: {} };
  switch (event.type) {
    case 'BidMaximumRaised':
      return quiet;
    case 'BidPlaced':
    case 'BidEdited':
    case 'AutomaticBidPlaced':
    case 'BidRetracted':
      return { ...base, ...bidChange(event, state, users) };
    case 'AuctionEdited': {
      const changes = editedFields(event.data, imageUrl);
      return Object.keys(changes).length === 0 ? quiet : { ...base, bid: null, changes };
    }
    case 'AuctionCancelled':
      return { ...base, bid: null, changes: { status: 'Cancelled' } };
    case 'AuctionClosed':
      return {
        ...base,
        bid: null,
        winnerId: state.winnerId,
        winner:
          state.winnerId === null
            ? null
            : (users.get(state.winnerId) ?? deletedUser(state.winnerId)),
        finalPrice: state.finalPrice === null ? null : centsToDollars(state.finalPrice),
        boughtNow: state.boughtNow,
      };
    case 'AuctionEndingSoon':
      return { ...base, bid: null, changes: { endingSoon: true } };
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
};

/** The user ids a payload needs joined (the bidder, the winner; none for a private event). */
export const usersOf = (event: AuctionEvent): string[] => {
  if (event.type === 'AuctionClosed')
    return event.data.outcome === 'Sold' ? [event.data.winnerId] : [];
  return event.type !== 'BidMaximumRaised' && 'bidderId' in event.data ? [event.data.bidderId] : [];
};
