import { describe, expect, it } from 'vitest';
import { isoToMs } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import type {
  AuctionCommand,
  AuctionCancelled,
  AuctionCreated,
  AuctionEdited,
  AuctionEvent,
  EditAuction,
} from '@auction/contracts';
import { deciderSpec } from '@auction/testkit';
import { decide } from './decide';
import { evolve } from './evolve';
import { initialState } from './state';
import type { Decision } from './decider-types';

const spec = deciderSpec({ decide, evolve, initialState });

type CancellationReason = AuctionCancelled['data']['reason'];

const AUCTION = 'a1';
const T0 = Date.UTC(2030, 0, 1);
const iso = (ms: number): string => new Date(ms).toISOString();
const at = (minutes: number): string => iso(T0 + minutes * 60_000);
const shift = (time: string, deltaMs: number): string => iso(isoToMs(time) + deltaMs);
const START = at(0);
const NOW = at(5);
const END = at(60);

let sequence = 0;
const meta = (actorId: string, time: string) => {
  sequence += 1;
  return { commandId: `c${sequence}`, actorId, correlationId: `k${sequence}`, at: time };
};

const create = (
  changes: { startingPrice?: number; endsAt?: string } = {},
  time = START,
): AuctionCommand => ({
  type: 'CreateAuction',
  data: {
    auctionId: AUCTION,
    title: 'Brass lamp',
    description: 'A 1920s brass desk lamp',
    categoryId: 'lighting',
    startingPrice: changes.startingPrice ?? 10_000,
    endsAt: changes.endsAt ?? END,
    image: null,
  },
  metadata: meta('seller', time),
});
const place = (bidderId: string, bidId: string, amount: number, time = NOW): AuctionCommand => ({
  type: 'PlaceBid',
  data: { auctionId: AUCTION, bidId, amount },
  metadata: meta(bidderId, time),
});
const editBid = (bidderId: string, bidId: string, amount: number, time = NOW): AuctionCommand => ({
  type: 'EditBid',
  data: { auctionId: AUCTION, bidId, amount },
  metadata: meta(bidderId, time),
});
const retract = (bidderId: string, bidId: string, time = NOW): AuctionCommand => ({
  type: 'RetractBid',
  data: { auctionId: AUCTION, bidId },
  metadata: meta(bidderId, time),
});
const editAuction = (
  actorId: string,
  changes: Omit<EditAuction['data'], 'auctionId'>,
  time = NOW,
): AuctionCommand => ({
  type: 'EditAuction',
  data: { auctionId: AUCTION, ...changes },
  metadata: meta(actorId, time),
});
const cancel = (
  actorId = 'seller',
  time = NOW,
  reason: CancellationReason = 'seller',
): AuctionCommand => ({
  type: 'CancelAuction',
  data: { auctionId: AUCTION, reason },
  metadata: meta(actorId, time),
});
const close = (time = END): AuctionCommand => ({
  type: 'CloseAuction',
  data: { auctionId: AUCTION },
  metadata: meta('system', time),
});

const created = (changes: Partial<AuctionCreated['data']> = {}): AuctionEvent => ({
  type: 'AuctionCreated',
  data: {
    auctionId: AUCTION,
    sellerId: 'seller',
    title: 'Brass lamp',
    description: 'A 1920s brass desk lamp',
    categoryId: 'lighting',
    startingPrice: 10_000,
    endsAt: END,
    image: null,
    increments: 'one-dollar',
    at: START,
    ...changes,
  },
});
/** `endsAt`: the end the bid moved the auction to (soft close). */
const placed = (
  bidderId: string,
  bidId: string,
  amount: number,
  time = at(1),
  endsAt?: string,
): AuctionEvent => ({
  type: 'BidPlaced',
  data: { auctionId: AUCTION, bidId, bidderId, amount, at: time, ...(endsAt ? { endsAt } : {}) },
});
const bidEdited = (
  bidderId: string,
  bidId: string,
  previousAmount: number,
  amount: number,
  time = at(2),
): AuctionEvent => ({
  type: 'BidEdited',
  data: { auctionId: AUCTION, bidId, bidderId, previousAmount, amount, at: time },
});
const retracted = (
  bidderId: string,
  bidId: string,
  amount: number,
  fallback: { currentBid: number; leadingBidId: string | null },
  time = at(2),
): AuctionEvent => ({
  type: 'BidRetracted',
  data: { auctionId: AUCTION, bidId, bidderId, amount, ...fallback, at: time },
});
const auctionEdited = (
  changes: Omit<AuctionEdited['data'], 'auctionId' | 'at'>,
  time = NOW,
): AuctionEvent => ({
  type: 'AuctionEdited',
  data: { auctionId: AUCTION, ...changes, at: time },
});
const cancelled = (time = at(3), reason: CancellationReason = 'seller'): AuctionEvent => ({
  type: 'AuctionCancelled',
  data: { auctionId: AUCTION, reason, at: time },
});
const sold = (
  winnerId: string,
  winningBidId: string,
  finalPrice: number,
  time = END,
): AuctionEvent => ({
  type: 'AuctionClosed',
  data: { auctionId: AUCTION, outcome: 'Sold', winnerId, winningBidId, finalPrice, at: time },
});
const expired = (time = END): AuctionEvent => ({
  type: 'AuctionClosed',
  data: { auctionId: AUCTION, outcome: 'Expired', at: time },
});

