import {
  type AuctionClosed,
  type AuctionCreated,
  type AuctionEdited,
  type AuctionEvent,
  type AutomaticBidPlaced,
  type BidEdited,
  type BidMaximumRaised,
  type BidPlaced,
  type BidRetracted,
  legacyIncrementRule,
} from '@auction/contracts';
import type { AuctionState, BidState, BidderState } from './decider-types';
import { rankRaised, rankRetracted } from './proxy';
import { endingSoonAnnounced } from './ending-soon';

const patchBid = (state: AuctionState, bidId: string, patch: Partial<BidState>) => {
  const bid = state.bids.get(bidId);
  return bid ? state.bids.set(bidId, { ...bid, ...patch }) : state.bids;
};

const patchBidder = (
  state: AuctionState,
  bidderId: string,
  patch: (bidder: BidderState) => Partial<BidderState>,
) => {
  const bidder = state.bidders.get(bidderId) ?? { retractions: 0, answered: false };
  return state.bidders.set(bidderId, { ...bidder, ...patch(bidder) });
};

/** `(state, event) → state`: pure, total over valid histories. */
export const evolve = (state: AuctionState, event: AuctionEvent): AuctionState => {
  let next = fold1(state, event);
  if (next.lastEntryBy !== null && !isEntry(event)) next = { ...next, lastEntryBy: null };
  // The proxy ranking follows every maximum set and every retraction.
  if (event.type === 'BidPlaced' || event.type === 'BidMaximumRaised')
    return { ...next, ...rankRaised(next, event.data.bidId) };
  if (event.type === 'BidEdited' && next.maxSeq !== state.maxSeq)
    return { ...next, ...rankRaised(next, event.data.bidId) };
  if (event.type === 'BidRetracted') return { ...next, ...rankRetracted(next, event.data.bidId) };
  return next;
};

/** A bidder's own bid, raise or maximum raise: an automatic bid for another right after it answers it. */
const isEntry = (event: AuctionEvent): boolean =>
  event.type === 'BidPlaced' || event.type === 'BidEdited' || event.type === 'BidMaximumRaised';

/** After an automatic bid: whoever entered the event before it, if another, was answered at once. */
const answered = (state: AuctionState, bidderId: string) => {
  const by = state.lastEntryBy;
  return by === null || by === bidderId
    ? state.bidders
    : patchBidder(state, by, () => ({ answered: true }));
};

