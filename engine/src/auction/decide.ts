import {
  type AuctionCommand,
  type AuctionEvent,
  type BuyNow,
  type CancelAuction,
  type CloseAuction,
  type CreateAuction,
  type EditAuction,
  type EditBid,
  type ErrorCode,
  type PlaceBid,
  type RetractBid,
  bidTooLow,
  buyNowPriceChanged,
  defaultIncrementRule,
  isoToMs,
  minimumRaise,
  priceProblems,
  rejection,
  rules,
  toIsoTime,
} from '@auction/contracts';
import type { AuctionState, BidState, Decision } from './decider-types';
import { evolve } from './evolve';
import { automaticBid, buyNowOpen, rankAll } from './proxy';
import { announceEndingSoon } from './ending-soon';

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

/**
 * Accepts `events` and, after them, the automatic bid the proxy rules call for (which, landing in
 * the soft-close window, moves the end like any bid).
 */
const acceptWithProxies = (
  state: AuctionState,
  now: string,
  ...events: AuctionEvent[]
): Decision => {
  let after = state;
  for (const event of events) after = evolve(after, event);
  const automatic = automaticBid(after, now, extendedEnd(after, now));
  if (automatic === null) return accept(...events);
  return accept(...events.map((event) => markOutbid(event, automatic.data.bidId)), automatic);
};

/** A bid or raise that an automatic bid for another bid answers at once says so (for notices). */
const markOutbid = (event: AuctionEvent, leaderBidId: string): AuctionEvent => {
  if (event.type !== 'BidPlaced' && event.type !== 'BidEdited') return event;
  if (event.data.bidId === leaderBidId) return event;
  // Keys kept in sorted order, as the decider writes them.
  const data = Object.fromEntries(
    Object.entries({ ...event.data, outbidByProxy: true }).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return { ...event, data } as AuctionEvent;
};

/** The prices an auction may hold together (`priceProblems`): the first problem. */
const priceProblem = (
  startingPrice: number,
  reservePrice: number | null,
  buyNowPrice: number | null,
): ErrorCode | null => {
  const problems = priceProblems(startingPrice, reservePrice, buyNowPrice);
  return problems.reserve ?? problems.buyNow ?? null;
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
    case 'BuyNow':
      return buyNow(command, state, now);
    case 'CloseAuction':
      return close(command, state, now);
    case 'AnnounceEndingSoon':
      return announceEndingSoon(command, state, now);
    default: {
      const unexpected: never = command;
      throw new Error(`Unknown auction command ${(unexpected as { type: string }).type}`);
    }
  }
};