const closedHistories: [string, AuctionEvent[]][] = [
  ['sold', [placed('alice', 'b1', 10_000), sold('alice', 'b1', 10_000)]],
  ['expired', [expired()]],
];

describe('CreateAuction', () => {
  it('creates a Live auction sold by the acting user', () => {
    const state = spec.given([]).when(create()).then([created()]);

    expect(state).toMatchObject({ status: 'Live', sellerId: 'seller', currentBid: 0, endsAt: END });
  });

  it('accepts a starting price of exactly $100', () => {
    spec
      .given([])
      .when(create({ startingPrice: 10_000 }))
      .then([created({ startingPrice: 10_000 })]);
  });

  it("records the seller's increment rule, and the spec's one dollar when none is named", () => {
    spec
      .given([])
      .when({ ...create(), data: { ...create().data, increments: 'table' } } as AuctionCommand)
      .then([created({ increments: 'table' })]);
    expect(spec.given([]).when(create()).then([created()]).increments).toBe('one-dollar');
  });

  it('refuses a starting price one cent under $100', () => {
    spec
      .given([])
      .when(create({ startingPrice: 9_999 }))
      .thenRejects('STARTING_PRICE_TOO_LOW');
  });

  it('refuses an end time equal to now', () => {
    spec
      .given([])
      .when(create({ endsAt: START }))
      .thenRejects('END_TIME_NOT_IN_FUTURE');
  });

  it('refuses an end time in the past', () => {
    spec
      .given([])
      .when(create({ endsAt: shift(START, -1) }))
      .thenRejects('END_TIME_NOT_IN_FUTURE');
  });

  it('accepts an end time exactly 90 days ahead', () => {
    const endsAt = shift(START, 90 * DAY_MS);

    spec
      .given([])
      .when(create({ endsAt }))
      .then([created({ endsAt })]);
  });

  it('refuses an end time 90 days and 1 ms ahead', () => {
    spec
      .given([])
      .when(create({ endsAt: shift(START, 90 * DAY_MS + 1) }))
      .thenRejects('END_TIME_TOO_FAR');
  });

  it('refuses to create the same auction twice', () => {
    spec.given([created()]).when(create({}, NOW)).thenRejects('AUCTION_ALREADY_EXISTS');
  });
});

