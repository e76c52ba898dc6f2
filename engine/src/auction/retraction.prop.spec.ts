import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AuctionCommand } from '@auction/contracts';
import { timelineArbitrary } from '@auction/testkit';
import { decide } from './decide';
import { evolve } from './evolve';
import { initialState } from './state';

const numRuns = Number(process.env.FC_NUM_RUNS ?? 300);
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

/**
 * What a timeline's decisions showed each bidder, read from the events each decision appended
 * (not from the decider's own state), and the retractions bidders got away with despite it.
 */
const escapes = (timeline: readonly AuctionCommand[]): string[] => {
  let state = initialState;
  /** Bids whose price an automatic bid set: it answered a rival's maximum or the reserve. */
  const raised = new Set<string>();
  /** Bids whose own event, or whose automatic bid, moved the end. */
  const extended = new Set<string>();
  /** Bidders another bidder's automatic bid answered at once, in the same decision. */
  const answered = new Set<string>();
  const retractedBy = new Set<string>();
  const found: string[] = [];
  for (const command of timeline) {
    const decision = decide(command, state);
    if (!decision.ok) continue;
    const entered = command.type === 'PlaceBid' || command.type === 'EditBid';
    const actor = command.metadata.actorId;
    for (const event of decision.events) {
      if (event.type === 'AutomaticBidPlaced') {
        raised.add(event.data.bidId);
        if (entered && event.data.bidderId !== actor) answered.add(actor);
      }
      if (
        (event.type === 'BidPlaced' ||
          event.type === 'BidEdited' ||
          event.type === 'AutomaticBidPlaced') &&
        event.data.endsAt !== undefined
      )
        extended.add(event.data.bidId);
      if (event.type === 'BidRetracted' && event.data.reason === undefined) {
        const { bidId, bidderId } = event.data;
        const at = `${bidId} by ${bidderId} at ${event.data.at}`;
        if (raised.has(bidId)) found.push(`${at}: its price answered a maximum or the reserve`);
        if (extended.has(bidId)) found.push(`${at}: it moved the end`);
        if (answered.has(bidderId)) found.push(`${at}: a maximum had answered them at once`);
        if (retractedBy.has(bidderId)) found.push(`${at}: their second retraction`);
        retractedBy.add(bidderId);
      }
      state = evolve(state, event);
    }
  }
  return found;
};

describe('retractions', () => {
  it(
    'never let a bidder escape a price that answered a maximum or the reserve, undo an extension, or retract twice',
    () => {
      fc.assert(
        fc.property(timelineArbitrary(), (timeline) => {
          expect(escapes(timeline)).toEqual([]);
        }),
        { numRuns, seed },
      );
    },
    Math.max(60_000, numRuns * 20),
  );
});
