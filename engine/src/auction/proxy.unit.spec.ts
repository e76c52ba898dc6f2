import { describe, expect, it } from 'vitest';
import type { AuctionCommand, AuctionEvent } from '@auction/contracts';
import { deciderSpec } from '@auction/testkit';
import { decide } from './decide';
import { evolve } from './evolve';
import { initialState } from './state';

/** Proxy bids, the reserve price and Buy It Now, rule by rule. */
const spec = deciderSpec({ decide, evolve, initialState });

const AUCTION = 'a1';
const T0 = Date.UTC(2030, 0, 1);
const at = (minutes: number): string => new Date(T0 + minutes * 60_000).toISOString();
const NOW = at(5);
const END = at(60);

let sequence = 0;
const command = (
  type: AuctionCommand['type'],
  actorId: string,
  data: Record<string, unknown>,
  time = NOW,
): AuctionCommand => {
  sequence += 1;
  return {
    type,
    data: { auctionId: AUCTION, ...data },
    metadata: { commandId: `p${sequence}`, actorId, correlationId: `q${sequence}`, at: time },
  } as AuctionCommand;
};
const event = (type: AuctionEvent['type'], data: Record<string, unknown>, time = NOW) =>
  ({ type, data: { auctionId: AUCTION, at: time, ...data } }) as AuctionEvent;

/** $100 start, under the increment table unless `prices` names a rule; reserve, Buy It Now, soft close. */
const created = (prices: Record<string, unknown> = {}) =>
  event(
    'AuctionCreated',
    {
      sellerId: 'seller',
      title: 'Brass lamp',
      description: 'A 1920s brass desk lamp',
      categoryId: 'lighting',
      startingPrice: 10_000,
      endsAt: END,
      image: null,
      increments: 'table',
      ...prices,
    },
    at(0),
  );
const placed = (bidderId: string, bidId: string, amount: number, extra = {}, time = at(1)) =>
  event('BidPlaced', { bidId, bidderId, amount, ...extra }, time);
const automatic = (
  bidderId: string,
  bidId: string,
  previousAmount: number,
  amount: number,
  extra = {},
) => event('AutomaticBidPlaced', { bidId, bidderId, previousAmount, amount, ...extra });

