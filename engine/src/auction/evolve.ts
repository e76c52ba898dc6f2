import type { AuctionEvent } from '@auction/contracts';
import type { AuctionState, BidState } from './decider-types';

const patchBid = (state: AuctionState, bidId: string, patch: Partial<BidState>) => {
  const bid = state.bids.get(bidId);
  return bid ? state.bids.set(bidId, { ...bid, ...patch }) : state.bids;
};

/** `(state, event) → state`: pure, total over valid histories. */
export const evolve = (state: AuctionState, event: AuctionEvent): AuctionState => {
  switch (event.type) {
    case 'AuctionCreated': {
      const d = event.data;
      return {
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
        softClose: d.softClose ?? null,
        lastAt: d.at,
      };
    }
    case 'AuctionEdited': {
      const d = event.data;
      return {
        ...state,
        title: d.title ?? state.title,
        description: d.description ?? state.description,
        image: d.image === undefined ? state.image : d.image,
        startingPrice: d.startingPrice ?? state.startingPrice,
        endsAt: d.endsAt ?? state.endsAt,
        lastAt: d.at,
      };
    }
    case 'AuctionCancelled':
      return { ...state, status: 'Cancelled', lastAt: event.data.at };
    case 'BidPlaced': {
      const d = event.data;
      return {
        ...state,
        bids: state.bids.set(d.bidId, {
          bidId: d.bidId,
          bidderId: d.bidderId,
          amount: d.amount,
          placedAt: d.at,
          retracted: false,
        }),
        currentBid: d.amount,
        leadingBidId: d.bidId,
        ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
        lastAt: d.at,
      };
    }
    case 'BidEdited': {
      const d = event.data;
      return {
        ...state,
        bids: patchBid(state, d.bidId, { amount: d.amount }),
        currentBid: d.amount,
        leadingBidId: d.bidId,
        ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
        lastAt: d.at,
      };
    }
    case 'BidRetracted': {
      const d = event.data;
      return {
        ...state,
        bids: patchBid(state, d.bidId, { retracted: true }),
        currentBid: d.currentBid,
        leadingBidId: d.leadingBidId,
        lastAt: d.at,
      };
    }
    case 'AuctionClosed': {
      const d = event.data;
      return d.outcome === 'Sold'
        ? { ...state, status: 'Sold', winnerId: d.winnerId, finalPrice: d.finalPrice, lastAt: d.at }
        : { ...state, status: 'Expired', lastAt: d.at };
    }
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
};

export const fold = (events: Iterable<AuctionEvent>, from: AuctionState): AuctionState => {
  let state = from;
  for (const event of events) state = evolve(state, event);
  return state;
};
