import { describe, expect, it } from 'vitest';
import { type PriceFacts, buyNowOnOffer, reserveStatus } from './reserve';

/** A Live auction at $100 with no reserve, no Buy It Now price and no bid; `facts` change that. */
const auction = (facts: Partial<PriceFacts> = {}): PriceFacts => ({
  status: 'Live',
  reservePrice: null,
  buyNowPrice: null,
  leadingBidId: null,
  currentBid: 0,
  ...facts,
});
const leading = (currentBid: number) => ({ leadingBidId: 'b1', currentBid });

describe('reserveStatus', () => {
  it('is none without a reserve, whatever the bids', () => {
    expect(reserveStatus(auction())).toBe('none');
    expect(reserveStatus(auction(leading(50_000)))).toBe('none');
  });

  it('is not-met with a reserve and no bid', () => {
    expect(reserveStatus(auction({ reservePrice: 20_000 }))).toBe('not-met');
  });

  it('is not-met while the leading bid is below the reserve, met from the reserve on', () => {
    expect(reserveStatus(auction({ reservePrice: 20_000, ...leading(19_999) }))).toBe('not-met');
    expect(reserveStatus(auction({ reservePrice: 20_000, ...leading(20_000) }))).toBe('met');
    expect(reserveStatus(auction({ reservePrice: 20_000, ...leading(20_001) }))).toBe('met');
  });

  it('needs a leading bid: a current price at the reserve with no bid behind it is not-met', () => {
    expect(reserveStatus(auction({ reservePrice: 10_000, currentBid: 10_000 }))).toBe('not-met');
  });

  it('is the same once the auction has ended (the outcome reads it)', () => {
    for (const status of ['Sold', 'Expired', 'Cancelled'])
      expect(reserveStatus(auction({ status, reservePrice: 20_000, ...leading(20_000) }))).toBe(
        'met',
      );
  });
});

describe('buyNowOnOffer', () => {
  it('is off without a Buy It Now price', () => {
    expect(buyNowOnOffer(auction())).toBe(false);
    expect(buyNowOnOffer(auction({ reservePrice: 20_000 }))).toBe(false);
  });

  it('without a reserve: on until the first bid', () => {
    expect(buyNowOnOffer(auction({ buyNowPrice: 50_000 }))).toBe(true);
    expect(buyNowOnOffer(auction({ buyNowPrice: 50_000, ...leading(10_000) }))).toBe(false);
  });

  it('with a reserve: on while no bid reaches it, off from the reserve on', () => {
    const priced = { buyNowPrice: 50_000, reservePrice: 20_000 };
    expect(buyNowOnOffer(auction(priced))).toBe(true);
    expect(buyNowOnOffer(auction({ ...priced, ...leading(19_999) }))).toBe(true);
    expect(buyNowOnOffer(auction({ ...priced, ...leading(20_000) }))).toBe(false);
    expect(buyNowOnOffer(auction({ ...priced, ...leading(30_000) }))).toBe(false);
  });

  it('is off once the auction is not Live, bid or no bid', () => {
    for (const status of ['Sold', 'Expired', 'Cancelled']) {
      expect(buyNowOnOffer(auction({ status, buyNowPrice: 50_000 }))).toBe(false);
      expect(buyNowOnOffer(auction({ status, buyNowPrice: 50_000, reservePrice: 20_000 }))).toBe(
        false,
      );
    }
  });
});