describe('proxy bids', () => {
  it('a first bid with a maximum opens at its amount and keeps the maximum secret in the log', () => {
    const state = spec
      .given([created()])
      .when(command('PlaceBid', 'alice', { bidId: 'b1', amount: 10_000, maxAmount: 30_000 }))
      .then([
        event('BidPlaced', { bidId: 'b1', bidderId: 'alice', amount: 10_000, maxAmount: 30_000 }),
      ]);
    expect(state).toMatchObject({ currentBid: 10_000, leadingBidId: 'b1' });
  });

  it('answers a lower bid with an automatic bid one increment above it, as its own event', () => {
    const state = spec
      .given([created(), placed('alice', 'b1', 10_000, { maxAmount: 30_000 })])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 15_000 }))
      .then([
        event('BidPlaced', { bidId: 'b2', bidderId: 'bob', amount: 15_000, outbidByProxy: true }),
        automatic('alice', 'b1', 10_000, 15_250),
      ]);
    expect(state).toMatchObject({ currentBid: 15_250, leadingBidId: 'b1' });
  });

  it('on equal maxima the earlier one leads, at that maximum', () => {
    const state = spec
      .given([created(), placed('alice', 'b1', 10_000, { maxAmount: 20_000 })])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 20_000 }))
      .then([
        event('BidPlaced', { bidId: 'b2', bidderId: 'bob', amount: 20_000, outbidByProxy: true }),
        automatic('alice', 'b1', 10_000, 20_000),
      ]);
    expect(state).toMatchObject({ currentBid: 20_000, leadingBidId: 'b1' });
  });

  it('a higher maximum takes the lead at the lower maximum plus one increment (second price)', () => {
    const state = spec
      .given([created(), placed('alice', 'b1', 10_000, { maxAmount: 20_000 })])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 10_250, maxAmount: 50_000 }))
      .then([
        event('BidPlaced', { bidId: 'b2', bidderId: 'bob', amount: 10_250, maxAmount: 50_000 }),
        automatic('bob', 'b2', 10_250, 20_250),
      ]);
    expect(state).toMatchObject({ currentBid: 20_250, leadingBidId: 'b2' });
  });

  it('caps the second price at the leader’s own maximum', () => {
    spec
      .given([created(), placed('alice', 'b1', 10_000, { maxAmount: 20_000 })])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 10_250, maxAmount: 20_100 }))
      .then([
        event('BidPlaced', { bidId: 'b2', bidderId: 'bob', amount: 10_250, maxAmount: 20_100 }),
        automatic('bob', 'b2', 10_250, 20_100),
      ]);
  });

  it('lets the leader raise the maximum without raising the visible price', () => {
    const state = spec
      .given([created(), placed('alice', 'b1', 10_000, { maxAmount: 20_000 })])
      .when(command('EditBid', 'alice', { bidId: 'b1', maxAmount: 40_000 }))
      .then([
        event('BidMaximumRaised', {
          bidId: 'b1',
          bidderId: 'alice',
          previousMaxAmount: 20_000,
          maxAmount: 40_000,
        }),
      ]);
    expect(state).toMatchObject({ currentBid: 10_000 });
    expect(state.bids.get('b1')).toMatchObject({ amount: 10_000, maxAmount: 40_000 });
  });

  it('a raised maximum of a bid that does not lead is answered at once', () => {
    spec
      .given([
        created(),
        placed('alice', 'b1', 10_000, { maxAmount: 20_000 }),
        placed('bob', 'b2', 10_250, { outbidByProxy: true }),
        automatic('alice', 'b1', 10_000, 10_500),
      ])
      .when(command('EditBid', 'bob', { bidId: 'b2', maxAmount: 30_000 }))
      .then([
        event('BidMaximumRaised', {
          bidId: 'b2',
          bidderId: 'bob',
          previousMaxAmount: 10_250,
          maxAmount: 30_000,
        }),
        automatic('bob', 'b2', 10_250, 20_250),
      ]);
  });

  it.each([
    [
      'a maximum under the bid',
      { bidId: 'b2', amount: 12_000, maxAmount: 11_999 },
      'PlaceBid',
      'MAXIMUM_BELOW_BID',
    ],
    [
      'a maximum that is not higher',
      { bidId: 'b1', maxAmount: 20_000 },
      'EditBid',
      'MAXIMUM_NOT_RAISED',
    ],
    ['an edit with neither amount nor maximum', { bidId: 'b1' }, 'EditBid', 'BID_UNCHANGED'],
  ] as const)('refuses %s', (_name, data, type, code) => {
    spec
      .given([created(), placed('alice', 'b1', 10_000, { maxAmount: 20_000 })])
      .when(command(type, type === 'PlaceBid' ? 'bob' : 'alice', data))
      .thenRejects(code);
  });

  it('when the leader retracts, the next maximum leads at its second price', () => {
    // An automatic bid raised carol's bid, so only her account's deletion can take it back.
    spec
      .given([
        created(),
        placed('alice', 'b1', 10_000, { maxAmount: 20_000 }),
        placed('bob', 'b2', 10_250, { maxAmount: 15_000 }),
        automatic('alice', 'b1', 10_000, 15_250),
        placed('carol', 'b3', 15_500, { maxAmount: 40_000 }),
        automatic('carol', 'b3', 15_500, 20_250),
      ])
      .when(command('RetractBid', 'carol', { bidId: 'b3', reason: 'account-deleted' }))
      .then([
        event('BidRetracted', {
          bidId: 'b3',
          bidderId: 'carol',
          amount: 20_250,
          currentBid: 15_250,
          leadingBidId: 'b1',
          reason: 'account-deleted',
        }),
      ]);
  });

  it('an automatic bid in the soft-close window moves the end like any bid', () => {
    const softClose = { windowMs: 120_000, extensionMs: 120_000 };
    const late = at(59);
    spec
      .given([
        created({ softClose }),
        placed('alice', 'b1', 10_000, { maxAmount: 20_000 }),
        placed('bob', 'b2', 10_250, { outbidByProxy: true }),
        automatic('alice', 'b1', 10_000, 10_500),
      ])
      .when(command('EditBid', 'bob', { bidId: 'b2', maxAmount: 30_000 }, late))
      .then([
        event(
          'BidMaximumRaised',
          { bidId: 'b2', bidderId: 'bob', previousMaxAmount: 10_250, maxAmount: 30_000 },
          late,
        ),
        event(
          'AutomaticBidPlaced',
          {
            bidId: 'b2',
            bidderId: 'bob',
            previousAmount: 10_250,
            amount: 20_250,
            endsAt: at(61),
          },
          late,
        ),
      ]);
  });
});

