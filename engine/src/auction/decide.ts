import {
  type AuctionCommand,
  type AuctionEvent,
  type CancelAuction,
  type CloseAuction,
  type CreateAuction,
  type EditAuction,
  type EditBid,
  type ErrorCode,
  type PlaceBid,
  type RetractBid,
  bidTooLow,
  isoToMs,
  minimumRaise,
  rejection,
  rules,
  toIsoTime,
} from '@auction/contracts';
import type { AuctionState, Decision } from './decider-types';
import { highestActiveBid } from './state';

const accept = (...events: AuctionEvent[]): Decision => ({ ok: true, events });
const refuse = (code: ErrorCode): Decision => ({ ok: false, rejection: rejection(code) });
const NOTHING: Decision = { ok: true, events: [] };

/** Business time never goes backwards within a stream: a command ordered after a later one takes its time. */
const nowOf = (command: AuctionCommand, state: AuctionState): string => {
  const at = command.metadata.at;
  return state.lastAt !== null && state.lastAt > at ? state.lastAt : at;
};

const ended = (state: AuctionState, now: string): boolean =>
  state.endsAt !== null && now >= state.endsAt;

/**
 * The end a bid or raise at `now` leaves: moved to `now` plus the extension when it lands within
 * the soft-close window (never earlier than it was); undefined when it stays.
 */
const extendedEnd = (state: AuctionState, now: string): string | undefined => {
  const { softClose, endsAt } = state;
  if (softClose === null || endsAt === null) return undefined;
  const nowMs = isoToMs(now);
  const endMs = isoToMs(endsAt);
  if (endMs - nowMs > softClose.windowMs) return undefined;
  const moved = nowMs + softClose.extensionMs;
  return moved > endMs ? toIsoTime(moved) : undefined;
};

const endTimeProblem = (endsAt: string, now: string): ErrorCode | null => {
  if (endsAt <= now) return 'END_TIME_NOT_IN_FUTURE';
  if (isoToMs(endsAt) > isoToMs(now) + rules.maxAuctionDurationMs) return 'END_TIME_TOO_FAR';
  return null;
};

