import { describe, expect, it } from 'vitest';
import { type AuctionCommand, type AuctionEvent, isoToMs, rules } from '@auction/contracts';
import { deciderSpec } from '@auction/testkit';
import { decide } from './decide';
import { evolve } from './evolve';
import { initialState } from './state';

/** The retraction rules: when a bidder may take back their own bid, and the account deletion's way. */
const spec = deciderSpec({ decide, evolve, initialState });

const AUCTION = 'a1';
const T0 = Date.UTC(2030, 0, 1);
const iso = (ms: number): string => new Date(ms).toISOString();
const at = (minutes: number, extraMs = 0): string => iso(T0 + minutes * 60_000 + extraMs);
const DAY = 24 * 60;
const { graceMs, closingMs } = rules.retraction;

let sequence = 0;
const command = (
  type: AuctionCommand['type'],
  actorId: string,
  data: Record<string, unknown>,
  time: string,
): AuctionCommand => {
  sequence += 1;
  return {
    type,
    data: { auctionId: AUCTION, ...data },
    metadata: { commandId: `r${sequence}`, actorId, correlationId: `s${sequence}`, at: time },
  } as AuctionCommand;
};
const retract = (bidderId: string, bidId: string, time: string, reason?: string) =>
  command('RetractBid', bidderId, { bidId, ...(reason ? { reason } : {}) }, time);
const event = (type: AuctionEvent['type'], data: Record<string, unknown>, time: string) =>
  ({ type, data: { auctionId: AUCTION, at: time, ...data } }) as AuctionEvent;

/** $100, ending a day after it opens unless told otherwise. */
const created = (extra: Record<string, unknown> = {}) =>
  event(
    'AuctionCreated',
    {
      sellerId: 'seller',
      title: 'Brass lamp',
      description: 'A 1920s brass desk lamp',
      categoryId: 'lighting',
      startingPrice: 10_000,
      endsAt: at(DAY),
      image: null,
      ...extra,
    },
    at(0),
  );
const placed = (bidderId: string, bidId: string, amount: number, time = at(1), extra = {}) =>
  event('BidPlaced', { bidId, bidderId, amount, ...extra }, time);
const retracted = (
  bidderId: string,
  bidId: string,
  amount: number,
  fallback: { currentBid: number; leadingBidId: string | null },
  time: string,
  extra = {},
) => event('BidRetracted', { bidId, bidderId, amount, ...fallback, ...extra }, time);

const aliceLeads = [created(), placed('bob', 'b1', 10_000), placed('alice', 'b2', 10_250)];
const aliceFallsBack = { currentBid: 10_000, leadingBidId: 'b1' };

