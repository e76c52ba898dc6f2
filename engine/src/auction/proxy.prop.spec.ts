import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { minimumRaise } from '@auction/contracts';
import type { AuctionCommand, AuctionEvent, IncrementRule } from '@auction/contracts';
import { timelineArbitrary } from '@auction/testkit';
import { decide } from './decide';
import { evolve } from './evolve';
import { initialState } from './state';
import type { AuctionState } from './decider-types';

const numRuns = Number(process.env.FC_NUM_RUNS ?? 300);
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

interface Sale {
  /** The increment rule the timeline's CreateAuction asked for (none: the spec's dollar). */
  readonly rule: IncrementRule;
  /** The state just before the close. */
  readonly before: AuctionState;
  readonly event: Extract<AuctionEvent, { type: 'AuctionClosed' }> | null;
  /** The highest amount each bid's bidder entered themselves (automatic bids not counted). */
  readonly entered: ReadonlyMap<string, number>;
  /** Whether a bid was retracted or the reserve lowered (prices never fall back with them). */
  readonly pricesFell: boolean;
  /** Automatic bids that went above their bidder's maximum. */
  readonly overMaximum: readonly string[];
}

/** Runs a timeline through the decider up to its close, if it has one. */
const closeOf = (timeline: readonly AuctionCommand[]): Sale => {
  let state = initialState;
  const entered = new Map<string, number>();
  let pricesFell = false;
  const overMaximum: string[] = [];
  const [opening] = timeline;
  const rule =
    (opening?.type === 'CreateAuction' ? opening.data.increments : undefined) ?? 'one-dollar';
  for (const command of timeline) {
    const decision = decide(command, state);
    if (!decision.ok) continue;
    for (const event of decision.events) {
      if (event.type === 'AuctionClosed')
        return { rule, before: state, event, entered, pricesFell, overMaximum };
      if (event.type === 'AutomaticBidPlaced') {
        const bid = state.bids.get(event.data.bidId);
        if (bid === undefined || event.data.amount > bid.maxAmount)
          overMaximum.push(`${event.data.bidId} at ${event.data.amount}`);
      }
      if (event.type === 'BidPlaced' || event.type === 'BidEdited')
        entered.set(event.data.bidId, event.data.amount);
      if (event.type === 'BidRetracted') pricesFell = true;
      if (event.type === 'AuctionEdited' && event.data.reservePrice !== undefined)
        pricesFell = true;
      state = evolve(state, event);
    }
  }
  return { rule, before: state, event: null, entered, pricesFell, overMaximum };
};

const standing = (state: AuctionState) => [...state.bids.values()].filter((b) => !b.retracted);

/** One step of `rule` above a maximum, written out here rather than read from the code under test. */
const stepAbove = (maximum: number, rule: IncrementRule): number =>
  rule === 'one-dollar' ? maximum + 100 : minimumRaise(maximum, 'table');

/** Whether a sale's price is the one the second-price rule gave it (rather than a bid or the reserve). */
const setBySecondPrice = (sale: Sale): boolean => {
  if (sale.event?.data.outcome !== 'Sold' || sale.event.data.boughtNow || sale.pricesFell)
    return false;
  const winner = sale.before.bids.get(sale.event.data.winningBidId);
  const others = standing(sale.before).filter((b) => b.bidId !== winner?.bidId);
  if (winner === undefined || others.length === 0) return false;
  const second = Math.max(...others.map((b) => b.maxAmount));
  const secondPrice = stepAbove(second, sale.rule);
  return secondPrice < winner.maxAmount && sale.event.data.finalPrice === secondPrice;
};

describe('proxy bidding', () => {
  it(
    'no automatic bid goes above its maximum; the winner never pays more than theirs, nor under the reserve',
    () => {
      fc.assert(
        fc.property(timelineArbitrary(), (timeline) => {
          const sale = closeOf(timeline);
          expect(sale.overMaximum).toEqual([]);
          if (sale.event?.data.outcome !== 'Sold') return;
          const { data } = sale.event;
          const winning = sale.before.bids.get(data.winningBidId);
          if (data.boughtNow) {
            expect(data.finalPrice).toBe(sale.before.buyNowPrice);
            return;
          }
          expect(winning?.bidderId).toBe(data.winnerId);
          expect(data.finalPrice).toBeLessThanOrEqual(winning?.maxAmount ?? -1);
          if (sale.before.reservePrice !== null)
            expect(data.finalPrice).toBeGreaterThanOrEqual(sale.before.reservePrice);
        }),
        { numRuns, seed },
      );
    },
    Math.max(60_000, numRuns * 20),
  );

  it(
    "the winner pays the second-highest maximum plus one step of the auction's rule, capped at their own maximum",
    () => {
      fc.assert(
        fc.property(timelineArbitrary(), (timeline) => {
          const sale = closeOf(timeline);
          if (sale.event?.data.outcome !== 'Sold' || sale.event.data.boughtNow) return;
          const { data } = sale.event;
          const winner = sale.before.bids.get(data.winningBidId);
          if (winner === undefined) throw new Error(`no winning bid ${data.winningBidId}`);
          const others = standing(sale.before).filter((b) => b.bidId !== winner.bidId);
          // Nobody else's maximum beats the winner's (on a tie, the winner's was set first).
          for (const other of others) {
            expect(other.maxAmount).toBeLessThanOrEqual(winner.maxAmount);
            if (other.maxAmount === winner.maxAmount)
              expect(winner.maxSeq).toBeLessThan(other.maxSeq);
          }
          if (sale.pricesFell) return;
          const second = Math.max(0, ...others.map((b) => b.maxAmount));
          const secondPrice =
            others.length === 0 ? 0 : Math.min(winner.maxAmount, stepAbove(second, sale.rule));
          const reserve = sale.before.reservePrice;
          const reserveLift = reserve !== null && winner.maxAmount >= reserve ? reserve : 0;
          const ownBid = sale.entered.get(winner.bidId) ?? 0;
          expect(data.finalPrice).toBe(Math.max(ownBid, secondPrice, reserveLift));
        }),
        { numRuns, seed },
      );
    },
    Math.max(60_000, numRuns * 20),
  );

  it('sees sales priced by the second-price rule under each increment rule', () => {
    const sales = fc
      .sample(timelineArbitrary(), { numRuns: 400, seed: 20_300_103 })
      .map(closeOf)
      .filter(setBySecondPrice);
    for (const rule of ['one-dollar', 'table'] as const)
      expect(sales.filter((sale) => sale.rule === rule).length, rule).toBeGreaterThan(0);
  });
});
