import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AuctionCommand,
  CancelAuction,
  CloseAuction,
  CommandMetadata,
  CreateAuction,
  EditAuction,
  EditBid,
  IsoTime,
  PlaceBid,
  RetractBid,
  SYSTEM_ACTOR,
  isoToMs,
} from '@auction/contracts';
import type { ErrorCode } from '@auction/contracts';
import type { z } from 'zod';
import {
  TIMELINE_BIDDERS,
  TIMELINE_SELLER,
  auctionCommandArbitrary,
  cancelAuctionCommandArbitrary,
  closeAuctionCommandArbitrary,
  commandMetadataArbitrary,
  createAuctionCommandArbitrary,
  editAuctionCommandArbitrary,
  editBidCommandArbitrary,
  isoTimeArbitrary,
  placeBidCommandArbitrary,
  retractBidCommandArbitrary,
  timelineArbitrary,
} from './arbitraries';
import { createModel } from './reference-model';

const HOUR_MS = 60 * 60_000;

const parsesUnchanged = <T>(schema: z.ZodType<T>, arbitrary: fc.Arbitrary<T>): void => {
  fc.assert(
    fc.property(arbitrary, (value) => {
      expect(schema.parse(value)).toEqual(value);
    }),
    { numRuns: 200 },
  );
};

describe('command arbitraries', () => {
  it.each([
    ['CreateAuction', CreateAuction, createAuctionCommandArbitrary()],
    ['EditAuction', EditAuction, editAuctionCommandArbitrary()],
    ['CancelAuction', CancelAuction, cancelAuctionCommandArbitrary()],
    ['PlaceBid', PlaceBid, placeBidCommandArbitrary()],
    ['EditBid', EditBid, editBidCommandArbitrary()],
    ['RetractBid', RetractBid, retractBidCommandArbitrary()],
    ['CloseAuction', CloseAuction, closeAuctionCommandArbitrary()],
  ] as const)('%s commands satisfy the contract', (_type, schema, arbitrary) => {
    parsesUnchanged<AuctionCommand>(schema, arbitrary);
  });

  it('any command satisfies the AuctionCommand contract', () => {
    parsesUnchanged(AuctionCommand, auctionCommandArbitrary());
  });

  it('metadata and times satisfy their contracts', () => {
    parsesUnchanged(CommandMetadata, commandMetadataArbitrary());
    parsesUnchanged(IsoTime, isoTimeArbitrary());
  });

  it('honours a fixed auction and actor', () => {
    fc.assert(
      fc.property(placeBidCommandArbitrary({ auctionId: 'a-1', actorId: 'u-1' }), (command) => {
        expect(command.data.auctionId).toBe('a-1');
        expect(command.metadata.actorId).toBe('u-1');
      }),
    );
  });
});

