import {
  type AuctionEvent,
  type AutomaticBidPlaced,
  type BidEdited,
  type BidMaximumRaised,
  type BidPlaced,
  type BidRetracted,
  summaryChange,
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

/**
 * `(state, event) → state`: pure, total over valid histories. The summary every reader shares
 * changes by `summaryChange`; the rest is the decider's own.
 */
export const evolve = (state: AuctionState, event: AuctionEvent): AuctionState => {
  let next: AuctionState = {
    ...state,
    ...summaryChange(event),
    ...own(state, event),
    lastAt: event.data.at,
  };
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

/** One event's changes to what only the decider keeps; `evolve` adds what follows every event. */
const own = (state: AuctionState, event: AuctionEvent): Partial<AuctionState> => {
  switch (event.type) {
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
    case 'AuctionEndingSoon':
      return endingSoonAnnounced(event);
    case 'AuctionCreated':
    case 'AuctionEdited':
    case 'AuctionCancelled':
    case 'AuctionClosed':
      return {};
  }
};

const bidPlaced = (state: AuctionState, { data: d }: BidPlaced): Partial<AuctionState> => ({
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
  lastEntryBy: d.bidderId,
});

const bidEdited = (state: AuctionState, { data: d }: BidEdited): Partial<AuctionState> => {
  const bid = state.bids.get(d.bidId);
  const maxAmount = Math.max(d.amount, d.maxAmount ?? 0, bid?.maxAmount ?? 0);
  // A maximum set anew ranks from now; one the edit leaves as it was keeps its place.
  const raised = bid === undefined || maxAmount > bid.maxAmount;
  return {
    bids: patchBid(state, d.bidId, {
      amount: d.amount,
      maxAmount,
      enteredAt: d.at,
      automatic: false,
      ...(raised ? { maxSeq: state.maxSeq } : {}),
      ...(d.endsAt === undefined ? {} : { bound: true }),
    }),
    maxSeq: raised ? state.maxSeq + 1 : state.maxSeq,
    lastEntryBy: d.bidderId,
  };
};

const maximumRaised = (
  state: AuctionState,
  { data: d }: BidMaximumRaised,
): Partial<AuctionState> => ({
  bids: patchBid(state, d.bidId, {
    maxAmount: d.maxAmount,
    maxSeq: state.maxSeq,
    enteredAt: d.at,
  }),
  maxSeq: state.maxSeq + 1,
  lastEntryBy: d.bidderId,
});

const automaticBidPlaced = (
  state: AuctionState,
  { data: d }: AutomaticBidPlaced,
): Partial<AuctionState> => ({
  bids: patchBid(state, d.bidId, { amount: d.amount, automatic: true, bound: true }),
  bidders: answered(state, d.bidderId),
  lastEntryBy: null,
});

const bidRetracted = (state: AuctionState, { data: d }: BidRetracted): Partial<AuctionState> => ({
  bids: patchBid(state, d.bidId, { retracted: true, retractedAt: d.at }),
  bidders:
    d.reason === 'account-deleted'
      ? state.bidders
      : patchBidder(state, d.bidderId, (b) => ({ retractions: b.retractions + 1 })),
});

export const fold = (events: Iterable<AuctionEvent>, from: AuctionState): AuctionState => {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
};