describe('PlaceBid', () => {
  it('accepts a first bid of exactly the starting price', () => {
    const state = spec
      .given([created()])
      .when(place('alice', 'b1', 10_000))
      .then([placed('alice', 'b1', 10_000, NOW)]);

    expect(state).toMatchObject({ currentBid: 10_000, leadingBidId: 'b1' });
  });

  it('accepts a first bid above the starting price', () => {
    spec
      .given([created()])
      .when(place('alice', 'b1', 25_050))
      .then([placed('alice', 'b1', 25_050, NOW)]);
  });

  it('refuses a first bid one cent under the starting price, naming the minimum', () => {
    spec
      .given([created()])
      .when(place('alice', 'b1', 9_999))
      .thenRejects('BID_TOO_LOW', { minimum: 10_000 });
  });

  it('accepts a later bid of exactly the highest bid + $1 by default', () => {
    spec
      .given([created(), placed('alice', 'b1', 10_000)])
      .when(place('bob', 'b2', 10_100))
      .then([placed('bob', 'b2', 10_100, NOW)]);
  });

  it.each([24_999, 25_000, 99_999, 100_000, 500_000])(
    'under the one-dollar rule, at a highest bid of %i cents asks for $1 more',
    (highest) => {
      const minimum = highest + 100;
      spec
        .given([created(), placed('alice', 'b1', highest)])
        .when(place('bob', 'b2', minimum - 1))
        .thenRejects('BID_TOO_LOW', { minimum });
      spec
        .given([created(), placed('alice', 'b1', highest)])
        .when(place('bob', 'b2', minimum))
        .then([placed('bob', 'b2', minimum, NOW)]);
    },
  );

  it('accepts a later bid of exactly the highest bid + its increment under the table ($2.50 at $100)', () => {
    spec
      .given([created({ increments: 'table' }), placed('alice', 'b1', 10_000)])
      .when(place('bob', 'b2', 10_250))
      .then([placed('bob', 'b2', 10_250, NOW)]);
  });

  it('reads an auction created before the rule was a choice (no rule named) as under the table', () => {
    const { increments: _legacy, ...legacy } = (
      created() as Extract<AuctionEvent, { type: 'AuctionCreated' }>
    ).data;
    const history: AuctionEvent[] = [
      { type: 'AuctionCreated', data: legacy },
      placed('alice', 'b1', 10_000),
    ];
    expect(spec.given(history).state().increments).toBe('table');
    spec
      .given(history)
      .when(place('bob', 'b2', 10_249))
      .thenRejects('BID_TOO_LOW', { minimum: 10_250 });
  });

  it.each([
    [24_999, 25_249, 'the $100–$249.99 row: $2.50'],
    [25_000, 25_500, 'the $250–$499.99 row: $5'],
    [99_999, 100_999, 'the $500–$999.99 row: $10'],
    [100_000, 102_500, 'the $1,000–$2,499.99 row: $25'],
    [500_000, 510_000, 'the $5,000-and-up row: $100'],
  ])('under the table, at a highest bid of %i cents asks for %i (%s)', (highest, minimum) => {
    const table = created({ increments: 'table' });
    spec
      .given([table, placed('alice', 'b1', highest)])
      .when(place('bob', 'b2', minimum - 1))
      .thenRejects('BID_TOO_LOW', { minimum });
    spec
      .given([table, placed('alice', 'b1', highest)])
      .when(place('bob', 'b2', minimum))
      .then([placed('bob', 'b2', minimum, NOW)]);
  });

  it('refuses a later bid equal to the highest bid', () => {
    spec
      .given([created(), placed('alice', 'b1', 10_000)])
      .when(place('bob', 'b2', 10_000))
      .thenRejects('BID_TOO_LOW', { minimum: 10_100 });
  });

  it('refuses a later bid one cent short of the increment', () => {
    spec
      .given([created(), placed('alice', 'b1', 10_000)])
      .when(place('bob', 'b2', 10_099))
      .thenRejects('BID_TOO_LOW', { minimum: 10_100 });
  });

  it('states the minimum in dollars when a bid is too low', () => {
    const decision = spec
      .given([created({ increments: 'table' }), placed('alice', 'b1', 10_000)])
      .when(place('bob', 'b2', 10_099))
      .decision();

    expect(decision).toMatchObject({
      ok: false,
      rejection: { code: 'BID_TOO_LOW', message: expect.stringContaining('$102.50') as unknown },
    });
  });

  it('measures the next bid from the bid that leads after a retraction', () => {
    spec
      .given([
        created(),
        placed('alice', 'b1', 10_000),
        placed('bob', 'b2', 10_500),
        retracted('bob', 'b2', 10_500, { currentBid: 10_000, leadingBidId: 'b1' }),
      ])
      .when(place('bob', 'b3', 10_250))
      .then([placed('bob', 'b3', 10_250, NOW)]);
  });

  it('asks for the starting price again once every bid was retracted', () => {
    spec
      .given([
        created(),
        placed('alice', 'b1', 12_000),
        retracted('alice', 'b1', 12_000, { currentBid: 0, leadingBidId: null }),
      ])
      .when(place('bob', 'b2', 10_000))
      .then([placed('bob', 'b2', 10_000, NOW)]);
  });

  it('lets the leader raise their own lead', () => {
    const state = spec
      .given([created(), placed('alice', 'b1', 10_000)])
      .when(place('alice', 'b2', 10_250))
      .then([placed('alice', 'b2', 10_250, NOW)]);

    expect(state).toMatchObject({ currentBid: 10_250, leadingBidId: 'b2' });
  });

  it('refuses a bid from the seller', () => {
    const decision = spec
      .given([created()])
      .when(place('seller', 'b1', 10_000))
      .decision();

    expect(decision).toEqual({
      ok: false,
      rejection: { code: 'OWN_AUCTION', message: 'You cannot bid on your own auction' },
    });
  });

  it('refuses a bid at exactly the end time although no close was written', () => {
    spec
      .given([created()])
      .when(place('alice', 'b1', 10_000, END))
      .thenRejects('AUCTION_ENDED');
  });

  it('accepts a bid 1 ms before the end time', () => {
    const time = shift(END, -1);

    spec
      .given([created()])
      .when(place('alice', 'b1', 10_000, time))
      .then([placed('alice', 'b1', 10_000, time)]);
  });

  it('refuses a bid id that was already placed', () => {
    spec
      .given([created(), placed('alice', 'b1', 10_000)])
      .when(place('bob', 'b1', 20_000))
      .thenRejects('BID_ALREADY_EXISTS');
  });

  it('refuses a bid id that was placed and retracted', () => {
    spec
      .given([
        created(),
        placed('alice', 'b1', 10_000),
        retracted('alice', 'b1', 10_000, { currentBid: 0, leadingBidId: null }),
      ])
      .when(place('alice', 'b1', 10_000))
      .thenRejects('BID_ALREADY_EXISTS');
  });

  it('refuses a bid on a cancelled auction', () => {
    spec
      .given([created(), cancelled()])
      .when(place('alice', 'b1', 10_000))
      .thenRejects('AUCTION_NOT_LIVE');
  });

  it.each(closedHistories)('refuses a bid on a %s auction', (_, history) => {
    spec
      .given([created(), ...history])
      .when(place('bob', 'b2', 20_000, shift(END, 1)))
      .thenRejects('AUCTION_NOT_LIVE');
  });

  it('refuses a bid on an auction that does not exist', () => {
    spec
      .given([])
      .when(place('alice', 'b1', 10_000))
      .thenRejects('AUCTION_NOT_FOUND');
  });
});