/** `(command, state) → events | rejection`: pure; time and ids come in with the command. */
export const decide = (command: AuctionCommand, state: AuctionState): Decision => {
  if (command.type !== 'CreateAuction' && state.status === 'None')
    return refuse('AUCTION_NOT_FOUND');
  const now = nowOf(command, state);
  switch (command.type) {
    case 'CreateAuction':
      return create(command, state, now);
    case 'EditAuction':
      return editAuction(command, state, now);
    case 'CancelAuction':
      return cancel(command, state, now);
    case 'PlaceBid':
      return placeBid(command, state, now);
    case 'EditBid':
      return editBid(command, state, now);
    case 'RetractBid':
      return retractBid(command, state, now);
    case 'CloseAuction':
      return close(command, state, now);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown auction command ${(unexpected as { type: string }).type}`);
    }
  }
};

const create = ({ data, metadata }: CreateAuction, state: AuctionState, now: string): Decision => {
  if (state.status !== 'None') return refuse('AUCTION_ALREADY_EXISTS');
  if (data.startingPrice < rules.minStartingPriceCents) return refuse('STARTING_PRICE_TOO_LOW');
  const problem = endTimeProblem(data.endsAt, now);
  if (problem) return refuse(problem);
  return accept({
    type: 'AuctionCreated',
    data: {
      auctionId: data.auctionId,
      sellerId: metadata.actorId,
      title: data.title,
      description: data.description,
      categoryId: data.categoryId,
      startingPrice: data.startingPrice,
      endsAt: data.endsAt,
      image: data.image,
      ...(data.softClose ? { softClose: data.softClose } : {}),
      at: now,
    },
  });
};

const editAuction = (
  { data, metadata }: EditAuction,
  state: AuctionState,
  now: string,
): Decision => {
  if (metadata.actorId !== state.sellerId) return refuse('NOT_AUCTION_OWNER');
  if (state.status !== 'Live') return refuse('AUCTION_NOT_LIVE');
  if (ended(state, now)) return refuse('AUCTION_ENDED');
  const hasBids = state.leadingBidId !== null;
  const changes: Extract<AuctionEvent, { type: 'AuctionEdited' }>['data'] = {
    auctionId: data.auctionId,
    at: now,
  };
  if (data.startingPrice !== undefined && data.startingPrice !== state.startingPrice) {
    if (hasBids) return refuse('STARTING_PRICE_LOCKED');
    if (data.startingPrice < rules.minStartingPriceCents) return refuse('STARTING_PRICE_TOO_LOW');
    changes.startingPrice = data.startingPrice;
  }
  if (data.endsAt !== undefined && data.endsAt !== state.endsAt) {
    const problem = endTimeProblem(data.endsAt, now);
    if (problem) return refuse(problem);
    if (hasBids && state.endsAt !== null && data.endsAt < state.endsAt) {
      return refuse('END_TIME_EARLIER');
    }
    changes.endsAt = data.endsAt;
  }
  if (data.title !== undefined && data.title !== state.title) changes.title = data.title;
  if (data.description !== undefined && data.description !== state.description) {
    changes.description = data.description;
  }
  if (data.image !== undefined && data.image !== state.image) changes.image = data.image;
  return Object.keys(changes).length > 2
    ? accept({ type: 'AuctionEdited', data: changes })
    : NOTHING;
};

const cancel = ({ data, metadata }: CancelAuction, state: AuctionState, now: string): Decision => {
  if (metadata.actorId !== state.sellerId) return refuse('NOT_AUCTION_OWNER');
  if (state.status === 'Cancelled') return NOTHING;
  if (state.status !== 'Live') return refuse('AUCTION_CLOSED');
  if (ended(state, now)) return refuse('AUCTION_ENDED');
  return accept({
    type: 'AuctionCancelled',
    data: { auctionId: data.auctionId, reason: data.reason, at: now },
  });
};

const biddingProblem = (state: AuctionState, now: string): ErrorCode | null => {
  if (state.status !== 'Live') return 'AUCTION_NOT_LIVE';
  if (ended(state, now)) return 'AUCTION_ENDED';
  return null;
};

const placeBid = ({ data, metadata }: PlaceBid, state: AuctionState, now: string): Decision => {
  const problem = biddingProblem(state, now);
  if (problem) return refuse(problem);
  if (metadata.actorId === state.sellerId) return refuse('OWN_AUCTION');
  if (state.bids.has(data.bidId)) return refuse('BID_ALREADY_EXISTS');
  const minimum =
    state.leadingBidId === null ? state.startingPrice : minimumRaise(state.currentBid);
  if (data.amount < minimum) return { ok: false, rejection: bidTooLow(minimum) };
  const endsAt = extendedEnd(state, now);
  return accept({
    type: 'BidPlaced',
    // Keys in sorted order, so the hash chain's canonical JSON is plain `JSON.stringify`.
    data: {
      amount: data.amount,
      at: now,
      auctionId: data.auctionId,
      bidId: data.bidId,
      bidderId: metadata.actorId,
      ...(endsAt === undefined ? {} : { endsAt }),
    },
  });
};

const editBid = ({ data, metadata }: EditBid, state: AuctionState, now: string): Decision => {
  const problem = biddingProblem(state, now);
  if (problem) return refuse(problem);
  const bid = state.bids.get(data.bidId);
  if (!bid || bid.retracted) return refuse('BID_NOT_FOUND');
  if (bid.bidderId !== metadata.actorId) return refuse('NOT_BID_OWNER');
  const minimum =
    state.leadingBidId === bid.bidId ? bid.amount + 1 : minimumRaise(state.currentBid);
  if (data.amount < minimum) return { ok: false, rejection: bidTooLow(minimum) };
  const endsAt = extendedEnd(state, now);
  return accept({
    type: 'BidEdited',
    data: {
      amount: data.amount,
      at: now,
      auctionId: data.auctionId,
      bidId: bid.bidId,
      bidderId: bid.bidderId,
      ...(endsAt === undefined ? {} : { endsAt }),
      previousAmount: bid.amount,
    },
  });
};

const retractBid = ({ data, metadata }: RetractBid, state: AuctionState, now: string): Decision => {
  const problem = biddingProblem(state, now);
  if (problem) return refuse(problem);
  const bid = state.bids.get(data.bidId);
  if (!bid || bid.retracted) return refuse('BID_NOT_FOUND');
  if (bid.bidderId !== metadata.actorId) return refuse('NOT_BID_OWNER');
  const next = state.leadingBidId === bid.bidId ? highestActiveBid(state, bid.bidId) : null;
  const currentBid = state.leadingBidId === bid.bidId ? (next?.amount ?? 0) : state.currentBid;
  const leadingBidId =
    state.leadingBidId === bid.bidId ? (next?.bidId ?? null) : state.leadingBidId;
  return accept({
    type: 'BidRetracted',
    data: {
      auctionId: data.auctionId,
      bidId: bid.bidId,
      bidderId: bid.bidderId,
      amount: bid.amount,
      currentBid,
      leadingBidId,
      at: now,
    },
  });
};

const close = ({ data }: CloseAuction, state: AuctionState, now: string): Decision => {
  if (state.status !== 'Live') return NOTHING;
  // The end it has now (a soft close may have moved it): the closing scheduler waits for it.
  if (!ended(state, now))
    return { ok: false, rejection: rejection('AUCTION_NOT_ENDED', { endsAt: state.endsAt }) };
  const winning = state.leadingBidId === null ? undefined : state.bids.get(state.leadingBidId);
  return accept({
    type: 'AuctionClosed',
    data: winning
      ? {
          auctionId: data.auctionId,
          outcome: 'Sold',
          winnerId: winning.bidderId,
          winningBidId: winning.bidId,
          finalPrice: winning.amount,
          at: now,
        }
      : { auctionId: data.auctionId, outcome: 'Expired', at: now },
  });
};