describe('proxy bids under the one-dollar rule', () => {
  const dollar = created({ increments: 'one-dollar' });

  it('answers a lower bid with an automatic bid $1 above it', () => {
    spec
      .given([dollar, placed('alice', 'b1', 10_000, { maxAmount: 30_000 })])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 15_000 }))
      .then([
        event('BidPlaced', { bidId: 'b2', bidderId: 'bob', amount: 15_000, outbidByProxy: true }),
        automatic('alice', 'b1', 10_000, 15_100),
      ]);
  });

  it("a higher maximum takes the lead at the rival's maximum plus $1, capped at its own", () => {
    spec
      .given([dollar, placed('alice', 'b1', 10_000, { maxAmount: 20_000 })])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 10_100, maxAmount: 50_000 }))
      .then([
        event('BidPlaced', { bidId: 'b2', bidderId: 'bob', amount: 10_100, maxAmount: 50_000 }),
        automatic('bob', 'b2', 10_100, 20_100),
      ]);
    spec
      .given([dollar, placed('alice', 'b1', 10_000, { maxAmount: 20_000 })])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 10_100, maxAmount: 20_050 }))
      .then([
        event('BidPlaced', { bidId: 'b2', bidderId: 'bob', amount: 10_100, maxAmount: 20_050 }),
        automatic('bob', 'b2', 10_100, 20_050),
      ]);
  });

  it('a raised maximum of a bid that does not lead must beat the price by $1', () => {
    const history = [
      dollar,
      placed('alice', 'b1', 10_000, { maxAmount: 20_000 }),
      placed('bob', 'b2', 10_100, { outbidByProxy: true }),
      automatic('alice', 'b1', 10_000, 10_200),
    ];
    spec
      .given(history)
      .when(command('EditBid', 'bob', { bidId: 'b2', maxAmount: 10_299 }))
      .thenRejects('BID_TOO_LOW', { minimum: 10_300 });
  });
});

describe('reserve price', () => {
  const reserve = { reservePrice: 50_000 };

  it('accepts bids under the reserve, and closes without a winner when none reaches it', () => {
    spec
      .given([created(reserve), placed('alice', 'b1', 20_000)])
      .when(command('CloseAuction', 'system', {}, END))
      .then([event('AuctionClosed', { outcome: 'Expired', reserveNotMet: true }, END)]);
  });

  it('lifts a proxy bid to the reserve once its maximum reaches it', () => {
    spec
      .given([created(reserve)])
      .when(command('PlaceBid', 'alice', { bidId: 'b1', amount: 10_000, maxAmount: 60_000 }))
      .then([
        event('BidPlaced', { bidId: 'b1', bidderId: 'alice', amount: 10_000, maxAmount: 60_000 }),
        automatic('alice', 'b1', 10_000, 50_000),
      ]);
  });

  it('sells at the reserve when a bid reaches it', () => {
    spec
      .given([created(reserve), placed('alice', 'b1', 50_000)])
      .when(command('CloseAuction', 'system', {}, END))
      .then([
        event(
          'AuctionClosed',
          { outcome: 'Sold', winnerId: 'alice', winningBidId: 'b1', finalPrice: 50_000 },
          END,
        ),
      ]);
  });

  it('may be lowered with bids placed, lifting a proxy that now reaches it', () => {
    spec
      .given([created(reserve), placed('alice', 'b1', 10_000, { maxAmount: 40_000 })])
      .when(command('EditAuction', 'seller', { reservePrice: 30_000 }))
      .then([
        event('AuctionEdited', { reservePrice: 30_000 }),
        automatic('alice', 'b1', 10_000, 30_000),
      ]);
  });

  it('may not be raised once there is a bid', () => {
    spec
      .given([created(reserve), placed('alice', 'b1', 10_000)])
      .when(command('EditAuction', 'seller', { reservePrice: 50_001 }))
      .thenRejects('RESERVE_LOCKED');
  });

  it('must be at least the starting price', () => {
    spec
      .given([])
      .when(
        command(
          'CreateAuction',
          'seller',
          {
            title: 'Lamp',
            description: 'A lamp',
            categoryId: 'lighting',
            startingPrice: 10_000,
            endsAt: END,
            image: null,
            reservePrice: 9_999,
          },
          at(0),
        ),
      )
      .thenRejects('RESERVE_BELOW_STARTING_PRICE');
  });
});