describe('EditBid', () => {
  const aliceThenBob = [
    created({ increments: 'table' }),
    placed('alice', 'b1', 10_000),
    placed('bob', 'b2', 10_100),
  ];

  it('raises an outbid bid to at least the highest bid + $1 by default', () => {
    const history = [created(), placed('alice', 'b1', 10_000), placed('bob', 'b2', 10_100)];
    spec
      .given(history)
      .when(editBid('alice', 'b1', 10_199))
      .thenRejects('BID_TOO_LOW', { minimum: 10_200 });
    spec
      .given(history)
      .when(editBid('alice', 'b1', 10_200))
      .then([bidEdited('alice', 'b1', 10_000, 10_200, NOW)]);
  });

  it('raises an outbid bid to the highest bid + its increment, recording the previous amount', () => {
    const state = spec
      .given(aliceThenBob)
      .when(editBid('alice', 'b1', 10_350))
      .then([bidEdited('alice', 'b1', 10_000, 10_350, NOW)]);

    expect(state).toMatchObject({ currentBid: 10_350, leadingBidId: 'b1' });
  });

  it('refuses to raise an outbid bid to less than the highest bid + its increment', () => {
    spec
      .given(aliceThenBob)
      .when(editBid('alice', 'b1', 10_349))
      .thenRejects('BID_TOO_LOW', { minimum: 10_350 });
  });

  it('raises the leading bid by a single cent', () => {
    const state = spec
      .given(aliceThenBob)
      .when(editBid('bob', 'b2', 10_101))
      .then([bidEdited('bob', 'b2', 10_100, 10_101, NOW)]);

    expect(state).toMatchObject({ currentBid: 10_101, leadingBidId: 'b2' });
  });

  it('refuses to edit the leading bid to its own amount', () => {
    spec
      .given(aliceThenBob)
      .when(editBid('bob', 'b2', 10_100))
      .thenRejects('BID_TOO_LOW', { minimum: 10_101 });
  });

  it("refuses to edit someone else's bid", () => {
    spec
      .given(aliceThenBob)
      .when(editBid('bob', 'b1', 20_000))
      .thenRejects('NOT_BID_OWNER');
  });

  it('refuses to edit a retracted bid', () => {
    spec
      .given([
        ...aliceThenBob,
        retracted('alice', 'b1', 10_000, { currentBid: 10_100, leadingBidId: 'b2' }),
      ])
      .when(editBid('alice', 'b1', 20_000))
      .thenRejects('BID_NOT_FOUND');
  });

  it('refuses to edit an unknown bid', () => {
    spec
      .given(aliceThenBob)
      .when(editBid('alice', 'b9', 20_000))
      .thenRejects('BID_NOT_FOUND');
  });

  it('refuses an edit at the end time', () => {
    spec
      .given(aliceThenBob)
      .when(editBid('alice', 'b1', 20_000, END))
      .thenRejects('AUCTION_ENDED');
  });
});

