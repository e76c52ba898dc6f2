import { Map as ImmutableMap } from 'immutable';
import { noAuction } from '@auction/contracts';
import type { AuctionState, BidState, BidderState } from './decider-types';

export const initialState: AuctionState = {
  ...noAuction,
  maxSeq: 0,
  rankFirst: null,
  rankSecond: null,
  endingSoonFor: null,
  bids: ImmutableMap<string, BidState>(),
  bidders: ImmutableMap<string, BidderState>(),
  lastEntryBy: null,
  lastAt: null,
};

/** A plain-data view of the state, for comparisons and logs. */
export const stateToJSON = (state: AuctionState) => ({
  ...state,
  bids: [...state.bids.values()].sort((a, b) => (a.bidId < b.bidId ? -1 : 1)),
  bidders: Object.fromEntries([...state.bidders].sort(([a], [b]) => (a < b ? -1 : 1))),
});
