import { describe, expect, it } from 'vitest';
import { isoToMs, toIsoTime } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import type { AuctionCommand, EditAuction, ErrorCode, IncrementRule } from '@auction/contracts';
import { createModel } from './reference-model';
import type { ModelView } from './reference-model';

const T0 = '2030-01-01T00:00:00.000Z';
const at = (minutes: number, extraMs = 0): string =>
  toIsoTime(isoToMs(T0) + minutes * 60_000 + extraMs);
const END = at(60);
/** An end a day away: a bidder may retract only before an auction's last hour. */
const LATER = at(24 * 60);

let sequence = 0;
const metadata = (actorId: string, time: string) => {
  sequence += 1;
  return { commandId: `cmd-${sequence}`, actorId, correlationId: `corr-${sequence}`, at: time };
};

const auctionId = 'auction-1';

const create = (
  data: {
    startingPrice?: number;
    endsAt?: string;
    increments?: IncrementRule;
    buyNowPrice?: number;
  } = {},
  actor = 'seller',
  time = at(0),
): AuctionCommand => ({
  type: 'CreateAuction',
  data: {
    auctionId,
    title: 'Lamp',
    description: 'A lamp',
    categoryId: 'lighting',
    startingPrice: data.startingPrice ?? 10_000,
    endsAt: data.endsAt ?? END,
    image: null,
    ...(data.increments === undefined ? {} : { increments: data.increments }),
    ...(data.buyNowPrice === undefined ? {} : { buyNowPrice: data.buyNowPrice }),
  },
  metadata: metadata(actor, time),
});
const table = () => create({ increments: 'table' });
const place = (actor: string, bidId: string, amount: number, time = at(1)): AuctionCommand => ({
  type: 'PlaceBid',
  data: { auctionId, bidId, amount },
  metadata: metadata(actor, time),
});
const editBid = (actor: string, bidId: string, amount: number, time = at(2)): AuctionCommand => ({
  type: 'EditBid',
  data: { auctionId, bidId, amount },
  metadata: metadata(actor, time),
});
const retract = (actor: string, bidId: string, time = at(2)): AuctionCommand => ({
  type: 'RetractBid',
  data: { auctionId, bidId },
  metadata: metadata(actor, time),
});
const editAuction = (
  actor: string,
  changes: Omit<EditAuction['data'], 'auctionId'>,
  time = at(2),
): AuctionCommand => ({
  type: 'EditAuction',
  data: { auctionId, ...changes },
  metadata: metadata(actor, time),
});
const cancel = (actor = 'seller', time = at(2)): AuctionCommand => ({
  type: 'CancelAuction',
  data: { auctionId, reason: 'seller' },
  metadata: metadata(actor, time),
});
const close = (time = END, actor = 'system'): AuctionCommand => ({
  type: 'CloseAuction',
  data: { auctionId },
  metadata: metadata(actor, time),
});
const buyNow = (actor: string, bidId: string, price: number, time = at(1)): AuctionCommand => ({
  type: 'BuyNow',
  data: { auctionId, bidId, price },
  metadata: metadata(actor, time),
});

const given = (...history: AuctionCommand[]) => {
  const model = createModel();
  for (const command of history) expect(model.apply(command)).toEqual({ accepted: true });
  return {
    when: (command: AuctionCommand) => ({
      thenAccepts: (): ModelView => {
        expect(model.apply(command)).toEqual({ accepted: true });
        return model.view();
      },
      thenRejects: (code: ErrorCode): void => {
        const before = model.view();
        expect(model.apply(command)).toEqual({ accepted: false, code });
        expect(model.view()).toEqual(before);
      },
      thenIgnores: (): void => {
        const before = model.view();
        expect(model.apply(command)).toEqual({ accepted: true });
        expect(model.view()).toEqual(before);
      },
    }),
  };
};