describe('RetractBid', () => {
  // Retractions are refused in an auction's last hour: these auctions end a day later.
  const threeBids = [
    created({ endsAt: at(24 * 60) }),
    placed('alice', 'b1', 10_000),
    placed('bob', 'b2', 10_100),
    placed('alice', 'b3', 10_200),
  ];

  it('falls back to the next highest bid when the leader retracts', () => {
    const state = spec
      .given(threeBids)
      .when(retract('alice', 'b3'))
      .then([retracted('alice', 'b3', 10_200, { currentBid: 10_100, leadingBidId: 'b2' }, NOW)]);

    expect(state).toMatchObject({ currentBid: 10_100, leadingBidId: 'b2' });
    expect(state.bids.get('b3')).toMatchObject({ retracted: true, amount: 10_200 });
  });

  it('falls back past bids that were already retracted', () => {
    spec
      .given([
        ...threeBids,
        retracted('bob', 'b2', 10_100, { currentBid: 10_200, leadingBidId: 'b3' }),
      ])
      .when(retract('alice', 'b3'))
      .then([retracted('alice', 'b3', 10_200, { currentBid: 10_000, leadingBidId: 'b1' }, NOW)]);
  });

  it('falls back to the edited amount of the remaining bid', () => {
    spec
      .given([...threeBids, bidEdited('bob', 'b2', 10_100, 10_300), placed('alice', 'b4', 10_400)])
      .when(retract('alice', 'b4'))
      .then([retracted('alice', 'b4', 10_400, { currentBid: 10_300, leadingBidId: 'b2' }, NOW)]);
  });

  it('leaves no current bid when the last bid is retracted', () => {
    const state = spec
      .given([created({ endsAt: at(24 * 60) }), placed('alice', 'b1', 10_000)])
      .when(retract('alice', 'b1'))
      .then([retracted('alice', 'b1', 10_000, { currentBid: 0, leadingBidId: null }, NOW)]);

    expect(state).toMatchObject({ currentBid: 0, leadingBidId: null });
  });

  it('keeps the current bid when a bid that is not leading is retracted', () => {
    const state = spec
      .given(threeBids)
      .when(retract('bob', 'b2'))
      .then([retracted('bob', 'b2', 10_100, { currentBid: 10_200, leadingBidId: 'b3' }, NOW)]);

    expect(state).toMatchObject({ currentBid: 10_200, leadingBidId: 'b3' });
  });

  it('refuses to retract the same bid twice', () => {
    spec
      .given([
        ...threeBids,
        retracted('bob', 'b2', 10_100, { currentBid: 10_200, leadingBidId: 'b3' }),
      ])
      .when(retract('bob', 'b2'))
      .thenRejects('BID_NOT_FOUND');
  });

  it("refuses to retract someone else's bid", () => {
    spec.given(threeBids).when(retract('bob', 'b3')).thenRejects('NOT_BID_OWNER');
  });
});

describe('EditAuction', () => {
  const withBid = [created(), placed('alice', 'b1', 10_000)];

  it('refuses an edit from someone other than the seller', () => {
    spec
      .given([created()])
      .when(editAuction('alice', { title: 'Stolen lamp' }))
      .thenRejects('NOT_AUCTION_OWNER');
  });

  it('changes title, description and image while Live, even with bids', () => {
    const changes = {
      title: 'Brass lamp, restored',
      description: 'Rewired in 2029',
      image: '/uploads/lamp.jpg',
    };

    const state = spec
      .given(withBid)
      .when(editAuction('seller', changes))
      .then([auctionEdited(changes)]);

    expect(state).toMatchObject(changes);
  });

  it('lists only the fields that changed', () => {
    spec
      .given([created()])
      .when(
        editAuction('seller', {
          title: 'Brass lamp',
          description: 'Rewired in 2029',
          image: null,
          startingPrice: 10_000,
          endsAt: END,
        }),
      )
      .then([auctionEdited({ description: 'Rewired in 2029' })]);
  });

  it('writes nothing for an edit that changes nothing', () => {
    spec
      .given(withBid)
      .when(editAuction('seller', { title: 'Brass lamp', startingPrice: 10_000, endsAt: END }))
      .then([]);
  });

  it('changes the starting price while there are no bids', () => {
    const state = spec
      .given([created()])
      .when(editAuction('seller', { startingPrice: 25_000 }))
      .then([auctionEdited({ startingPrice: 25_000 })]);

    expect(state.startingPrice).toBe(25_000);
  });

  it('refuses to change the starting price once there is a bid', () => {
    spec
      .given(withBid)
      .when(editAuction('seller', { startingPrice: 25_000 }))
      .thenRejects('STARTING_PRICE_LOCKED');
  });

  it('changes the starting price again once every bid was retracted', () => {
    spec
      .given([...withBid, retracted('alice', 'b1', 10_000, { currentBid: 0, leadingBidId: null })])
      .when(editAuction('seller', { startingPrice: 25_000 }))
      .then([auctionEdited({ startingPrice: 25_000 })]);
  });

  it('refuses a new starting price under $100', () => {
    spec
      .given([created()])
      .when(editAuction('seller', { startingPrice: 9_999 }))
      .thenRejects('STARTING_PRICE_TOO_LOW');
  });

  it('refuses an end time equal to now', () => {
    spec
      .given([created()])
      .when(editAuction('seller', { endsAt: NOW }))
      .thenRejects('END_TIME_NOT_IN_FUTURE');
  });

  it('accepts an end time exactly 90 days from now', () => {
    const endsAt = shift(NOW, 90 * DAY_MS);

    spec
      .given([created()])
      .when(editAuction('seller', { endsAt }))
      .then([auctionEdited({ endsAt })]);
  });

  it('refuses an end time more than 90 days from now', () => {
    spec
      .given([created()])
      .when(editAuction('seller', { endsAt: shift(NOW, 90 * DAY_MS + 1) }))
      .thenRejects('END_TIME_TOO_FAR');
  });

  it('moves the end time earlier while there are no bids', () => {
    spec
      .given([created()])
      .when(editAuction('seller', { endsAt: at(30) }))
      .then([auctionEdited({ endsAt: at(30) })]);
  });

  it('refuses to move the end time earlier once there is a bid', () => {
    spec
      .given(withBid)
      .when(editAuction('seller', { endsAt: at(30) }))
      .thenRejects('END_TIME_EARLIER');
  });

  it('moves the end time later once there is a bid', () => {
    const state = spec
      .given(withBid)
      .when(editAuction('seller', { endsAt: at(120) }))
      .then([auctionEdited({ endsAt: at(120) })]);

    expect(state.endsAt).toBe(at(120));
  });

  it('refuses an edit at the end time', () => {
    spec
      .given([created()])
      .when(editAuction('seller', { title: 'Late lamp' }, END))
      .thenRejects('AUCTION_ENDED');
  });

  it('refuses an edit of a cancelled auction', () => {
    spec
      .given([created(), cancelled()])
      .when(editAuction('seller', { title: 'Gone lamp' }))
      .thenRejects('AUCTION_NOT_LIVE');
  });
});

