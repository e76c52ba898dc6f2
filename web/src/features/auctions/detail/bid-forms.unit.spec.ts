import { describe, expect, it } from 'vitest';
import { BidAmountForm, nextBidOf } from './bid-forms';

describe('the bid forms check money as the server does', () => {
  it.each([
    ['120.01', true],
    ['102.009999999', false],
    [String(150 + 0.1 + 0.2), false],
  ])('bid %s: accepted %s', (bidAmount, accepted) => {
    const result = BidAmountForm.safeParse({ bidAmount, maxBidAmount: '' });
    expect(result.success).toBe(accepted);
    if (!accepted)
      expect(result.error?.issues[0]?.message).toBe('Bid amount may have at most two decimals');
  });

  it.each([
    ['', true, undefined],
    ['150.25', true, undefined],
    ['150.251', false, 'Maximum bid may have at most two decimals'],
    ['119.99', false, 'Your maximum must be at least your bid'],
    ['lots', false, 'Your maximum must be a number of at least $1'],
  ])('maximum %s beside a bid of 120: accepted %s', (maxBidAmount, accepted, message) => {
    const result = BidAmountForm.safeParse({ bidAmount: '120', maxBidAmount });
    expect(result.success).toBe(accepted);
    if (!accepted) expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe("the bid form's minimum follows the auction's increment rule", () => {
  it('asks for $1 more under the one-dollar rule, at any price', () => {
    expect(nextBidOf({ currentBid: 100, increments: 'one-dollar' })).toEqual({
      minimum: 101,
      note: ' Each bid must beat the current bid by at least $1.',
    });
    expect(nextBidOf({ currentBid: 1234.5, increments: 'one-dollar' }).minimum).toBe(1235.5);
  });

  it("asks for the table's step at the price under the table", () => {
    expect(nextBidOf({ currentBid: 100, increments: 'table' })).toEqual({
      minimum: 102.5,
      note: ' Bids go up by at least $2.50 at this price.',
    });
    expect(nextBidOf({ currentBid: 250, increments: 'table' }).minimum).toBe(255);
  });
});
