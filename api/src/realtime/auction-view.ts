import { type AuctionView, BIDS_PAGE_SIZE, type PublicUser, summaryOf } from '@auction/contracts';
import type { AuctionState } from '@auction/engine';
import {
  type AuctionFacts,
  type ImageUrl,
  auctionView as viewOf,
  bidsPageOf,
  storedImagePath,
  usersOfAuction,
} from '@auction/projections';

/** What the view shows that the decider's state does not keep. */
export interface AuctionExtras {
  /** The business time of `AuctionCreated`. */
  readonly createdAt: string;
  /** The category's name ('' while unknown, as in the catalog). */
  readonly categoryName: string;
}

/**
 * The engine's state at `revision` as the facts the one view builder reads: the first page of its
 * standing bids, with the cursor the catalog pages the rest from.
 */
const factsOf = (
  state: AuctionState,
  revision: number,
  extras: AuctionExtras,
  bidsPerPage = BIDS_PAGE_SIZE,
): AuctionFacts => {
  const auctionId = state.auctionId ?? '';
  const all = [...state.bids.values()];
  const standing = all.filter((bid) => !bid.retracted).map((bid) => ({ ...bid, auctionId }));
  const { bids, nextCursor } = bidsPageOf(standing, { limit: bidsPerPage });
  const retractions = all.flatMap((bid) =>
    bid.retractedAt === null ? [] : [{ ...bid, retractedAt: bid.retractedAt }],
  );
  return {
    ...summaryOf(state, {}),
    // The gateway folds created auctions only: the fields set at creation hold values.
    auctionId,
    sellerId: state.sellerId ?? '',
    categoryId: state.categoryId ?? '',
    endsAt: state.endsAt ?? '',
    status: state.status === 'None' ? 'Live' : state.status,
    categoryName: extras.categoryName,
    bids,
    bidsNextCursor: nextCursor,
    bidCount: standing.length,
    retractions,
    createdAt: extras.createdAt,
    revision,
  };
};

/** The users an auction's view names: seller, winner, the bidders of its first page and of the latest retractions. */
export const usersOfView = (state: AuctionState): string[] =>
  usersOfAuction(factsOf(state, 0, { createdAt: '', categoryName: '' })).filter((id) => id !== '');

/**
 * The auction at `revision` as the detail route shows it (`auctionDetail` in the catalog), built
 * from the gateway's fold of the stream, so it stands exactly at that revision; `bidsPerPage` of
 * its standing bids, the rest named by `bidsNextCursor`.
 */
export const auctionView = (
  state: AuctionState,
  revision: number,
  extras: AuctionExtras,
  users: ReadonlyMap<string, PublicUser>,
  imageUrl: ImageUrl = storedImagePath,
  bidsPerPage = BIDS_PAGE_SIZE,
): AuctionView => viewOf(factsOf(state, revision, extras, bidsPerPage), users, imageUrl);