describe('CancelAuction', () => {
  it('refuses a cancellation from someone other than the seller', () => {
    spec.given([created()]).when(cancel('alice')).thenRejects('NOT_AUCTION_OWNER');
  });

  it('cancels a Live auction with its reason', () => {
    const state = spec
      .given([created(), placed('alice', 'b1', 10_000)])
      .when(cancel('seller', NOW, 'account-deleted'))
      .then([cancelled(NOW, 'account-deleted')]);

    expect(state.status).toBe('Cancelled');
  });

  it('writes nothing when cancelling twice', () => {
    spec.given([created(), cancelled()]).when(cancel()).then([]);
  });

  it.each(closedHistories)('refuses to cancel a %s auction', (_, history) => {
    spec
      .given([created(), ...history])
      .when(cancel('seller', shift(END, 1)))
      .thenRejects('AUCTION_CLOSED');
  });

  it('refuses to cancel a Live auction past its end time', () => {
    spec.given([created()]).when(cancel('seller', END)).thenRejects('AUCTION_ENDED');
  });
});

describe('CloseAuction', () => {
  it('refuses to close 1 ms before the end time', () => {
    spec
      .given([created()])
      .when(close(shift(END, -1)))
      .thenRejects('AUCTION_NOT_ENDED');
  });

  it('sells to the highest bidder at the end time', () => {
    const state = spec
      .given([created(), placed('alice', 'b1', 10_000), placed('bob', 'b2', 10_100)])
      .when(close())
      .then([sold('bob', 'b2', 10_100)]);

    expect(state).toMatchObject({ status: 'Sold', winnerId: 'bob', finalPrice: 10_100 });
  });

  it('sells at the highest remaining bid after retractions and edits', () => {
    spec
      .given([
        created(),
        placed('alice', 'b1', 10_000),
        placed('bob', 'b2', 10_100),
        bidEdited('alice', 'b1', 10_000, 10_200),
        placed('bob', 'b3', 10_500, at(3)),
        retracted('bob', 'b3', 10_500, { currentBid: 10_200, leadingBidId: 'b1' }, at(4)),
      ])
      .when(close())
      .then([sold('alice', 'b1', 10_200)]);
  });

  it('sells late to the highest bidder when the close comes after a restart', () => {
    const late = shift(END, DAY_MS);

    spec
      .given([created(), placed('alice', 'b1', 10_000)])
      .when(close(late))
      .then([sold('alice', 'b1', 10_000, late)]);
  });

  it('expires an auction without bids', () => {
    const state = spec.given([created()]).when(close()).then([expired()]);

    expect(state).toMatchObject({ status: 'Expired', winnerId: null, finalPrice: null });
  });

  it('expires an auction whose bids were all retracted', () => {
    spec
      .given([
        created(),
        placed('alice', 'b1', 10_000),
        retracted('alice', 'b1', 10_000, { currentBid: 0, leadingBidId: null }),
      ])
      .when(close())
      .then([expired()]);
  });

  it.each(closedHistories)('writes nothing when closing a %s auction again', (_, history) => {
    spec
      .given([created(), ...history])
      .when(close(shift(END, 1)))
      .then([]);
  });

  it('writes nothing when closing a cancelled auction', () => {
    spec.given([created(), cancelled()]).when(close()).then([]);
  });
});

describe('business time', () => {
  it('stamps a command that arrives out of order with the time of the last event', () => {
    spec
      .given([created(), placed('alice', 'b1', 10_000, at(10))])
      .when(place('bob', 'b2', 10_250, at(5)))
      .then([placed('bob', 'b2', 10_250, at(10))]);
  });

  it('keeps a cancellation from going back in time', () => {
    spec
      .given([created(), placed('alice', 'b1', 10_000, at(10))])
      .when(cancel('seller', at(5)))
      .then([cancelled(at(10))]);
  });
});

