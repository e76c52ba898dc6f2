import { describe, expect, it } from 'vitest';
import { BidAmountForm } from './bid-forms';

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