describe('Buy It Now', () => {
  const buy = (actorId = 'bob', price = 80_000) =>
    command('BuyNow', actorId, { bidId: 'buy1', price });

  it('sells at once to the buyer, at the price', () => {
    const state = spec
      .given([created({ buyNowPrice: 80_000 })])
      .when(buy())
      .then([
        event('BidPlaced', { bidId: 'buy1', bidderId: 'bob', amount: 80_000, buyNow: true }),
        event('AuctionClosed', {
          outcome: 'Sold',
          winnerId: 'bob',
          winningBidId: 'buy1',
          finalPrice: 80_000,
          boughtNow: true,
        }),
      ]);
    expect(state).toMatchObject({ status: 'Sold', boughtNow: true });
  });

  it('is gone after the first bid when there is no reserve', () => {
    spec
      .given([created({ buyNowPrice: 80_000 }), placed('alice', 'b1', 10_000)])
      .when(buy())
      .thenRejects('BUY_NOW_UNAVAILABLE');
  });

  it('stays while the bids are under the reserve, and goes once one reaches it', () => {
    const prices = { reservePrice: 50_000, buyNowPrice: 80_000 };
    spec
      .given([created(prices), placed('alice', 'b1', 49_999)])
      .when(buy())
      .then([
        event('BidPlaced', { bidId: 'buy1', bidderId: 'bob', amount: 80_000, buyNow: true }),
        event('AuctionClosed', {
          outcome: 'Sold',
          winnerId: 'bob',
          winningBidId: 'buy1',
          finalPrice: 80_000,
          boughtNow: true,
        }),
      ]);
    spec
      .given([created(prices), placed('alice', 'b1', 50_000)])
      .when(buy())
      .thenRejects('BUY_NOW_UNAVAILABLE');
  });

  it('refuses a price other than the one on offer, naming it', () => {
    const refused = spec
      .given([created({ buyNowPrice: 80_000 })])
      .when(buy('bob', 70_000))
      .decision();
    expect(refused).toEqual({
      ok: false,
      rejection: {
        code: 'BUY_NOW_PRICE_CHANGED',
        message: 'The Buy It Now price has changed to $800.00',
        details: { price: 80_000 },
      },
    });
  });

  it('refuses the seller', () => {
    spec
      .given([created({ buyNowPrice: 80_000 })])
      .when(buy('seller'))
      .thenRejects('OWN_AUCTION');
  });

  it('tells whoever comes after the sale that it sold with Buy It Now', () => {
    const sale = [
      created({ buyNowPrice: 80_000 }),
      placed('carol', 'b0', 80_000),
      event('AuctionClosed', {
        outcome: 'Sold',
        winnerId: 'carol',
        winningBidId: 'b0',
        finalPrice: 80_000,
        boughtNow: true,
      }),
    ];
    spec.given(sale).when(buy()).thenRejects('AUCTION_BOUGHT_NOW');
    spec
      .given(sale)
      .when(command('PlaceBid', 'bob', { bidId: 'b1', amount: 90_000 }))
      .thenRejects('AUCTION_BOUGHT_NOW');
    spec
      .given(sale)
      .when(command('EditBid', 'carol', { bidId: 'b0', amount: 90_000 }))
      .thenRejects('AUCTION_BOUGHT_NOW');
    spec
      .given(sale)
      .when(command('RetractBid', 'carol', { bidId: 'b0' }))
      .thenRejects('AUCTION_BOUGHT_NOW');
  });

  it('an auction sold to its highest bid at the end is no longer live, not bought', () => {
    spec
      .given([
        created(),
        placed('alice', 'b1', 10_000),
        event(
          'AuctionClosed',
          { outcome: 'Sold', winnerId: 'alice', winningBidId: 'b1', finalPrice: 10_000 },
          END,
        ),
      ])
      .when(command('PlaceBid', 'bob', { bidId: 'b2', amount: 20_000 }, END))
      .thenRejects('AUCTION_NOT_LIVE');
  });
});
