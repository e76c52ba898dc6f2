import { describe, expect, it } from 'vitest';
import { RETRACTIONS_SHOWN } from '../http/bid-view';
import type { AuctionView, BidView } from '../http/views';
import { applyAuctionEvent } from './apply-auction-event';
import type { AuctionSocketEvent } from './socket';

const T0 = Date.UTC(2030, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const person = (id: string) => ({ _id: id, firstName: id, lastName: 'Doe', image: null });

const bid = (i: number): BidView => ({
  _id: `b${i}`,
  auctionId: 'a1',
  bidAmount: 100 + i,
  amount: 100 + i,
  bidder: person(`u${i}`),
  createdAt: iso(T0 + i * 1000),
});

const auction = (bids: BidView[]): AuctionView => ({
  _id: 'a1',
  title: 'Lamp',
  description: 'Brass',
  category: { _id: 'c1', name: 'Antiques' },
  startingPrice: 100,
  currentBid: bids[0]?.bidAmount ?? 0,
  image: null,
  images: null,
  seller: person('seller'),
  auctionEndTime: iso(T0 + 86_400_000),
  increments: 'one-dollar',
  softClose: null,
  extended: false,
  reserve: 'none',
  buyNowPrice: null,
  boughtNow: false,
  leadingBidId: bids[0]?._id ?? null,
  status: 'Live',
  bids,
  bidsNextCursor: null,
  bidCount: bids.length,
  retractions: [],
  createdAt: iso(T0),
  winner: null,
  finalPrice: null,
  closedAt: null,
  revision: bids.length,
});

const retracted = (view: AuctionView, i: number): AuctionSocketEvent => ({
  productId: 'a1',
  revision: view.revision + 1,
  type: 'BidRetracted',
  bid: bid(i),
  currentBid: 0,
  leadingBidId: null,
  status: 'Live',
  at: iso(T0 + 500_000 + i * 1000),
});

describe('applyAuctionEvent: a retraction', () => {
  it('moves the bid from the standing bids to the top of the retractions, with when', () => {
    const view = applyAuctionEvent(auction([bid(2), bid(1)]), retracted(auction([]), 2));
    expect(view.bids.map((b) => b._id)).toEqual(['b1']);
    expect(view.bidCount).toBe(1);
    expect(view.retractions).toEqual([
      {
        _id: 'b2',
        bidder: person('u2'),
        amount: 102,
        createdAt: iso(T0 + 2000),
        retractedAt: iso(T0 + 502_000),
      },
    ]);
  });

  it(`keeps only the latest ${RETRACTIONS_SHOWN}, newest first, and a repeat once`, () => {
    const count = RETRACTIONS_SHOWN + 5;
    let view = auction(Array.from({ length: count }, (_, i) => bid(count - i)));
    for (let i = 1; i <= count; i++) view = applyAuctionEvent(view, retracted(view, i));
    const latest = Array.from({ length: RETRACTIONS_SHOWN }, (_, i) => `b${count - i}`);
    expect(view.retractions.map((r) => r._id)).toEqual(latest);
    expect(view.bids).toEqual([]);

    const again = applyAuctionEvent(view, retracted(view, count));
    expect(again.retractions.map((r) => r._id)).toEqual(latest);
  });
});

describe('applyAuctionEvent: the close', () => {
  it('records when a Buy It Now sale closed the auction, before its planned end', () => {
    const live = auction([bid(1)]);
    const soldAt = iso(T0 + 60_000);
    const view = applyAuctionEvent(live, {
      productId: 'a1',
      revision: live.revision + 1,
      type: 'AuctionClosed',
      bid: null,
      currentBid: 300,
      leadingBidId: 'b1',
      status: 'Sold',
      winnerId: 'u1',
      winner: person('u1'),
      finalPrice: 300,
      boughtNow: true,
      at: soldAt,
    });
    expect(view).toMatchObject({ status: 'Sold', closedAt: soldAt, boughtNow: true });
    expect(view.auctionEndTime).toBe(live.auctionEndTime);
  });

  it('records when a cancellation closed it', () => {
    const live = auction([]);
    const at = iso(T0 + 90_000);
    const view = applyAuctionEvent(live, {
      productId: 'a1',
      revision: 1,
      type: 'AuctionCancelled',
      bid: null,
      currentBid: 0,
      status: 'Cancelled',
      changes: { status: 'Cancelled' },
      at,
    });
    expect(view).toMatchObject({ status: 'Cancelled', closedAt: at });
  });
});