describe('timelineArbitrary', () => {
  const users = new Set([TIMELINE_SELLER, SYSTEM_ACTOR, ...TIMELINE_BIDDERS]);

  it('produces contract-valid commands for one auction, opening with CreateAuction', () => {
    fc.assert(
      fc.property(timelineArbitrary({ auctionId: 'auction-7' }), (timeline) => {
        expect(timeline[0]?.type).toBe('CreateAuction');
        for (const command of timeline) {
          expect(AuctionCommand.parse(command)).toEqual(command);
          expect(command.data.auctionId).toBe('auction-7');
          expect(users.has(command.metadata.actorId)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps times non-decreasing and command and correlation ids unique', () => {
    fc.assert(
      fc.property(timelineArbitrary(), (timeline) => {
        const times = timeline.map((c) => c.metadata.at);
        expect(times).toEqual([...times].sort());
        expect(new Set(timeline.map((c) => c.metadata.commandId)).size).toBe(timeline.length);
        expect(new Set(timeline.map((c) => c.metadata.correlationId)).size).toBe(timeline.length);
      }),
      { numRuns: 200 },
    );
  });

  it('respects the length bounds', () => {
    fc.assert(
      fc.property(timelineArbitrary({ minLength: 5, maxLength: 8 }), (timeline) => {
        expect(timeline.length).toBeGreaterThanOrEqual(6);
        expect(timeline.length).toBeLessThanOrEqual(9);
      }),
    );
  });

  it('gets a good share of bids accepted and reaches every rule of the model', () => {
    const outcomes = new Map<string, number>();
    let bids = 0;
    let acceptedBids = 0;
    let crossedEnd = 0;
    const timelines = fc.sample(timelineArbitrary(), { numRuns: 500, seed: 20_300_101 });
    for (const timeline of timelines) {
      const model = createModel();
      let ended = false;
      for (const command of timeline) {
        const outcome = model.apply(command);
        const key = outcome.accepted ? `${command.type}:accepted` : outcome.code;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        const endsAt = model.view().endsAt;
        if (endsAt !== null && command.metadata.at >= endsAt) ended = true;
        if (command.type !== 'PlaceBid') continue;
        bids += 1;
        if (outcome.accepted) acceptedBids += 1;
      }
      if (ended) crossedEnd += 1;
    }

    expect(acceptedBids / bids).toBeGreaterThan(0.3);
    expect(crossedEnd / timelines.length).toBeGreaterThan(0.2);
    const reached: ErrorCode[] = [
      'AUCTION_NOT_FOUND',
      'AUCTION_ALREADY_EXISTS',
      'AUCTION_ENDED',
      'AUCTION_NOT_LIVE',
      'AUCTION_CLOSED',
      'AUCTION_NOT_ENDED',
      'NOT_AUCTION_OWNER',
      'STARTING_PRICE_TOO_LOW',
      'STARTING_PRICE_LOCKED',
      'END_TIME_NOT_IN_FUTURE',
      'END_TIME_TOO_FAR',
      'END_TIME_EARLIER',
      'OWN_AUCTION',
      'BID_TOO_LOW',
      'BID_NOT_FOUND',
      'BID_ALREADY_EXISTS',
      'NOT_BID_OWNER',
      'AUCTION_BOUGHT_NOW',
      'RETRACTION_CLOSING',
      'RETRACTION_LIMIT_REACHED',
      'BID_BINDING',
      'RETRACTION_GRACE_OVER',
    ];
    for (const code of reached) expect(outcomes.get(code), code).toBeGreaterThan(0);
    for (const type of ['PlaceBid', 'EditBid', 'RetractBid', 'EditAuction', 'CancelAuction']) {
      expect(outcomes.get(`${type}:accepted`), type).toBeGreaterThan(0);
    }
    expect(outcomes.get('CloseAuction:accepted')).toBeGreaterThan(0);
  });

  it("opens auctions under each increment rule and naming none, and bids on each one's boundary", () => {
    const timelines = fc.sample(timelineArbitrary(), { numRuns: 300, seed: 20_300_102 });
    const bids = new Map<string, { accepted: number; tooLow: number }>();
    for (const timeline of timelines) {
      const [create] = timeline;
      const rule = create?.type === 'CreateAuction' ? (create.data.increments ?? 'none') : 'none';
      const count = bids.get(rule) ?? { accepted: 0, tooLow: 0 };
      bids.set(rule, count);
      const model = createModel();
      for (const command of timeline) {
        const outcome = model.apply(command);
        if (command.type !== 'PlaceBid' || model.view().leadingBidId === null) continue;
        if (outcome.accepted) count.accepted += 1;
        else if (outcome.code === 'BID_TOO_LOW') count.tooLow += 1;
      }
    }
    for (const rule of ['none', 'one-dollar', 'table']) {
      expect(bids.get(rule)?.accepted, rule).toBeGreaterThan(20);
      expect(bids.get(rule)?.tooLow, rule).toBeGreaterThan(5);
    }
  });

  it('retracts early and late, again, after automatic raises and for account deletions', () => {
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    for (const timeline of fc.sample(timelineArbitrary(), { numRuns: 500, seed: 20_300_102 })) {
      const model = createModel();
      for (const command of timeline) {
        const before = model.view();
        const outcome = model.apply(command);
        if (command.type !== 'RetractBid') continue;
        const reason = command.data.reason ?? 'bidder';
        const verdict = outcome.accepted ? 'accepted' : outcome.code;
        count(`${reason}:${verdict}`);
        if (!outcome.accepted || reason !== 'bidder') continue;
        const { at } = command.metadata;
        const bid = before.bids.find((b) => b.bidId === command.data.bidId);
        if (bid !== undefined && bid.bidId === before.leadingBidId)
          count('bidder:accepted-leading');
        if (before.endsAt !== null && isoToMs(before.endsAt) - isoToMs(at) < 2 * HOUR_MS)
          count('bidder:accepted-within-two-hours-of-the-end');
      }
    }
    for (const key of [
      'bidder:accepted',
      'bidder:accepted-leading',
      'bidder:accepted-within-two-hours-of-the-end',
      'bidder:RETRACTION_CLOSING',
      'bidder:RETRACTION_LIMIT_REACHED',
      'bidder:BID_BINDING',
      'bidder:RETRACTION_GRACE_OVER',
      'account-deleted:accepted',
    ])
      expect(seen.get(key), key).toBeGreaterThan(5);
  });
});