describe('evolve', () => {
  const fold = (events: AuctionEvent[]) => events.reduce(evolve, initialState);

  it('starts with no auction', () => {
    expect(initialState).toMatchObject({
      status: 'None',
      currentBid: 0,
      leadingBidId: null,
      winnerId: null,
      finalPrice: null,
      lastAt: null,
    });
    expect(initialState.bids.size).toBe(0);
  });

  it('folds AuctionCreated into a Live auction', () => {
    expect(fold([created({ image: '/uploads/lamp.jpg' })])).toMatchObject({
      status: 'Live',
      auctionId: AUCTION,
      sellerId: 'seller',
      title: 'Brass lamp',
      description: 'A 1920s brass desk lamp',
      categoryId: 'lighting',
      image: '/uploads/lamp.jpg',
      startingPrice: 10_000,
      endsAt: END,
      lastAt: START,
    });
  });

  it('folds AuctionEdited, changing only the fields it carries', () => {
    const state = fold([
      created({ image: '/uploads/lamp.jpg' }),
      auctionEdited({ image: null, endsAt: at(90), startingPrice: 12_000 }),
    ]);

    expect(state).toMatchObject({
      title: 'Brass lamp',
      description: 'A 1920s brass desk lamp',
      image: null,
      endsAt: at(90),
      startingPrice: 12_000,
      lastAt: NOW,
    });
  });

  it('folds BidPlaced into the bids and the lead', () => {
    const state = fold([created(), placed('alice', 'b1', 10_000), placed('bob', 'b2', 10_100)]);

    expect(state).toMatchObject({ currentBid: 10_100, leadingBidId: 'b2', lastAt: at(1) });
    expect(state.bids.toJS()).toEqual({
      b1: {
        bidId: 'b1',
        bidderId: 'alice',
        amount: 10_000,
        maxAmount: 10_000,
        maxSeq: 0,
        placedAt: at(1),
        enteredAt: at(1),
        retracted: false,
        retractedAt: null,
        automatic: false,
        bound: false,
      },
      b2: {
        bidId: 'b2',
        bidderId: 'bob',
        amount: 10_100,
        maxAmount: 10_100,
        maxSeq: 1,
        placedAt: at(1),
        enteredAt: at(1),
        retracted: false,
        retractedAt: null,
        automatic: false,
        bound: false,
      },
    });
  });

  it('folds BidEdited into a new amount, maximum and lead, keeping when it was placed', () => {
    const state = fold([
      created(),
      placed('alice', 'b1', 10_000),
      placed('bob', 'b2', 10_100),
      bidEdited('alice', 'b1', 10_000, 10_200),
    ]);

    expect(state).toMatchObject({ currentBid: 10_200, leadingBidId: 'b1', lastAt: at(2) });
    expect(state.bids.get('b1')).toEqual({
      bidId: 'b1',
      bidderId: 'alice',
      amount: 10_200,
      maxAmount: 10_200,
      maxSeq: 2,
      placedAt: at(1),
      enteredAt: at(2),
      retracted: false,
      retractedAt: null,
      automatic: false,
      bound: false,
    });
  });

  it('folds BidRetracted into a retracted bid and the lead the event names', () => {
    const state = fold([
      created(),
      placed('alice', 'b1', 10_000),
      placed('bob', 'b2', 10_100),
      retracted('bob', 'b2', 10_100, { currentBid: 10_000, leadingBidId: 'b1' }),
    ]);

    expect(state).toMatchObject({ currentBid: 10_000, leadingBidId: 'b1', lastAt: at(2) });
    expect(state.bids.get('b2')).toMatchObject({
      amount: 10_100,
      retracted: true,
      retractedAt: at(2),
    });
    expect(state.bids.get('b1')).toMatchObject({ retracted: false });
  });

  it('folds AuctionCancelled into Cancelled', () => {
    expect(fold([created(), cancelled()])).toMatchObject({ status: 'Cancelled', lastAt: at(3) });
  });

  it('folds a Sold AuctionClosed into the winner and final price', () => {
    const state = fold([created(), placed('alice', 'b1', 10_000), sold('alice', 'b1', 10_000)]);

    expect(state).toMatchObject({
      status: 'Sold',
      winnerId: 'alice',
      finalPrice: 10_000,
      currentBid: 10_000,
      leadingBidId: 'b1',
      lastAt: END,
    });
  });

  it('folds an Expired AuctionClosed without a winner', () => {
    expect(fold([created(), expired()])).toMatchObject({
      status: 'Expired',
      winnerId: null,
      finalPrice: null,
      lastAt: END,
    });
  });
});

