import { Map as ImmutableMap } from 'immutable';
import { defaultIncrementRule } from '@auction/contracts';
import type { AuctionState, BidState, BidderState } from './decider-types';

export const initialState: AuctionState = {
  status: 'None',
  auctionId: null,
  sellerId: null,
  title: '',
  description: '',
  categoryId: null,
  image: null,
  startingPrice: 0,
  endsAt: null,
  increments: defaultIncrementRule,
  softClose: null,
  extended: false,
  reservePrice: null,
  buyNowPrice: null,
  maxSeq: 0,
  rankFirst: null,
  rankSecond: null,
  endingSoonFor: null,
  bids: ImmutableMap<string, BidState>(),
  bidders: ImmutableMap<string, BidderState>(),
  lastEntryBy: null,
  currentBid: 0,
  leadingBidId: null,
  lastAt: null,
  winnerId: null,
  finalPrice: null,
  boughtNow: false,
};

/** A plain-data view of the state, for comparisons and logs. */
export const stateToJSON = (state: AuctionState) => ({
  ...state,
  bids: [...state.bids.values()].sort((a, b) => (a.bidId < b.bidId ? -1 : 1)),
  bidders: Object.fromEntries([...state.bidders].sort(([a], [b]) => (a < b ? -1 : 1))),
});