describe('reference model', () => {
  it('starts with no auction', () => {
    expect(createModel().view()).toEqual({
      status: 'None',
      currentBid: 0,
      leadingBidId: null,
      winnerId: null,
      finalPrice: null,
      endsAt: null,
      startingPrice: 0,
      increments: null,
      reservePrice: null,
      buyNowPrice: null,
      bids: [],
    });
  });

  it.each([
    ['PlaceBid', place('alice', 'b1', 10_000)],
    ['EditBid', editBid('alice', 'b1', 10_000)],
    ['RetractBid', retract('alice', 'b1')],
    ['EditAuction', editAuction('seller', { title: 'x' })],
    ['CancelAuction', cancel()],
    ['CloseAuction', close()],
  ])('refuses %s on a missing auction with AUCTION_NOT_FOUND', (_type, command) => {
    given().when(command).thenRejects('AUCTION_NOT_FOUND');
  });

  describe('CreateAuction', () => {
    it('creates a Live auction', () => {
      const view = given()
        .when(create({ startingPrice: 12_300 }))
        .thenAccepts();
      expect(view).toMatchObject({ status: 'Live', startingPrice: 12_300, endsAt: END });
    });

    it("takes the seller's increment rule, and the spec's one dollar when it names none", () => {
      expect(given().when(create()).thenAccepts().increments).toBe('one-dollar');
      expect(given().when(table()).thenAccepts().increments).toBe('table');
      expect(
        given()
          .when(create({ increments: 'one-dollar' }))
          .thenAccepts().increments,
      ).toBe('one-dollar');
    });

    it('refuses a second create with AUCTION_ALREADY_EXISTS', () => {
      given(create()).when(create()).thenRejects('AUCTION_ALREADY_EXISTS');
    });

    it('accepts exactly $100 and refuses one cent less', () => {
      given()
        .when(create({ startingPrice: 10_000 }))
        .thenAccepts();
      given()
        .when(create({ startingPrice: 9_999 }))
        .thenRejects('STARTING_PRICE_TOO_LOW');
    });

    it('refuses an end time at or before now', () => {
      given()
        .when(create({ endsAt: at(0) }))
        .thenRejects('END_TIME_NOT_IN_FUTURE');
      given()
        .when(create({ endsAt: at(-1) }))
        .thenRejects('END_TIME_NOT_IN_FUTURE');
      given()
        .when(create({ endsAt: at(0, 1) }))
        .thenAccepts();
    });

    it('accepts an end exactly 90 days ahead and refuses one millisecond more', () => {
      given()
        .when(create({ endsAt: toIsoTime(isoToMs(at(0)) + 90 * DAY_MS) }))
        .thenAccepts();
      given()
        .when(create({ endsAt: toIsoTime(isoToMs(at(0)) + 90 * DAY_MS + 1) }))
        .thenRejects('END_TIME_TOO_FAR');
    });

    it('checks the price before the end time', () => {
      given()
        .when(create({ startingPrice: 1, endsAt: at(-5) }))
        .thenRejects('STARTING_PRICE_TOO_LOW');
    });
  });

  describe('PlaceBid', () => {
    it('accepts a first bid of exactly the starting price and makes it lead', () => {
      const view = given(create({ startingPrice: 15_000 }))
        .when(place('alice', 'b1', 15_000))
        .thenAccepts();
      expect(view).toMatchObject({ currentBid: 15_000, leadingBidId: 'b1' });
      expect(view.bids).toEqual([
        { bidId: 'b1', bidderId: 'alice', amount: 15_000, maxAmount: 15_000, retracted: false },
      ]);
    });

    it('refuses a first bid below the starting price with BID_TOO_LOW', () => {
      given(create({ startingPrice: 15_000 }))
        .when(place('alice', 'b1', 14_999))
        .thenRejects('BID_TOO_LOW');
    });

    it('needs the highest plus $1 once there are bids, by default', () => {
      const history = [create(), place('alice', 'b1', 20_000)];
      given(...history)
        .when(place('bob', 'b2', 20_100))
        .thenAccepts();
      given(...history)
        .when(place('bob', 'b2', 20_099))
        .thenRejects('BID_TOO_LOW');
      given(...history)
        .when(place('bob', 'b2', 20_000))
        .thenRejects('BID_TOO_LOW');
    });

    it('needs the highest plus its increment ($2.50 at $200) under the table', () => {
      const history = [table(), place('alice', 'b1', 20_000)];
      given(...history)
        .when(place('bob', 'b2', 20_250))
        .thenAccepts();
      given(...history)
        .when(place('bob', 'b2', 20_249))
        .thenRejects('BID_TOO_LOW');
      given(...history)
        .when(place('bob', 'b2', 20_100))
        .thenRejects('BID_TOO_LOW');
    });

    it('lets the leader raise by the same rule', () => {
      const history = [table(), place('alice', 'b1', 20_000)];
      given(...history)
        .when(place('alice', 'b2', 20_250))
        .thenAccepts();
      given(...history)
        .when(place('alice', 'b2', 20_100))
        .thenRejects('BID_TOO_LOW');
    });

    it('answers a bid after a Buy It Now sale with AUCTION_BOUGHT_NOW', () => {
      given(create({ buyNowPrice: 50_000 }), buyNow('bob', 'b0', 50_000))
        .when(place('alice', 'b1', 60_000, at(2)))
        .thenRejects('AUCTION_BOUGHT_NOW');
      given(create({ buyNowPrice: 50_000 }), buyNow('bob', 'b0', 50_000))
        .when(buyNow('alice', 'b1', 50_000, at(2)))
        .thenRejects('AUCTION_BOUGHT_NOW');
      given(create({ buyNowPrice: 50_000 }), buyNow('bob', 'b0', 50_000))
        .when(editBid('bob', 'b0', 60_000))
        .thenRejects('AUCTION_BOUGHT_NOW');
      given(create({ buyNowPrice: 50_000 }), buyNow('bob', 'b0', 50_000))
        .when(retract('bob', 'b0'))
        .thenRejects('AUCTION_BOUGHT_NOW');
    });

    it('goes back to the starting price once every bid is retracted', () => {
      given(create({ endsAt: LATER }), place('alice', 'b1', 20_000), retract('alice', 'b1'))
        .when(place('bob', 'b2', 10_000, at(3)))
        .thenAccepts();
    });

    it('refuses the seller with OWN_AUCTION', () => {
      given(create())
        .when(place('seller', 'b1', 10_000))
        .thenRejects('OWN_AUCTION');
    });

    it('refuses a reused bid id with BID_ALREADY_EXISTS, even a retracted one', () => {
      given(create(), place('alice', 'b1', 10_000))
        .when(place('bob', 'b1', 50_000))
        .thenRejects('BID_ALREADY_EXISTS');
      given(create({ endsAt: LATER }), place('alice', 'b1', 10_000), retract('alice', 'b1'))
        .when(place('alice', 'b1', 50_000, at(3)))
        .thenRejects('BID_ALREADY_EXISTS');
    });

    it('refuses a bid at or after the end time with AUCTION_ENDED', () => {
      given(create())
        .when(place('alice', 'b1', 10_000, END))
        .thenRejects('AUCTION_ENDED');
      given(create())
        .when(place('alice', 'b1', 10_000, at(60, -1)))
        .thenAccepts();
    });

    it('refuses a bid on a cancelled or closed auction with AUCTION_NOT_LIVE', () => {
      given(create(), cancel())
        .when(place('alice', 'b1', 10_000, at(3)))
        .thenRejects('AUCTION_NOT_LIVE');
      given(create(), close())
        .when(place('alice', 'b1', 10_000, at(61)))
        .thenRejects('AUCTION_NOT_LIVE');
    });

    it('checks in order: live, ended, own auction, duplicate id, amount', () => {
      given(create(), place('alice', 'b1', 10_000), cancel('seller', at(3)))
        .when(place('seller', 'b1', 1, END))
        .thenRejects('AUCTION_NOT_LIVE');
      given(create(), place('alice', 'b1', 10_000))
        .when(place('seller', 'b1', 1, END))
        .thenRejects('AUCTION_ENDED');
      given(create(), place('alice', 'b1', 10_000))
        .when(place('seller', 'b1', 1))
        .thenRejects('OWN_AUCTION');
      given(create(), place('alice', 'b1', 10_000))
        .when(place('bob', 'b1', 1))
        .thenRejects('BID_ALREADY_EXISTS');
    });
  });

  describe('EditBid', () => {
    const history = [table(), place('alice', 'b1', 20_000), place('bob', 'b2', 30_000)];

    it('lets the leader raise by any amount above their own', () => {
      const view = given(...history)
        .when(editBid('bob', 'b2', 30_001))
        .thenAccepts();
      expect(view).toMatchObject({ currentBid: 30_001, leadingBidId: 'b2' });
    });

    it('refuses the leader an amount not above their own with BID_TOO_LOW', () => {
      given(...history)
        .when(editBid('bob', 'b2', 30_000))
        .thenRejects('BID_TOO_LOW');
    });

    it('needs an outbid bid to reach the highest plus $1 by default', () => {
      const history = [create(), place('alice', 'b1', 20_000), place('bob', 'b2', 30_000)];
      given(...history)
        .when(editBid('alice', 'b1', 30_099))
        .thenRejects('BID_TOO_LOW');
      expect(
        given(...history)
          .when(editBid('alice', 'b1', 30_100))
          .thenAccepts(),
      ).toMatchObject({
        currentBid: 30_100,
        leadingBidId: 'b1',
      });
    });

    it('needs an outbid bid to reach the highest plus its increment ($5 at $300) under the table, then it leads', () => {
      given(...history)
        .when(editBid('alice', 'b1', 30_499))
        .thenRejects('BID_TOO_LOW');
      const view = given(...history)
        .when(editBid('alice', 'b1', 30_500))
        .thenAccepts();
      expect(view).toMatchObject({ currentBid: 30_500, leadingBidId: 'b1' });
      expect(view.bids).toContainEqual({
        bidId: 'b1',
        bidderId: 'alice',
        amount: 30_500,
        maxAmount: 30_500,
        retracted: false,
      });
    });

    it('refuses a missing or retracted bid with BID_NOT_FOUND', () => {
      given(...history)
        .when(editBid('alice', 'nope', 90_000))
        .thenRejects('BID_NOT_FOUND');
      given(create({ endsAt: LATER }), ...history.slice(1), retract('alice', 'b1'))
        .when(editBid('alice', 'b1', 90_000, at(3)))
        .thenRejects('BID_NOT_FOUND');
    });

    it("refuses someone else's bid with NOT_BID_OWNER", () => {
      given(...history)
        .when(editBid('bob', 'b1', 90_000))
        .thenRejects('NOT_BID_OWNER');
    });

    it('refuses at the end time with AUCTION_ENDED and when not live with AUCTION_NOT_LIVE', () => {
      given(...history)
        .when(editBid('bob', 'b2', 90_000, END))
        .thenRejects('AUCTION_ENDED');
      given(...history, cancel())
        .when(editBid('bob', 'b2', 90_000, at(3)))
        .thenRejects('AUCTION_NOT_LIVE');
    });

    it('checks ownership before the amount', () => {
      given(...history)
        .when(editBid('alice', 'b2', 1))
        .thenRejects('NOT_BID_OWNER');
    });
  });

  describe('RetractBid', () => {
    const history = [
      create({ endsAt: LATER }),
      place('alice', 'b1', 20_000),
      place('bob', 'b2', 30_000),
    ];

    it('falls back to the highest remaining bid', () => {
      const view = given(...history)
        .when(retract('bob', 'b2'))
        .thenAccepts();
      expect(view).toMatchObject({ currentBid: 20_000, leadingBidId: 'b1' });
      expect(view.bids).toContainEqual({
        bidId: 'b2',
        bidderId: 'bob',
        amount: 30_000,
        maxAmount: 30_000,
        retracted: true,
      });
    });

    it('falls back to 0 and null when no bid remains', () => {
      const view = given(create({ endsAt: LATER }), place('alice', 'b1', 20_000))
        .when(retract('alice', 'b1'))
        .thenAccepts();
      expect(view).toMatchObject({ currentBid: 0, leadingBidId: null });
    });

    it('refuses a missing or already retracted bid with BID_NOT_FOUND', () => {
      given(...history)
        .when(retract('alice', 'nope'))
        .thenRejects('BID_NOT_FOUND');
      given(...history, retract('alice', 'b1'))
        .when(retract('alice', 'b1', at(3)))
        .thenRejects('BID_NOT_FOUND');
    });

    it("refuses someone else's bid with NOT_BID_OWNER", () => {
      given(...history)
        .when(retract('alice', 'b2'))
        .thenRejects('NOT_BID_OWNER');
    });

    it('refuses at the end time with AUCTION_ENDED and when not live with AUCTION_NOT_LIVE', () => {
      given(...history)
        .when(retract('bob', 'b2', LATER))
        .thenRejects('AUCTION_ENDED');
      given(...history, close(LATER))
        .when(retract('bob', 'b2', at(24 * 60 + 1)))
        .thenRejects('AUCTION_NOT_LIVE');
    });
  });

  describe('RetractBid by its bidder: the retraction rules', () => {
    const placeWithMax = (
      actor: string,
      bidId: string,
      amount: number,
      maxAmount: number,
      time: string,
    ): AuctionCommand => ({
      type: 'PlaceBid',
      data: { auctionId, bidId, amount, maxAmount },
      metadata: metadata(actor, time),
    });
    const forDeletion = (actor: string, bidId: string, time: string): AuctionCommand => ({
      type: 'RetractBid',
      data: { auctionId, bidId, reason: 'account-deleted' },
      metadata: metadata(actor, time),
    });
    const history = [
      create({ endsAt: LATER }),
      place('bob', 'b1', 10_000),
      place('alice', 'b2', 12_000),
    ];

    it('only within five minutes of its bidder last entering it', () => {
      given(...history)
        .when(retract('alice', 'b2', at(6)))
        .thenAccepts();
      given(...history)
        .when(retract('alice', 'b2', at(6, 1)))
        .thenRejects('RETRACTION_GRACE_OVER');
      given(...history, editBid('alice', 'b2', 13_000, at(20)))
        .when(retract('alice', 'b2', at(25)))
        .thenAccepts();
    });

    it('never in the last hour before the end', () => {
      given(create({ endsAt: LATER }), place('alice', 'b1', 10_000, at(23 * 60 - 1)))
        .when(retract('alice', 'b1', at(23 * 60)))
        .thenRejects('RETRACTION_CLOSING');
    });

    it('once per bidder and auction', () => {
      given(...history, retract('alice', 'b2', at(2)), place('alice', 'b3', 12_000, at(3)))
        .when(retract('alice', 'b3', at(4)))
        .thenRejects('RETRACTION_LIMIT_REACHED');
    });

    it('never for a bid an automatic bid raised, nor by a bidder another maximum answered', () => {
      const probe = [
        create({ endsAt: LATER }),
        placeWithMax('bob', 'b1', 10_000, 53_737, at(1)),
        placeWithMax('alice', 'b2', 10_250, 100_000_000_000, at(2)),
      ];
      // The answer showed alice a price above bob's secret maximum.
      const shown = createModel();
      for (const command of probe) shown.apply(command);
      expect(shown.view()).toMatchObject({ leadingBidId: 'b2' });
      expect(shown.view().currentBid).toBeGreaterThan(53_737);
      given(...probe)
        .when(retract('alice', 'b2', at(3)))
        .thenRejects('BID_BINDING');
      const answered = [
        create({ endsAt: LATER }),
        placeWithMax('bob', 'b1', 10_000, 53_737, at(1)),
        place('carol', 'b2', 20_000, at(2)),
        place('carol', 'b3', 60_000, at(3)),
      ];
      given(...answered)
        .when(retract('carol', 'b3', at(4)))
        .thenRejects('BID_BINDING');
    });

    it('never for a bid that moved the end', () => {
      const softClose = { windowMs: 120_000, extensionMs: 120_000 };
      const created = create({ endsAt: LATER });
      const withSoftClose = { ...created, data: { ...created.data, softClose } } as AuctionCommand;
      given(
        withSoftClose,
        place('alice', 'b1', 10_000, at(24 * 60 - 1)),
        editAuction('seller', { endsAt: at(3 * 24 * 60) }, at(24 * 60 - 1)),
      )
        .when(retract('alice', 'b1', at(24 * 60)))
        .thenRejects('BID_BINDING');
    });

    it('none of them for an account deletion, and it does not count', () => {
      const view = given(...history, retract('alice', 'b2', at(2)))
        .when(forDeletion('bob', 'b1', at(23 * 60 + 30)))
        .thenAccepts();
      expect(view).toMatchObject({ currentBid: 0, leadingBidId: null });
      given(...history, forDeletion('alice', 'b2', at(2)), place('alice', 'b3', 12_000, at(3)))
        .when(retract('alice', 'b3', at(4)))
        .thenAccepts();
    });
  });

  describe('EditAuction', () => {
    it('lets the seller change title, description and image any time it is live', () => {
      given(create(), place('alice', 'b1', 10_000))
        .when(editAuction('seller', { title: 'New', description: 'Newer', image: null }))
        .thenAccepts();
    });

    it('refuses anyone but the seller with NOT_AUCTION_OWNER, even on a closed auction', () => {
      given(create())
        .when(editAuction('alice', { title: 'Mine' }))
        .thenRejects('NOT_AUCTION_OWNER');
      given(create(), close())
        .when(editAuction('alice', { title: 'Mine' }, at(61)))
        .thenRejects('NOT_AUCTION_OWNER');
    });

    it('refuses when not live with AUCTION_NOT_LIVE and at the end with AUCTION_ENDED', () => {
      given(create(), cancel())
        .when(editAuction('seller', { title: 'x' }, at(3)))
        .thenRejects('AUCTION_NOT_LIVE');
      given(create())
        .when(editAuction('seller', { title: 'x' }, END))
        .thenRejects('AUCTION_ENDED');
    });

    it('changes the starting price while there are no active bids', () => {
      const view = given(create())
        .when(editAuction('seller', { startingPrice: 25_000 }))
        .thenAccepts();
      expect(view.startingPrice).toBe(25_000);
      given(create({ endsAt: LATER }), place('alice', 'b1', 10_000), retract('alice', 'b1'))
        .when(editAuction('seller', { startingPrice: 25_000 }, at(3)))
        .thenAccepts();
    });

    it('locks the starting price once there are active bids, unless it stays the same', () => {
      given(create(), place('alice', 'b1', 10_000))
        .when(editAuction('seller', { startingPrice: 25_000 }))
        .thenRejects('STARTING_PRICE_LOCKED');
      given(create(), place('alice', 'b1', 10_000))
        .when(editAuction('seller', { startingPrice: 10_000 }))
        .thenAccepts();
    });

    it('refuses a new starting price below $100 with STARTING_PRICE_TOO_LOW', () => {
      given(create())
        .when(editAuction('seller', { startingPrice: 9_999 }))
        .thenRejects('STARTING_PRICE_TOO_LOW');
    });

    it('refuses an end time at or before now, or beyond 90 days', () => {
      given(create())
        .when(editAuction('seller', { endsAt: at(2) }, at(2)))
        .thenRejects('END_TIME_NOT_IN_FUTURE');
      given(create())
        .when(editAuction('seller', { endsAt: toIsoTime(isoToMs(at(2)) + 90 * DAY_MS + 1) }))
        .thenRejects('END_TIME_TOO_FAR');
      given(create())
        .when(editAuction('seller', { endsAt: toIsoTime(isoToMs(at(2)) + 90 * DAY_MS) }))
        .thenAccepts();
    });

    it('lets the end move earlier only while there are no active bids', () => {
      const view = given(create())
        .when(editAuction('seller', { endsAt: at(30) }))
        .thenAccepts();
      expect(view.endsAt).toBe(at(30));
      given(create(), place('alice', 'b1', 10_000))
        .when(editAuction('seller', { endsAt: at(30) }))
        .thenRejects('END_TIME_EARLIER');
      given(create(), place('alice', 'b1', 10_000))
        .when(editAuction('seller', { endsAt: at(90) }))
        .thenAccepts();
    });

    it('ignores an unchanged end time', () => {
      given(create(), place('alice', 'b1', 10_000))
        .when(editAuction('seller', { endsAt: END, startingPrice: 10_000 }))
        .thenIgnores();
    });

    it('checks the starting price before the end time', () => {
      given(create(), place('alice', 'b1', 10_000))
        .when(editAuction('seller', { startingPrice: 1, endsAt: at(0) }))
        .thenRejects('STARTING_PRICE_LOCKED');
      given(create())
        .when(editAuction('seller', { startingPrice: 1, endsAt: at(0) }))
        .thenRejects('STARTING_PRICE_TOO_LOW');
    });
  });

  describe('CancelAuction', () => {
    it('cancels a live auction before its end', () => {
      const view = given(create(), place('alice', 'b1', 10_000))
        .when(cancel())
        .thenAccepts();
      expect(view).toMatchObject({ status: 'Cancelled', winnerId: null, finalPrice: null });
    });

    it('refuses anyone but the seller with NOT_AUCTION_OWNER', () => {
      given(create()).when(cancel('alice')).thenRejects('NOT_AUCTION_OWNER');
    });

    it('accepts a second cancel without change', () => {
      given(create(), cancel())
        .when(cancel('seller', at(3)))
        .thenIgnores();
    });

    it('refuses a sold or expired auction with AUCTION_CLOSED', () => {
      given(create(), place('alice', 'b1', 10_000), close())
        .when(cancel('seller', at(61)))
        .thenRejects('AUCTION_CLOSED');
      given(create(), close())
        .when(cancel('seller', at(61)))
        .thenRejects('AUCTION_CLOSED');
    });

    it('refuses a live auction past its end with AUCTION_ENDED', () => {
      given(create()).when(cancel('seller', END)).thenRejects('AUCTION_ENDED');
    });
  });

  describe('CloseAuction', () => {
    it('refuses before the end time with AUCTION_NOT_ENDED', () => {
      given(create())
        .when(close(at(60, -1)))
        .thenRejects('AUCTION_NOT_ENDED');
    });

    it('sells to the highest active bid at the end time', () => {
      const view = given(
        create({ endsAt: LATER }),
        place('alice', 'b1', 10_000),
        place('bob', 'b2', 12_000),
        place('carol', 'b3', 13_000),
        retract('carol', 'b3'),
      )
        .when(close(LATER))
        .thenAccepts();
      expect(view).toMatchObject({
        status: 'Sold',
        winnerId: 'bob',
        finalPrice: 12_000,
        currentBid: 12_000,
        leadingBidId: 'b2',
      });
    });

    it('expires without active bids; anyone may close', () => {
      const view = given(
        create({ endsAt: LATER }),
        place('alice', 'b1', 10_000),
        retract('alice', 'b1'),
      )
        .when(close(at(24 * 60 + 10), 'alice'))
        .thenAccepts();
      expect(view).toMatchObject({ status: 'Expired', winnerId: null, finalPrice: null });
    });

    it('is idempotent once sold, expired or cancelled', () => {
      given(create(), place('alice', 'b1', 10_000), close())
        .when(close(at(61)))
        .thenIgnores();
      given(create(), close())
        .when(close(at(61)))
        .thenIgnores();
      given(create(), cancel())
        .when(close(at(3)))
        .thenIgnores();
    });
  });

  it('lists bids sorted by bid id', () => {
    const view = given(create(), place('alice', 'b2', 10_000))
      .when(place('bob', 'b1', 10_250))
      .thenAccepts();
    expect(view.bids.map((b) => b.bidId)).toEqual(['b1', 'b2']);
  });
});