const create = ({ data, metadata }: CreateAuction, state: AuctionState, now: string): Decision => {
  if (state.status !== 'None') return refuse('AUCTION_ALREADY_EXISTS');
  if (data.startingPrice < rules.minStartingPriceCents) return refuse('STARTING_PRICE_TOO_LOW');
  const prices = priceProblem(
    data.startingPrice,
    data.reservePrice ?? null,
    data.buyNowPrice ?? null,
  );
  if (prices) return refuse(prices);
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
      increments: data.increments ?? defaultIncrementRule,
      ...(data.softClose ? { softClose: data.softClose } : {}),
      ...(data.reservePrice === undefined ? {} : { reservePrice: data.reservePrice }),
      ...(data.buyNowPrice === undefined ? {} : { buyNowPrice: data.buyNowPrice }),
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
  if (data.reservePrice !== undefined && data.reservePrice !== state.reservePrice) {
    // Lowering (or removing) is always allowed; raising (or adding) only before any bid.
    const raises =
      data.reservePrice !== null &&
      (state.reservePrice === null || data.reservePrice > state.reservePrice);
    if (raises && hasBids) return refuse('RESERVE_LOCKED');
    changes.reservePrice = data.reservePrice;
  }
  if (data.buyNowPrice !== undefined && data.buyNowPrice !== state.buyNowPrice) {
    if (hasBids) return refuse('BUY_NOW_LOCKED');
    changes.buyNowPrice = data.buyNowPrice;
  }
  const prices = priceProblem(
    changes.startingPrice ?? state.startingPrice,
    changes.reservePrice === undefined ? state.reservePrice : changes.reservePrice,
    changes.buyNowPrice === undefined ? state.buyNowPrice : changes.buyNowPrice,
  );
  if (prices) return refuse(prices);
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
  if (Object.keys(changes).length <= 2) return NOTHING;
  // A lowered reserve a proxy bidder's maximum now reaches lifts their bid to it.
  return acceptWithProxies(state, now, { type: 'AuctionEdited', data: changes });
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

/** Why a bid, raise, retraction or purchase cannot be made now; null: it may. */
const biddingProblem = (state: AuctionState, now: string): ErrorCode | null => {
  if (state.status !== 'Live') return state.boughtNow ? 'AUCTION_BOUGHT_NOW' : 'AUCTION_NOT_LIVE';
  if (ended(state, now)) return 'AUCTION_ENDED';
  return null;
};

const placeBid = ({ data, metadata }: PlaceBid, state: AuctionState, now: string): Decision => {
  const problem = biddingProblem(state, now);
  if (problem) return refuse(problem);
  if (metadata.actorId === state.sellerId) return refuse('OWN_AUCTION');
  if (state.bids.has(data.bidId)) return refuse('BID_ALREADY_EXISTS');
  const minimum =
    state.leadingBidId === null
      ? state.startingPrice
      : minimumRaise(state.currentBid, state.increments);
  if (data.amount < minimum) return { ok: false, rejection: bidTooLow(minimum) };
  if (data.maxAmount !== undefined && data.maxAmount < data.amount)
    return refuse('MAXIMUM_BELOW_BID');
  const endsAt = extendedEnd(state, now);
  return acceptWithProxies(state, now, {
    type: 'BidPlaced',
    // Keys in sorted order, so the hash chain's canonical JSON is plain `JSON.stringify`.
    data: {
      amount: data.amount,
      at: now,
      auctionId: data.auctionId,
      bidId: data.bidId,
      bidderId: metadata.actorId,
      ...(endsAt === undefined ? {} : { endsAt }),
      ...(data.maxAmount === undefined ? {} : { maxAmount: data.maxAmount }),
    },
  });
};

const editBid = ({ data, metadata }: EditBid, state: AuctionState, now: string): Decision => {
  const problem = biddingProblem(state, now);
  if (problem) return refuse(problem);
  const bid = state.bids.get(data.bidId);
  if (!bid || bid.retracted) return refuse('BID_NOT_FOUND');
  if (bid.bidderId !== metadata.actorId) return refuse('NOT_BID_OWNER');
  const { amount, maxAmount } = data;
  if (amount === undefined && maxAmount === undefined) return refuse('BID_UNCHANGED');
  const leads = state.leadingBidId === bid.bidId;
  const minimum = leads ? bid.amount + 1 : minimumRaise(state.currentBid, state.increments);
  if (amount !== undefined && amount < minimum) return { ok: false, rejection: bidTooLow(minimum) };
  if (maxAmount !== undefined) {
    if (maxAmount < (amount ?? bid.amount)) return refuse('MAXIMUM_BELOW_BID');
    if (maxAmount <= bid.maxAmount) return refuse('MAXIMUM_NOT_RAISED');
    // A bid that does not lead must, through its new maximum, at least beat the current price.
    if (amount === undefined && !leads && maxAmount < minimum)
      return { ok: false, rejection: bidTooLow(minimum) };
  }
  if (amount === undefined) {
    // The visible amount stays: a private event, and whatever automatic bid it calls for.
    return acceptWithProxies(state, now, {
      type: 'BidMaximumRaised',
      data: {
        at: now,
        auctionId: data.auctionId,
        bidId: bid.bidId,
        bidderId: bid.bidderId,
        maxAmount: maxAmount ?? bid.maxAmount,
        previousMaxAmount: bid.maxAmount,
      },
    });
  }
  const endsAt = extendedEnd(state, now);
  return acceptWithProxies(state, now, {
    type: 'BidEdited',
    data: {
      amount,
      at: now,
      auctionId: data.auctionId,
      bidId: bid.bidId,
      bidderId: bid.bidderId,
      ...(endsAt === undefined ? {} : { endsAt }),
      ...(maxAmount === undefined ? {} : { maxAmount }),
      previousAmount: bid.amount,
    },
  });
};

/**
 * Why the bidder may not take `bid` back at `now`, or null. Each reason rests on what the bidder
 * already knows (the public end, their own retractions, what was answered or extended where they
 * could see it), so no refusal tells them anything new.
 */
const retractionProblem = (state: AuctionState, bid: BidState, now: string): ErrorCode | null => {
  const { graceMs, closingMs } = rules.retraction;
  const nowMs = isoToMs(now);
  if (state.endsAt !== null && isoToMs(state.endsAt) - nowMs <= closingMs)
    return 'RETRACTION_CLOSING';
  const bidder = state.bidders.get(bid.bidderId);
  if (bidder !== undefined && bidder.retractions > 0) return 'RETRACTION_LIMIT_REACHED';
  if (bid.bound || bidder?.answered === true) return 'BID_BINDING';
  if (nowMs - isoToMs(bid.enteredAt) > graceMs) return 'RETRACTION_GRACE_OVER';
  return null;
};

const retractBid = ({ data, metadata }: RetractBid, state: AuctionState, now: string): Decision => {
  const problem = biddingProblem(state, now);
  if (problem) return refuse(problem);
  const bid = state.bids.get(data.bidId);
  if (!bid || bid.retracted) return refuse('BID_NOT_FOUND');
  if (bid.bidderId !== metadata.actorId) return refuse('NOT_BID_OWNER');
  const byAccountDeletion = data.reason === 'account-deleted';
  const rule = byAccountDeletion ? null : retractionProblem(state, bid, now);
  if (rule) return refuse(rule);
  // The lead falls to the best remaining maximum, at the amount it stands at (an automatic bid
  // then lifts it to its proxy price when the remaining maxima call for more).
  const next =
    state.leadingBidId === bid.bidId
      ? state.bids.get(
          rankAll(state.bids.set(bid.bidId, { ...bid, retracted: true })).rankFirst ?? '',
        )
      : null;
  const currentBid = state.leadingBidId === bid.bidId ? (next?.amount ?? 0) : state.currentBid;
  const leadingBidId =
    state.leadingBidId === bid.bidId ? (next?.bidId ?? null) : state.leadingBidId;
  return acceptWithProxies(state, now, {
    type: 'BidRetracted',
    // Keys in sorted order, so the hash chain's canonical JSON is plain `JSON.stringify`.
    data: {
      amount: bid.amount,
      at: now,
      auctionId: data.auctionId,
      bidId: bid.bidId,
      bidderId: bid.bidderId,
      currentBid,
      leadingBidId,
      ...(byAccountDeletion ? { reason: 'account-deleted' as const } : {}),
    },
  });
};

const buyNow = ({ data, metadata }: BuyNow, state: AuctionState, now: string): Decision => {
  const problem = biddingProblem(state, now);
  if (problem) return refuse(problem);
  if (metadata.actorId === state.sellerId) return refuse('OWN_AUCTION');
  if (state.buyNowPrice === null || !buyNowOpen(state)) return refuse('BUY_NOW_UNAVAILABLE');
  if (data.price !== state.buyNowPrice)
    return { ok: false, rejection: buyNowPriceChanged(state.buyNowPrice) };
  if (state.bids.has(data.bidId)) return refuse('BID_ALREADY_EXISTS');
  // The purchase is a bid at the price, and the sale to it, at once: no automatic bid answers it.
  return accept(
    {
      type: 'BidPlaced',
      data: {
        amount: data.price,
        at: now,
        auctionId: data.auctionId,
        bidId: data.bidId,
        bidderId: metadata.actorId,
        buyNow: true,
      },
    },
    {
      type: 'AuctionClosed',
      data: {
        auctionId: data.auctionId,
        outcome: 'Sold',
        winnerId: metadata.actorId,
        winningBidId: data.bidId,
        finalPrice: data.price,
        boughtNow: true,
        at: now,
      },
    },
  );
};

const close = ({ data }: CloseAuction, state: AuctionState, now: string): Decision => {
  if (state.status !== 'Live') return NOTHING;
  // The end it has now (a soft close may have moved it): the closing scheduler waits for it.
  if (!ended(state, now))
    return { ok: false, rejection: rejection('AUCTION_NOT_ENDED', { endsAt: state.endsAt }) };
  const winning = state.leadingBidId === null ? undefined : state.bids.get(state.leadingBidId);
  if (winning && state.reservePrice !== null && winning.amount < state.reservePrice)
    return accept({
      type: 'AuctionClosed',
      data: { auctionId: data.auctionId, outcome: 'Expired', reserveNotMet: true, at: now },
    });
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