describe('a bidder retracting their own bid', () => {
  it('is accepted within five minutes of placing it, to the millisecond', () => {
    const state = spec
      .given(aliceLeads)
      .when(retract('alice', 'b2', iso(isoToMs(at(1)) + graceMs)))
      .then([retracted('alice', 'b2', 10_250, aliceFallsBack, iso(isoToMs(at(1)) + graceMs))]);
    expect(state.bids.get('b2')).toMatchObject({ retracted: true, retractedAt: at(1, graceMs) });
    spec
      .given(aliceLeads)
      .when(retract('alice', 'b2', at(1, graceMs + 1)))
      .thenRejects('RETRACTION_GRACE_OVER');
  });

  it('counts the five minutes from the last time its bidder entered it: a raise of the amount or the maximum', () => {
    const raised = event(
      'BidEdited',
      { bidId: 'b2', bidderId: 'alice', previousAmount: 10_250, amount: 11_000 },
      at(30),
    );
    spec
      .given([...aliceLeads, raised])
      .when(retract('alice', 'b2', at(34)))
      .then([retracted('alice', 'b2', 11_000, aliceFallsBack, at(34))]);
    const maximum = event(
      'BidMaximumRaised',
      { bidId: 'b2', bidderId: 'alice', previousMaxAmount: 10_250, maxAmount: 20_000 },
      at(30),
    );
    spec
      .given([...aliceLeads, maximum])
      .when(retract('alice', 'b2', at(34)))
      .then([retracted('alice', 'b2', 10_250, aliceFallsBack, at(34))]);
    spec
      .given([...aliceLeads, maximum])
      .when(retract('alice', 'b2', at(36)))
      .thenRejects('RETRACTION_GRACE_OVER');
  });

  it('is refused in the last hour before the end, even right after placing', () => {
    const late = DAY - 60;
    const history = [created(), placed('alice', 'b1', 10_000, at(late - 1))];
    spec
      .given(history)
      .when(retract('alice', 'b1', at(late, -1)))
      .then([
        retracted('alice', 'b1', 10_000, { currentBid: 0, leadingBidId: null }, at(late, -1)),
      ]);
    spec
      .given(history)
      .when(retract('alice', 'b1', at(late)))
      .thenRejects('RETRACTION_CLOSING');
    expect(closingMs).toBe(60 * 60_000);
  });

  it('is refused in the last hour of an end the seller moved closer', () => {
    spec
      .given([...aliceLeads, event('AuctionEdited', { endsAt: at(61) }, at(1))])
      .when(retract('alice', 'b2', at(2)))
      .thenRejects('RETRACTION_CLOSING');
  });

  it('is accepted once per bidder and auction: a second retraction, of any bid, is refused', () => {
    const history = [
      ...aliceLeads,
      retracted('alice', 'b2', 10_250, aliceFallsBack, at(2)),
      placed('alice', 'b3', 10_500, at(3)),
    ];
    spec
      .given(history)
      .when(retract('alice', 'b3', at(4)))
      .thenRejects('RETRACTION_LIMIT_REACHED');
    // Another bidder still has theirs.
    spec
      .given(history)
      .when(retract('bob', 'b1', at(4)))
      .then([retracted('bob', 'b1', 10_000, { currentBid: 10_500, leadingBidId: 'b3' }, at(4))]);
  });

  it('is refused for a bid an automatic bid raised: its price answered a rival maximum', () => {
    // Bob's secret maximum was $537.37; alice's $1e9 maximum answered it at $547.37.
    const probed = [
      created(),
      placed('bob', 'b1', 10_000, at(1), { maxAmount: 53_737 }),
      placed('alice', 'b2', 10_250, at(2), { maxAmount: 100_000_000_000 }),
      event(
        'AutomaticBidPlaced',
        { bidId: 'b2', bidderId: 'alice', previousAmount: 10_250, amount: 54_737 },
        at(2),
      ),
    ];
    spec
      .given(probed)
      .when(retract('alice', 'b2', at(3)))
      .thenRejects('BID_BINDING');
  });

  it('is refused for a bid an automatic bid lifted to the reserve', () => {
    spec
      .given([
        created({ reservePrice: 432_109 }),
        placed('alice', 'b1', 10_000, at(1), { maxAmount: 100_000_000 }),
        event(
          'AutomaticBidPlaced',
          { bidId: 'b1', bidderId: 'alice', previousAmount: 10_000, amount: 432_109 },
          at(1),
        ),
      ])
      .when(retract('alice', 'b1', at(2)))
      .thenRejects('BID_BINDING');
  });

  it('is refused, for every bid of theirs, once another maximum answered one of their bids at once', () => {
    const answered = [
      created(),
      placed('bob', 'b1', 10_000, at(1), { maxAmount: 53_737 }),
      placed('alice', 'b2', 20_000, at(2), { outbidByProxy: true }),
      event(
        'AutomaticBidPlaced',
        { bidId: 'b1', bidderId: 'bob', previousAmount: 10_000, amount: 20_500 },
        at(2),
      ),
    ];
    spec
      .given(answered)
      .when(retract('alice', 'b2', at(3)))
      .thenRejects('BID_BINDING');
    // Her next bid overshoots bob's maximum and leads: she may not take it back either.
    spec
      .given([...answered, placed('alice', 'b3', 60_000, at(3))])
      .when(retract('alice', 'b3', at(4)))
      .thenRejects('BID_BINDING');
  });

  it('is refused once a private raise of the maximum was answered at once', () => {
    spec
      .given([
        created(),
        placed('bob', 'b1', 10_000, at(1), { maxAmount: 53_737 }),
        placed('alice', 'b2', 10_250, at(2), { outbidByProxy: true }),
        event(
          'AutomaticBidPlaced',
          { bidId: 'b1', bidderId: 'bob', previousAmount: 10_000, amount: 10_500 },
          at(2),
        ),
        event(
          'BidMaximumRaised',
          { bidId: 'b2', bidderId: 'alice', previousMaxAmount: 10_250, maxAmount: 30_000 },
          at(3),
        ),
        event(
          'AutomaticBidPlaced',
          { bidId: 'b1', bidderId: 'bob', previousAmount: 10_500, amount: 30_500 },
          at(3),
        ),
        placed('alice', 'b3', 60_000, at(4)),
      ])
      .when(retract('alice', 'b3', at(5)))
      .thenRejects('BID_BINDING');
  });

  it('is refused for a bid that moved the end, even once the end is far again', () => {
    const softClose = { windowMs: 120_000, extensionMs: 120_000 };
    spec
      .given([
        created({ softClose }),
        placed('alice', 'b1', 10_000, at(DAY - 1), { endsAt: at(DAY + 1) }),
        event('AuctionEdited', { endsAt: at(3 * DAY) }, at(DAY - 1)),
      ])
      .when(retract('alice', 'b1', at(DAY)))
      .thenRejects('BID_BINDING');
  });

  it('names the end first, then the one retraction, then what bound the bid, then the time', () => {
    // Her second bid moved the end, she retracted once already, and its five minutes are over.
    const history = [
      ...aliceLeads,
      retracted('alice', 'b2', 10_250, aliceFallsBack, at(2)),
      placed('alice', 'b3', 10_500, at(3), { endsAt: at(DAY + 3) }),
    ];
    spec
      .given(history)
      .when(retract('alice', 'b3', at(DAY)))
      .thenRejects('RETRACTION_CLOSING');
    spec
      .given(history)
      .when(retract('alice', 'b3', at(60)))
      .thenRejects('RETRACTION_LIMIT_REACHED');
    spec
      .given(history)
      .when(retract('bob', 'b1', at(60)))
      .thenRejects('RETRACTION_GRACE_OVER');
    spec
      .given([...aliceLeads, placed('bob', 'b3', 10_500, at(2), { endsAt: at(DAY + 2) })])
      .when(retract('bob', 'b3', at(60)))
      .thenRejects('BID_BINDING');
  });

  it("still refuses someone else's bid before any of its rules", () => {
    spec
      .given(aliceLeads)
      .when(retract('bob', 'b2', at(DAY - 1)))
      .thenRejects('NOT_BID_OWNER');
  });
});

