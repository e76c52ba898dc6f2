import { describe, expect, it } from 'vitest';
import { bidView, deletedUser, standingOrder } from './bid-view';

const bid = (id: string, amount: number, placedAt: string) => ({ id, amount, placedAt });
const order = (bids: ReturnType<typeof bid>[], leader: string | null) =>
  standingOrder(bids, leader, (b) => b).map((b) => b.id);

describe('the standing order of bids', () => {
  it('lists the highest first', () => {
    expect(order([bid('a', 100, 't1'), bid('b', 300, 't2'), bid('c', 200, 't3')], 'b')).toEqual([
      'b',
      'c',
      'a',
    ]);
  });

  it('puts the leading bid first among equal amounts, even when it was placed later', () => {
    expect(order([bid('a', 200, 't1'), bid('b', 200, 't2')], 'b')).toEqual(['b', 'a']);
  });

  it('puts the earlier first among equal amounts that do not lead, then orders by id', () => {
    expect(
      order(
        [bid('d', 200, 't2'), bid('c', 200, 't1'), bid('b', 200, 't1'), bid('a', 300, 't3')],
        'a',
      ),
    ).toEqual(['a', 'b', 'c', 'd']);
  });

  it('leaves its input as it was', () => {
    const bids = [bid('a', 100, 't1'), bid('b', 200, 't2')];
    order(bids, null);
    expect(bids.map((b) => b.id)).toEqual(['a', 'b']);
  });
});

describe('a bid as views show it', () => {
  it('is in dollars under both names, and marked automatic only when it is', () => {
    const facts = { bidId: 'b1', auctionId: 'a1', bidderId: 'u1', amount: 12_345, placedAt: 't' };
    const bidder = deletedUser('u1');
    expect(bidView(facts, bidder)).toEqual({
      _id: 'b1',
      auctionId: 'a1',
      bidAmount: 123.45,
      amount: 123.45,
      bidder: { _id: 'u1', firstName: 'Deleted', lastName: 'user', image: null },
      createdAt: 't',
    });
    expect(bidView({ ...facts, automatic: true }, bidder).automatic).toBe(true);
  });

  it('never carries a maximum, whatever else the facts hold', () => {
    const facts = { bidId: 'b1', auctionId: 'a1', bidderId: 'u1', amount: 100, placedAt: 't' };
    expect(
      Object.keys(bidView({ ...facts, maxAmount: 900 } as typeof facts, deletedUser('u1'))),
    ).not.toContain('maxAmount');
  });
});