/** One event's own changes; `evolve` adds what follows every entry and every ranking change. */
const fold1 = (state: AuctionState, event: AuctionEvent): AuctionState => {
  switch (event.type) {
    case 'AuctionCreated':
      return created(state, event);
    case 'AuctionEdited':
      return edited(state, event);
    case 'AuctionCancelled':
      return { ...state, status: 'Cancelled', lastAt: event.data.at };
    case 'BidPlaced':
      return bidPlaced(state, event);
    case 'BidEdited':
      return bidEdited(state, event);
    case 'BidMaximumRaised':
      return maximumRaised(state, event);
    case 'AutomaticBidPlaced':
      return automaticBidPlaced(state, event);
    case 'BidRetracted':
      return bidRetracted(state, event);
    case 'AuctionClosed':
      return closed(state, event);
    case 'AuctionEndingSoon':
      return endingSoonAnnounced(state, event);
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
};

const created = (state: AuctionState, { data: d }: AuctionCreated): AuctionState => ({
  ...state,
  status: 'Live',
  auctionId: d.auctionId,
  sellerId: d.sellerId,
  title: d.title,
  description: d.description,
  categoryId: d.categoryId,
  image: d.image,
  startingPrice: d.startingPrice,
  endsAt: d.endsAt,
  increments: d.increments ?? legacyIncrementRule,
  softClose: d.softClose ?? null,
  reservePrice: d.reservePrice ?? null,
  buyNowPrice: d.buyNowPrice ?? null,
  lastAt: d.at,
});

const edited = (state: AuctionState, { data: d }: AuctionEdited): AuctionState => ({
  ...state,
  title: d.title ?? state.title,
  description: d.description ?? state.description,
  image: d.image === undefined ? state.image : d.image,
  startingPrice: d.startingPrice ?? state.startingPrice,
  endsAt: d.endsAt ?? state.endsAt,
  reservePrice: d.reservePrice === undefined ? state.reservePrice : d.reservePrice,
  buyNowPrice: d.buyNowPrice === undefined ? state.buyNowPrice : d.buyNowPrice,
  lastAt: d.at,
});

const bidPlaced = (state: AuctionState, { data: d }: BidPlaced): AuctionState => ({
  ...state,
  bids: state.bids.set(d.bidId, {
    bidId: d.bidId,
    bidderId: d.bidderId,
    amount: d.amount,
    maxAmount: Math.max(d.amount, d.maxAmount ?? 0),
    maxSeq: state.maxSeq,
    placedAt: d.at,
    enteredAt: d.at,
    retracted: false,
    retractedAt: null,
    automatic: false,
    bound: d.endsAt !== undefined,
  }),
  maxSeq: state.maxSeq + 1,
  currentBid: d.amount,
  leadingBidId: d.bidId,
  ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
  lastEntryBy: d.bidderId,
  lastAt: d.at,
});

const bidEdited = (state: AuctionState, { data: d }: BidEdited): AuctionState => {
  const bid = state.bids.get(d.bidId);
  const maxAmount = Math.max(d.amount, d.maxAmount ?? 0, bid?.maxAmount ?? 0);
  // A maximum set anew ranks from now; one the edit leaves as it was keeps its place.
  const raised = bid === undefined || maxAmount > bid.maxAmount;
  return {
    ...state,
    bids: patchBid(state, d.bidId, {
      amount: d.amount,
      maxAmount,
      enteredAt: d.at,
      automatic: false,
      ...(raised ? { maxSeq: state.maxSeq } : {}),
      ...(d.endsAt === undefined ? {} : { bound: true }),
    }),
    maxSeq: raised ? state.maxSeq + 1 : state.maxSeq,
    currentBid: d.amount,
    leadingBidId: d.bidId,
    ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
    lastEntryBy: d.bidderId,
    lastAt: d.at,
  };
};

const maximumRaised = (state: AuctionState, { data: d }: BidMaximumRaised): AuctionState => ({
  ...state,
  bids: patchBid(state, d.bidId, {
    maxAmount: d.maxAmount,
    maxSeq: state.maxSeq,
    enteredAt: d.at,
  }),
  maxSeq: state.maxSeq + 1,
  lastEntryBy: d.bidderId,
  lastAt: d.at,
});

const automaticBidPlaced = (
  state: AuctionState,
  { data: d }: AutomaticBidPlaced,
): AuctionState => ({
  ...state,
  bids: patchBid(state, d.bidId, { amount: d.amount, automatic: true, bound: true }),
  bidders: answered(state, d.bidderId),
  currentBid: d.amount,
  leadingBidId: d.bidId,
  ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
  lastEntryBy: null,
  lastAt: d.at,
});

const bidRetracted = (state: AuctionState, { data: d }: BidRetracted): AuctionState => ({
  ...state,
  bids: patchBid(state, d.bidId, { retracted: true, retractedAt: d.at }),
  bidders:
    d.reason === 'account-deleted'
      ? state.bidders
      : patchBidder(state, d.bidderId, (b) => ({ retractions: b.retractions + 1 })),
  currentBid: d.currentBid,
  leadingBidId: d.leadingBidId,
  lastAt: d.at,
});

const closed = (state: AuctionState, { data: d }: AuctionClosed): AuctionState =>
  d.outcome === 'Sold'
    ? {
        ...state,
        status: 'Sold',
        winnerId: d.winnerId,
        finalPrice: d.finalPrice,
        boughtNow: d.boughtNow === true,
        lastAt: d.at,
      }
    : { ...state, status: 'Expired', lastAt: d.at };

export const fold = (events: Iterable<AuctionEvent>, from: AuctionState): AuctionState => {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
};
