import { describe, expect, it } from 'vitest';
import { type AuctionSummary, noAuction, summaryChange, summaryOf } from './auction-summary';
import type { AuctionEvent } from './events/auction-events';

const at = '2030-01-01T00:00:00.000Z';
const created: AuctionEvent = {
  type: 'AuctionCreated',
  data: {
    auctionId: 'a1',
    sellerId: 'sam',
    title: 'Clock',
    description: 'Brass',
    categoryId: 'antiques',
    startingPrice: 10_000,
    endsAt: '2030-01-02T00:00:00.000Z',
    image: '/uploads/clock.png',
    reservePrice: 20_000,
    at,
  },
};

const fold = (...events: AuctionEvent[]): AuctionSummary =>
  events.reduce<AuctionSummary>(
    (summary, event) => ({ ...summary, ...summaryChange(event) }),
    summaryChange(created),
  );

describe('the auction summary', () => {
  it('is set whole by the creation, the legacy table for an auction created without a rule', () => {
    const summary = fold();
    expect(Object.keys(summary).sort()).toEqual(Object.keys(noAuction).sort());
    expect(summary).toMatchObject({ status: 'Live', increments: 'table', reservePrice: 20_000 });
  });

  it('changes by an edit only where the edit names a field; null removes', () => {
    const summary = fold({
      type: 'AuctionEdited',
      data: { auctionId: 'a1', title: 'Carriage clock', reservePrice: null, at },
    });
    expect(summary).toMatchObject({
      title: 'Carriage clock',
      description: 'Brass',
      image: '/uploads/clock.png',
      reservePrice: null,
    });
  });

  it('follows the leading bid and the end a bid moved', () => {
    const endsAt = '2030-01-02T00:02:00.000Z';
    const summary = fold({
      type: 'BidPlaced',
      data: { auctionId: 'a1', bidId: 'b1', bidderId: 'bo', amount: 10_000, endsAt, at },
    });
    expect(summary).toMatchObject({
      currentBid: 10_000,
      leadingBidId: 'b1',
      endsAt,
      extended: true,
    });
  });

  it('forgets the image of a cancelled auction', () => {
    const summary = fold({
      type: 'AuctionCancelled',
      data: { auctionId: 'a1', reason: 'seller', at },
    });
    expect(summary).toMatchObject({ status: 'Cancelled', image: null, closedAt: at });
  });

  it('keeps when the auction closed: a Buy It Now sale before the planned end, a close, none while Live', () => {
    expect(fold().closedAt).toBeNull();
    const soldAt = '2030-01-01T06:00:00.000Z';
    const bought = fold({
      type: 'AuctionClosed',
      data: {
        auctionId: 'a1',
        outcome: 'Sold',
        winnerId: 'bo',
        winningBidId: 'b1',
        finalPrice: 30_000,
        boughtNow: true,
        at: soldAt,
      },
    });
    expect(bought).toMatchObject({ status: 'Sold', closedAt: soldAt, boughtNow: true });
    expect(bought.endsAt).toBe('2030-01-02T00:00:00.000Z');
    const end = '2030-01-02T00:00:00.000Z';
    const expired = fold({
      type: 'AuctionClosed',
      data: { auctionId: 'a1', outcome: 'Expired', at: end },
    });
    expect(expired).toMatchObject({ status: 'Expired', closedAt: end });
  });

  it('reads a record without a field from what its absence means, else from before creation', () => {
    const { increments: _, title: __, ...older } = fold();
    const summary = summaryOf(older, { increments: 'table' });
    expect(summary.increments).toBe('table');
    expect(summary.title).toBe('');
    expect(summary.sellerId).toBe('sam');
  });
});
