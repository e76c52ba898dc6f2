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
 * The payload of one auction event for the room `auction:{id}`: the stream revision, the bid it is
 * about (with the bidder's public profile) and the auction as it stands after it (`state`).
 */
export const socketPayload = (
  event: Broadcast,
  revision: number,
  state: AuctionState,
  users: ReadonlyMap<string, PublicUser>,
  imageUrl: ImageUrl = storedImagePath,
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
    case 'BidRetracted': {
      const d = event.data;
      const placed = state.bids.get(d.bidId);
      return {
        ...base,
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
        // A bid in the soft-close window moved the end.
        ...('endsAt' in d && d.endsAt !== undefined
          ? { changes: { auctionEndTime: d.endsAt, extended: true } }
          : {}),
      };
    }
    case 'AuctionEdited': {
      const { auctionId: _id, at: _at, ...changed } = event.data;
      const changes: Record<string, unknown> = {};
      if (changed.title !== undefined) changes.title = changed.title;
      if (changed.description !== undefined) changes.description = changed.description;
      if (changed.image !== undefined)
        changes.image = changed.image ? { url: imageUrl(changed.image) } : null;
      if (changed.startingPrice !== undefined)
        changes.startingPrice = centsToDollars(changed.startingPrice);
      if (changed.endsAt !== undefined) changes.auctionEndTime = changed.endsAt;
      // The reserve's amount stays the seller's: `reserve` in the payload says whether it is met.
      return Object.keys(changes).length === 0 ? quiet : { ...base, bid: null, changes };
    }
    case 'AuctionCancelled':
      return { ...base, bid: null, changes: { status: 'Cancelled' } };
    case 'AuctionClosed':
      return {
        ...base,
        bid: null,
        winnerId: state.winnerId,
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

/** The user ids a payload needs joined (the bidder; none for a private event). */
export const usersOf = (event: AuctionEvent): string[] =>
  event.type !== 'BidMaximumRaised' && 'bidderId' in event.data ? [event.data.bidderId] : [];
