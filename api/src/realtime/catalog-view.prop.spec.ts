import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AuctionCommand, type PublicUser, asAuctionEvent } from '@auction/contracts';
import { type AuctionState, evolve, initialState } from '@auction/engine';
import { auctionDetail, catalogProjection } from '@auction/projections';
import { EventLog, projectionHarness } from '@auction/projections/testing';
import { timelineArbitrary } from '@auction/testkit';
import { auctionView } from './auction-view';

const numRuns = Number(process.env.FC_NUM_RUNS ?? 60);
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const AUCTION = 'auction-1';
const imageUrl = (path: string) => `https://img.example${path}`;

/**
 * The detail route answers from the catalog's read model; a watcher too far behind gets the
 * gateway's view, built from the engine's own fold of the stream. Whatever the history, both
 * must be the same auction, field for field, after every command.
 */
const catalogAgreesWithFold = async (timeline: readonly AuctionCommand[]): Promise<void> => {
  const log = new EventLog();
  const catalog = await projectionHarness([catalogProjection]);
  // The test directory knows nobody: both sides must name every user "Deleted user".
  const users = new Map<string, PublicUser>();
  let state: AuctionState = initialState;
  let revision = -1;
  let createdAt = '';
  const categories = new Set<string>();
  try {
    for (const [step, command] of timeline.entries()) {
      const before = log.events.length;
      if (command.type === 'CreateAuction' && !categories.has(command.data.categoryId)) {
        categories.add(command.data.categoryId);
        log.category(command.data.categoryId, 'Paintings');
      }
      try {
        log.send(command);
      } catch {
        // a refused command writes nothing
      }
      const written = log.events.slice(before);
      await catalog.given(written);
      for (const recorded of written) {
        const event = asAuctionEvent(recorded);
        if (event === undefined) continue;
        state = evolve(state, event);
        revision = recorded.revision;
        if (event.type === 'AuctionCreated') createdAt = event.data.at;
      }
      if (revision < 0) continue;
      expect(
        await auctionDetail(catalog.store, catalog.users, AUCTION, imageUrl),
        `step ${step}: ${command.type} ${JSON.stringify(command.data)}`,
      ).toEqual(
        auctionView(state, revision, { createdAt, categoryName: 'Paintings' }, users, imageUrl),
      );
    }
  } finally {
    await catalog.close();
  }
};

describe('the catalog’s view of an auction', () => {
  it('equals the view of the engine’s fold of its stream, whatever the history', async () => {
    await fc.assert(
      fc.asyncProperty(timelineArbitrary({ auctionId: AUCTION }), catalogAgreesWithFold),
      { numRuns, ...(seed === undefined ? {} : { seed }) },
    );
  }, 120_000);
});
