import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AuctionCommand,
  type AuctionView,
  type PublicUser,
  applyAuctionEvent,
} from '@auction/contracts';
import { decide, evolve, initialState } from '@auction/engine';
import { timelineArbitrary } from '@auction/testkit';
import { isBroadcast, socketPayload } from './auction-events';
import { auctionView } from './auction-view';

const numRuns = Number(process.env.FC_NUM_RUNS ?? 200);
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

/** Every user id reads as a named user, so a bid joined to the wrong bidder shows. */
class Everyone extends Map<string, PublicUser> {
  override get(id: string): PublicUser {
    return { _id: id, firstName: `First ${id}`, lastName: `Last ${id}`, image: null };
  }
}
const users = new Everyone();
const extras = { createdAt: '2026-01-01T00:00:00.000Z', categoryName: 'Art' };
const imageUrl = (path: string) => `https://img.example${path}`;

/**
 * A watcher fetches the auction once, right after it is created, and then applies each event the
 * room broadcasts, as the browser does. At every revision its copy must be the view the server
 * would answer from the same fold: the realtime payloads and the client's fold are one contract.
 */
const watcherKeepsUp = (timeline: readonly AuctionCommand[]): void => {
  let state = initialState;
  let revision = -1;
  let watched: AuctionView | null = null;
  timeline.forEach((command, step) => {
    const decision = decide(command, state);
    if (!decision.ok) return;
    for (const event of decision.events) {
      state = evolve(state, event);
      revision += 1;
      const served = auctionView(state, revision, extras, users, imageUrl);
      if (watched === null || !isBroadcast(event)) {
        watched = served;
        continue;
      }
      watched = applyAuctionEvent(watched, socketPayload(event, revision, state, users, imageUrl));
      expect(watched, `step ${step}: ${event.type} ${JSON.stringify(event.data)}`).toEqual(served);
    }
  });
};

describe('the watcher’s fold of the room’s events', () => {
  it('equals the server’s view of the auction at every revision', () => {
    fc.assert(fc.property(timelineArbitrary(), watcherKeepsUp), {
      numRuns,
      ...(seed === undefined ? {} : { seed }),
    });
  }, 120_000);
});
