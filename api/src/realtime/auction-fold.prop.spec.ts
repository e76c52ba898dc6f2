import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AuctionCommand,
  type AuctionView,
  type BidView,
  type PublicUser,
  applyAuctionEvent,
  bidView,
  sortBids,
  withBidsPage,
} from '@auction/contracts';
import { type AuctionState, evolve, initialState } from '@auction/engine';
import { decide } from '@auction/engine/testing';
import { bidsPageOf, decodeCursor } from '@auction/projections';
import { timelineArbitrary } from '@auction/testkit';
import { bidCountAfter, isBroadcast, socketPayload } from './auction-events';
import { auctionView } from './auction-view';

const numRuns = Number(process.env.FC_NUM_RUNS ?? 200);
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

/** A first page this small leaves most histories' bids on later pages. */
const PAGE = 2;

/** Every user id reads as a named user, so a bid joined to the wrong bidder shows. */
class Everyone extends Map<string, PublicUser> {
  override get(id: string): PublicUser {
    return { _id: id, firstName: `First ${id}`, lastName: `Last ${id}`, image: null };
  }
}
const users = new Everyone();
const extras = { createdAt: '2026-01-01T00:00:00.000Z', categoryName: 'Art' };
const imageUrl = (path: string) => `https://img.example${path}`;

const standing = (state: AuctionState) =>
  [...state.bids.values()]
    .filter((bid) => !bid.retracted)
    .map((bid) => ({ ...bid, auctionId: state.auctionId ?? '' }));

/** What `GET /auction/bids` answers at this state after `cursor` (the catalog pages alike). */
const pageAfter = (state: AuctionState, cursor: string) => {
  const after = decodeCursor('bids', cursor);
  expect(after, cursor).toBeDefined();
  const { bids, nextCursor } = bidsPageOf(standing(state), { limit: PAGE, after });
  const views = bids.map((bid) => bidView(bid, users.get(bid.bidderId)));
  return { bids: sortBids(views, state.leadingBidId), nextCursor };
};

/** Every standing bid of the state, in the order views list them. */
const everyBid = (state: AuctionState): BidView[] =>
  sortBids(
    standing(state).map((bid) => bidView(bid, users.get(bid.bidderId))),
    state.leadingBidId,
  );

const withoutBids = ({ bids: _bids, bidsNextCursor: _cursor, ...rest }: AuctionView) => rest;

/**
 * A watcher fetches the auction at some revision (a first page of its bids), then applies each
 * event the room broadcasts and now and then loads the next page, as the browser does. At every
 * revision its copy must be the view the server would answer but for the bids: each bid it holds
 * is the server's, and with the pages after its cursor it has every standing bid once, in order.
 */
const watcherKeepsUp = (
  timeline: readonly AuctionCommand[],
  joinAt: number,
  loads: fc.Stream<boolean>,
): void => {
  let state = initialState;
  let revision = -1;
  let bidCount = 0;
  let watched: AuctionView | null = null;
  timeline.forEach((command, step) => {
    const decision = decide(command, state);
    if (!decision.ok) return;
    for (const event of decision.events) {
      // Counted as the gateway counts: from the count and the state before the event.
      bidCount = bidCountAfter(bidCount, event, state);
      state = evolve(state, event);
      revision += 1;
      const served = auctionView(state, revision, extras, users, imageUrl, PAGE);
      if (watched === null || !isBroadcast(event)) {
        if (revision >= joinAt || watched !== null) watched = served;
        continue;
      }
      const where = `step ${step}: ${event.type} ${JSON.stringify(event.data)}`;
      const payload = socketPayload(event, revision, state, users, imageUrl, bidCount);
      watched = applyAuctionEvent(watched, payload);
      const cursor = watched.bidsNextCursor;
      if (cursor !== null && loads.next().value)
        watched = withBidsPage(watched, pageAfter(state, cursor));

      expect(withoutBids(watched), where).toEqual(withoutBids(served));
      const all = everyBid(state);
      const server = new Map(all.map((bid) => [bid._id, bid]));
      for (const bid of watched.bids) expect(bid, where).toEqual(server.get(bid._id));
      let complete = watched;
      for (let next = complete.bidsNextCursor; next !== null; next = complete.bidsNextCursor)
        complete = withBidsPage(complete, pageAfter(state, next));
      expect(complete.bids, where).toEqual(all);
      expect(all.slice(0, PAGE), where).toEqual(served.bids);
    }
  });
};

describe('the watcher’s fold of the room’s events', () => {
  it('equals the server’s view of the auction at every revision, its bids with the pages after it', () => {
    fc.assert(
      fc.property(
        // Long histories too, so that bids go past the first page.
        fc.oneof(timelineArbitrary(), timelineArbitrary({ minLength: 20, maxLength: 60 })),
        fc.nat({ max: 12 }),
        fc.infiniteStream(fc.boolean()),
        watcherKeepsUp,
      ),
      { numRuns, ...(seed === undefined ? {} : { seed }) },
    );
  }, 120_000);
});
