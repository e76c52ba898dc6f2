import {
  BIDS_PAGE_SIZE,
  type BidFacts,
  type BidView,
  MAX_PAGE_SIZE,
  type PublicUser,
  bidView,
  deletedUser,
  standingOrder,
} from '@auction/contracts';
import { type PageRequest, encodeCursor, findPage } from '../paging';
import type { FindOptions, ReadStore } from '../read-store/read-store';
import type { UserDirectory } from '../users/user-directory';
import { compareBy, isAfter, placeOf } from '../read-store/query-semantics';
import { type CatalogBidDoc, catalogBids } from './catalog-projection';

/**
 * The order an auction's standing bids page in: highest first, then the earlier placed, then by
 * id. A view shows each page in `standingOrder`, which differs only in putting the leader first
 * among equal amounts; at most two bids share the top amount (a bid that ties a maximum), so any
 * page of two or more that starts the list holds the leader.
 */
export const bidPageOrder: NonNullable<FindOptions['orderBy']> = [
  { field: 'amount', direction: 'desc' },
  { field: 'createdAt', direction: 'asc' },
];

/**
 * A page of an auction's standing bids as views, in `standingOrder` (the leader first among equal
 * amounts), each named by its bidder: the catalog's bid pages and the engine's (at start-up).
 */
export const bidViewsPage = async (
  bids: readonly BidFacts[],
  leadingBidId: string | null,
  nextCursor: string | null,
  users: UserDirectory,
): Promise<{ items: BidView[]; nextCursor: string | null }> => {
  const ids = [...new Set(bids.map((bid) => bid.bidderId))];
  const found = ids.length === 0 ? new Map<string, PublicUser>() : await users.lookup(ids);
  const ranked = standingOrder(bids, leadingBidId, (bid) => ({
    id: bid.bidId,
    amount: bid.amount,
    placedAt: bid.placedAt,
  }));
  return {
    items: ranked.map((bid) => bidView(bid, found.get(bid.bidderId) ?? deletedUser(bid.bidderId))),
    nextCursor,
  };
};

/** A page of an auction's standing bids as the catalog keeps them, with the next page's cursor. */
export const standingBidsPage = (
  store: ReadStore,
  auctionId: string,
  page: PageRequest = {},
): Promise<{ readonly docs: CatalogBidDoc[]; readonly nextCursor: string | null }> =>
  findPage(
    'bids',
    (options) => store.find(catalogBids.name, options) as Promise<CatalogBidDoc[]>,
    { where: { auctionId, retracted: false }, orderBy: bidPageOrder },
    { limit: BIDS_PAGE_SIZE, ...page },
  );

/**
 * A page of standing bids held in memory (the engine's fold, for the realtime state): the same
 * bids and the very cursor the catalog's page at that place gives, so the rest pages from there.
 */
export const bidsPageOf = (
  bids: readonly BidFacts[],
  { limit = BIDS_PAGE_SIZE, after }: PageRequest = {},
): { readonly bids: BidFacts[]; readonly nextCursor: string | null } => {
  const size = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(limit)));
  const ranked = bids
    .map((bid) => ({
      _id: bid.bidId,
      _position: 0,
      amount: bid.amount,
      createdAt: bid.placedAt,
      bid,
    }))
    .filter((doc) => isAfter(doc, bidPageOrder, after))
    .sort(compareBy(bidPageOrder));
  const page = ranked.slice(0, size);
  const last = page.at(-1);
  return {
    bids: page.map(({ bid }) => bid),
    nextCursor:
      ranked.length > size && last ? encodeCursor('bids', placeOf(last, bidPageOrder)) : null,
  };
};