describe('soft close', () => {
  const eventsOf = (decision: Decision) => (decision.ok ? decision.events : []);
  const TWO_MINUTES = 2 * 60_000;
  const softClose = { windowMs: TWO_MINUTES, extensionMs: TWO_MINUTES };
  const withSoftClose = created({ softClose });
  const inWindow = shift(END, -30_000);

  it('records the soft close the auction is created with', () => {
    spec
      .given([])
      .when({ ...create(), data: { ...create().data, softClose } } as AuctionCommand)
      .then([created({ softClose })]);
  });

  it('moves the end to the bid plus the extension when a bid lands within the window', () => {
    const state = spec
      .given([withSoftClose])
      .when(place('alice', 'b1', 10_000, inWindow))
      .then([
        {
          type: 'BidPlaced',
          data: {
            amount: 10_000,
            at: inWindow,
            auctionId: AUCTION,
            bidId: 'b1',
            bidderId: 'alice',
            endsAt: shift(inWindow, TWO_MINUTES),
          },
        },
      ]);
    expect(state).toMatchObject({ endsAt: shift(END, 90_000), extended: true });
  });

  it('extends from exactly the window, not a millisecond before it', () => {
    const longer = created({ softClose: { windowMs: TWO_MINUTES, extensionMs: 3 * 60_000 } });
    const edge = shift(END, -TWO_MINUTES);
    const [first] = eventsOf(
      spec
        .given([longer])
        .when(place('alice', 'b1', 10_000, edge))
        .decision(),
    );
    expect(first?.data).toMatchObject({ endsAt: shift(END, 60_000) });
    const [early] = eventsOf(
      spec
        .given([longer])
        .when(place('alice', 'b1', 10_000, shift(edge, -1)))
        .decision(),
    );
    expect(early?.data).not.toHaveProperty('endsAt');
  });

  it('never moves the end earlier: an extension shorter than the window only moves it when it reaches past', () => {
    const short = created({ softClose: { windowMs: TWO_MINUTES, extensionMs: 30_000 } });
    const [far] = eventsOf(
      spec
        .given([short])
        .when(place('alice', 'b1', 10_000, inWindow))
        .decision(),
    );
    expect(far?.data).not.toHaveProperty('endsAt');
    const late = shift(END, -10_000);
    const [near] = eventsOf(
      spec
        .given([short])
        .when(place('alice', 'b1', 10_000, late))
        .decision(),
    );
    expect(near?.data).toMatchObject({ endsAt: shift(late, 30_000) });
  });

  it('moves the end on a raise within the window too', () => {
    const state = spec
      .given([withSoftClose, placed('alice', 'b1', 10_000), placed('bob', 'b2', 10_250)])
      .when(editBid('alice', 'b1', 11_000, inWindow))
      .then([
        {
          type: 'BidEdited',
          data: {
            amount: 11_000,
            at: inWindow,
            auctionId: AUCTION,
            bidId: 'b1',
            bidderId: 'alice',
            endsAt: shift(inWindow, TWO_MINUTES),
            previousAmount: 10_000,
          },
        },
      ]);
    expect(state.endsAt).toBe(shift(inWindow, TWO_MINUTES));
  });

  it('refuses a bid at the end, but takes one at the old end once a bid has moved it', () => {
    spec
      .given([withSoftClose])
      .when(place('alice', 'b1', 10_000, END))
      .thenRejects('AUCTION_ENDED');
    const movedByBid = placed('alice', 'b1', 10_000, inWindow, shift(inWindow, TWO_MINUTES));
    spec
      .given([withSoftClose, movedByBid])
      .when(place('bob', 'b2', 10_250, END))
      .then([placed('bob', 'b2', 10_250, END, shift(END, TWO_MINUTES))]);
  });

  it('leaves the end alone without a soft close (auctions made before it existed)', () => {
    const [event] = eventsOf(
      spec
        .given([created()])
        .when(place('alice', 'b1', 10_000, inWindow))
        .decision(),
    );
    expect(event?.data).not.toHaveProperty('endsAt');
  });

  it('refuses to close before the moved end, naming it, and closes once it has passed', () => {
    const moved = shift(inWindow, TWO_MINUTES);
    const extendedByBid: AuctionEvent = placed('alice', 'b1', 10_000, inWindow, moved);
    spec
      .given([withSoftClose, extendedByBid])
      .when(close(END))
      .thenRejects('AUCTION_NOT_ENDED', { endsAt: moved });
    spec
      .given([withSoftClose, extendedByBid])
      .when(close(moved))
      .then([
        {
          type: 'AuctionClosed',
          data: {
            auctionId: AUCTION,
            outcome: 'Sold',
            winnerId: 'alice',
            winningBidId: 'b1',
            finalPrice: 10_000,
            at: moved,
          },
        },
      ]);
  });
});
