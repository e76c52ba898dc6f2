import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AuctionCommand,
  type BidView,
  type PublicUser,
  asAuctionEvent,
  bidView,
  deletedUser,
  standingOrder,
  summaryOf,
} from '@auction/contracts';
import { type AuctionState, evolve, initialState } from '@auction/engine';
import {
  type ReadStore,
  type UserDirectory,
  auctionBidsPage,
  auctionDetail,
  catalogAuctions,
  catalogProjection,
  decodeCursor,
} from '@auction/projections';
import { EventLog, projectionHarness } from '@auction/projections/testing';
import { timelineArbitrary } from '@auction/testkit';
import { auctionView } from './auction-view';

const numRuns = Number(process.env.FC_NUM_RUNS ?? 60);
const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const AUCTION = 'auction-1';
const imageUrl = (path: string) => `https://img.example${path}`;
/** A first page this small leaves most histories' bids on later pages. */
const PAGE = 2;

/** Every standing bid of the engine's fold, in the order views list them. */
const everyBid = (state: AuctionState): BidView[] =>
  standingOrder(
    [...state.bids.values()].filter((bid) => !bid.retracted),
    state.leadingBidId,
    (bid) => ({ id: bid.bidId, amount: bid.amount, placedAt: bid.placedAt }),
  ).map((bid) => bidView({ ...bid, auctionId: AUCTION }, deletedUser(bid.bidderId)));

/** The catalog's pages of bids (`GET /auction/bids`) from `cursor` on, `limit` a page. */
const catalogPagesFrom = async (
  store: ReadStore,
  users: UserDirectory,
  cursor: string | null,
  limit: number,
): Promise<BidView[]> => {
  const bids: BidView[] = [];
  for (let next = cursor; next !== null;) {
    const after = decodeCursor('bids', next);
    expect(after, next).toBeDefined();
    const page = await auctionBidsPage(store, users, AUCTION, {
      limit,
      ...(after ? { after } : {}),
    });
    expect(page?.items.length).toBeLessThanOrEqual(limit);
    bids.push(...(page?.items ?? []));
    next = page?.nextCursor ?? null;
  }
  return bids;
};

/**
 * The detail route answers from the catalog's read model; a watcher too far behind gets the
 * gateway's view, built from the engine's own fold of the stream. Whatever the history, both
 * must be the same auction, field for field (the first page of bids and its cursor included),
 * after every command; and the catalog's pages after the gateway's cursor must hold every other
 * standing bid once, in order.
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
      const where = `step ${step}: ${command.type} ${JSON.stringify(command.data)}`;
      const extras = { createdAt, categoryName: 'Paintings' };
      const folded = auctionView(state, revision, extras, users, imageUrl, PAGE);
      expect(
        await auctionDetail(catalog.store, catalog.users, AUCTION, imageUrl, undefined, PAGE),
        where,
      ).toEqual(folded);
      expect(await auctionDetail(catalog.store, catalog.users, AUCTION, imageUrl), where).toEqual(
        auctionView(state, revision, extras, users, imageUrl),
      );
      // Every summary field, shown or not: one the fold sets must reach both alike.
      const doc = await catalog.store.get(catalogAuctions.name, AUCTION);
      expect(summaryOf(doc ?? {}, {}), where).toEqual(summaryOf(state, {}));
      const rest = await catalogPagesFrom(catalog.store, catalog.users, folded.bidsNextCursor, 1);
      expect([...folded.bids, ...rest], where).toEqual(everyBid(state));
    }
  } finally {
    await catalog.close();
  }
};

describe('the catalog’s view of an auction', () => {
  it('equals the view of the engine’s fold of its stream, whatever the history', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Long histories too, so that bids go past the first page.
        fc.oneof(
          timelineArbitrary({ auctionId: AUCTION }),
          timelineArbitrary({ auctionId: AUCTION, minLength: 20, maxLength: 60 }),
        ),
        catalogAgreesWithFold,
      ),
      { numRuns, ...(seed === undefined ? {} : { seed }) },
    );
  }, 120_000);
});