describe("an account deletion's retraction", () => {
  it('takes any bid of the account back, whatever the bidders’ rules say, and says why', () => {
    const bound = [
      created({ softClose: { windowMs: 120_000, extensionMs: 120_000 } }),
      placed('bob', 'b1', 10_000, at(1), { maxAmount: 53_737 }),
      placed('alice', 'b2', 20_000, at(2), { outbidByProxy: true }),
      event(
        'AutomaticBidPlaced',
        { bidId: 'b1', bidderId: 'bob', previousAmount: 10_000, amount: 20_500 },
        at(2),
      ),
      retracted('alice', 'b2', 20_000, { currentBid: 20_500, leadingBidId: 'b1' }, at(2), {
        reason: 'account-deleted',
      }),
    ];
    const state = spec
      .given(bound)
      .when(retract('bob', 'b1', at(DAY, -1), 'account-deleted'))
      .then([
        retracted('bob', 'b1', 20_500, { currentBid: 0, leadingBidId: null }, at(DAY, -1), {
          reason: 'account-deleted',
        }),
      ]);
    // Not counted as theirs: it limits no bidder.
    expect(state.bidders.get('bob')?.retractions ?? 0).toBe(0);
  });

  it("is still only the bid's own bidder's", () => {
    spec
      .given(aliceLeads)
      .when(retract('bob', 'b2', at(2), 'account-deleted'))
      .thenRejects('NOT_BID_OWNER');
  });
});
