import {
  type AuctionSort,
  type AuctionView,
  BIDS_PAGE_SIZE,
  type BidView,
  type CategoryView,
  type PublicUser,
  RETRACTIONS_SHOWN,
  centsToDollars,
} from '@auction/contracts';
import { type ImageUrl, storedImagePath } from '../images';
import { type Page, type PageRequest, type PagedList, findPage } from '../paging';
import type { Condition, FindOptions, ReadStore } from '../read-store/read-store';
import type { UserDirectory } from '../users/user-directory';
import {
  type CatalogAuctionDoc,
  type CatalogBidDoc,
  type CatalogCategoryDoc,
  catalogAuctions,
  catalogBids,
  catalogCategories,
  catalogSummaryOf,
} from './catalog-projection';
import { type AuctionFacts, auctionView, usersOfAuction, viewerView } from './auction-view';
import { bidViewsPage, standingBidsPage } from './bid-pages';

/** Filters of the All Auctions page; empty strings filter nothing. */
export interface LiveAuctionFilters {
  /** Case-insensitive substring of the title. */
  readonly search?: string;
  /** Exact category name. */
  readonly category?: string;
  /** The order: newest first when absent. */
  readonly sort?: AuctionSort | undefined;
}

/**
 * Each order of the live list: the paged list its cursors belong to (a cursor of one order is
 * refused by another) and the fields it orders by, then `_id`. Live auctions have an index led by
 * `status` for each (`catalogAuctions`); a category filter narrows with its own index and sorts.
 */
const liveAuctionOrders = {
  newest: { list: 'auctions', orderBy: [{ field: 'createdAt', direction: 'desc' }] },
  'ending-soon': { list: 'auctionsEndingSoon', orderBy: [{ field: 'endsAt', direction: 'asc' }] },
  'price-low': { list: 'auctionsPriceLow', orderBy: [{ field: 'price', direction: 'asc' }] },
  'price-high': { list: 'auctionsPriceHigh', orderBy: [{ field: 'price', direction: 'desc' }] },
} as const satisfies Record<
  AuctionSort,
  { list: PagedList; orderBy: NonNullable<FindOptions['orderBy']> }
>;

/** The paged list (cursor kind) of the live list in `sort`'s order. */
export const liveAuctionsList = (sort: AuctionSort = 'newest'): PagedList =>
  liveAuctionOrders[sort].list;

const FEATURED_COUNT = 3;
const newestFirst: NonNullable<FindOptions['orderBy']> = [
  { field: 'createdAt', direction: 'desc' },
];

/** Lists carry the top few bids only, and no retractions (cards show neither; `bidCount` has the total). */
const LIST_BIDS = 3;

const bidFactsOf = (bid: CatalogBidDoc) => ({
  bidId: bid._id,
  auctionId: bid.auctionId,
  bidderId: bid.bidderId,
  amount: bid.amount,
  placedAt: bid.createdAt,
  automatic: bid.automatic,
});

/** The latest retracted bids, newest first (as many as a detail shows; none for a list). */
const latestRetracted = async (
  store: ReadStore,
  auctionId: string,
  limit: number,
): Promise<CatalogBidDoc[]> =>
  limit === 0
    ? []
    : ((await store.find(catalogBids.name, {
        where: { auctionId, retracted: true },
        orderBy: [{ field: 'updatedAt', direction: 'desc' }],
        limit,
      })) as CatalogBidDoc[]);

const factsOf = (
  auction: CatalogAuctionDoc,
  bids: readonly CatalogBidDoc[],
  bidsNextCursor: string | null,
  retracted: readonly CatalogBidDoc[],
): AuctionFacts => ({
  ...catalogSummaryOf(auction),
  auctionId: auction._id,
  categoryName: auction.categoryName,
  bids: bids.map(bidFactsOf),
  bidsNextCursor,
  bidCount: auction.bidCount,
  retractions: retracted.map((bid) => ({
    bidId: bid._id,
    bidderId: bid.bidderId,
    amount: bid.amount,
    placedAt: bid.createdAt,
    retractedAt: bid.updatedAt,
  })),
  createdAt: auction.createdAt,
  revision: auction.revision,
});

/** Joins the first page of bids and users onto auctions, with one user lookup for all of them. */
const toAuctionViews = async (
  store: ReadStore,
  users: UserDirectory,
  imageUrl: ImageUrl,
  auctions: readonly CatalogAuctionDoc[],
  bidsPerAuction: number,
  retractionsShown: number,
): Promise<AuctionView[]> => {
  const facts = await Promise.all(
    auctions.map(async (a) => {
      const { docs, nextCursor } = await standingBidsPage(store, a._id, { limit: bidsPerAuction });
      return factsOf(a, docs, nextCursor, await latestRetracted(store, a._id, retractionsShown));
    }),
  );
  const ids = new Set(facts.flatMap(usersOfAuction));
  const found = ids.size === 0 ? new Map<string, PublicUser>() : await users.lookup([...ids]);
  return facts.map((auction) => auctionView(auction, found, imageUrl));
};

const findAuctions = async (
  store: ReadStore,
  users: UserDirectory,
  imageUrl: ImageUrl,
  options: FindOptions,
): Promise<AuctionView[]> =>
  toAuctionViews(
    store,
    users,
    imageUrl,
    (await store.find(catalogAuctions.name, options)) as CatalogAuctionDoc[],
    LIST_BIDS,
    0,
  );

/** What only `viewerId` may see of an auction (`viewerView`), from their bids the catalog holds. */
const viewerOf = async (
  store: ReadStore,
  auction: CatalogAuctionDoc,
  viewerId: string,
): Promise<NonNullable<AuctionView['viewer']>> => {
  const mine = (await store.find(catalogBids.name, {
    where: { bidderId: viewerId, auctionId: auction._id },
  })) as CatalogBidDoc[];
  return viewerView(
    auction,
    viewerId,
    mine.map((bid) => ({ ...bid, bidId: bid._id })),
  );
};

/**
 * One auction with the first page of its standing bids (highest first; `bidsNextCursor` names
 * the rest, `auctionBidsPage`), its latest retractions, seller and winner; undefined if unknown.
 * With `viewerId`, also what only that signed-in user may see (`viewer`).
 */
export const auctionDetail = async (
  store: ReadStore,
  users: UserDirectory,
  auctionId: string,
  imageUrl: ImageUrl = storedImagePath,
  viewerId?: string,
  bidsPerPage = BIDS_PAGE_SIZE,
): Promise<AuctionView | undefined> => {
  const auction = (await store.get(catalogAuctions.name, auctionId)) as
    CatalogAuctionDoc | undefined;
  if (!auction) return undefined;
  const [view] = await toAuctionViews(
    store,
    users,
    imageUrl,
    [auction],
    bidsPerPage,
    RETRACTIONS_SHOWN,
  );
  if (view === undefined || viewerId === undefined) return view;
  return { ...view, viewer: await viewerOf(store, auction, viewerId) };
};

/**
 * A page of an auction's standing bids, highest first (each page shown in the views' order),
 * after the place a previous page's cursor (or a view's `bidsNextCursor`) names; undefined when
 * the auction is unknown. Bids as every view shows them: no maximum.
 */
export const auctionBidsPage = async (
  store: ReadStore,
  users: UserDirectory,
  auctionId: string,
  page: PageRequest = {},
): Promise<Page<BidView> | undefined> => {
  const auction = (await store.get(catalogAuctions.name, auctionId)) as
    CatalogAuctionDoc | undefined;
  if (!auction) return undefined;
  const { docs, nextCursor } = await standingBidsPage(store, auctionId, page);
  return bidViewsPage(docs.map(bidFactsOf), auction.leadingBidId, nextCursor, users);
};

/** Auctions by id as lists show them, in the order asked; ids the catalog does not know are left out. */
export const auctionsByIds = async (
  store: ReadStore,
  users: UserDirectory,
  auctionIds: readonly string[],
  imageUrl: ImageUrl = storedImagePath,
): Promise<AuctionView[]> => {
  const found = await store.getMany(catalogAuctions.name, auctionIds);
  const docs = auctionIds.flatMap((id) => {
    const doc = found.get(id) as CatalogAuctionDoc | undefined;
    return doc ? [doc] : [];
  });
  return toAuctionViews(store, users, imageUrl, docs, LIST_BIDS, 0);
};

/** Live auctions, newest first, filtered by title substring and exact category name. */
export const liveAuctions = (
  store: ReadStore,
  users: UserDirectory,
  filters: LiveAuctionFilters = {},
  imageUrl: ImageUrl = storedImagePath,
): Promise<AuctionView[]> => {
  const where: Record<string, Condition> = { status: 'Live' };
  if (filters.search) where.title = { contains: filters.search };
  if (filters.category) where.categoryName = filters.category;
  return findAuctions(store, users, imageUrl, { where, orderBy: newestFirst });
};

const auctionsPage = async (
  store: ReadStore,
  users: UserDirectory,
  imageUrl: ImageUrl,
  list: PagedList,
  where: Record<string, Condition>,
  page: PageRequest,
  orderBy: NonNullable<FindOptions['orderBy']> = newestFirst,
): Promise<Page<AuctionView>> => {
  const { docs, nextCursor } = await findPage(
    list,
    (options) => store.find(catalogAuctions.name, options) as Promise<CatalogAuctionDoc[]>,
    { where, orderBy },
    page,
  );
  const items = await toAuctionViews(store, users, imageUrl, docs, LIST_BIDS, 0);
  // A seller's own list: each auction carries the reserve only its seller may see.
  if (list === 'sellerAuctions')
    return {
      items: items.map((view, i) => ({ ...view, viewer: sellerViewer(docs[i]) })),
      nextCursor,
    };
  return { items, nextCursor };
};

/** What the seller alone sees of their auction (they bid on none of their own). */
const sellerViewer = (
  auction: CatalogAuctionDoc | undefined,
): NonNullable<AuctionView['viewer']> => ({
  bidId: null,
  maxBid: null,
  retractable: [],
  reservePrice:
    auction?.reservePrice === undefined || auction.reservePrice === null
      ? null
      : centsToDollars(auction.reservePrice),
});

/**
 * One page of the Live auctions in the filter's order (newest first unless `sort` says else; then
 * by id), filtered by title substring and exact category name in the store, over the whole set.
 * The page's cursor belongs to that order's list (`liveAuctionsList`).
 */
export const liveAuctionsPage = (
  store: ReadStore,
  users: UserDirectory,
  filters: LiveAuctionFilters = {},
  page: PageRequest = {},
  imageUrl: ImageUrl = storedImagePath,
): Promise<Page<AuctionView>> => {
  const where: Record<string, Condition> = { status: 'Live' };
  if (filters.search) where.title = { contains: filters.search };
  if (filters.category) where.categoryName = filters.category;
  const { list, orderBy } = liveAuctionOrders[filters.sort ?? 'newest'];
  return auctionsPage(store, users, imageUrl, list, where, page, orderBy);
};

/**
 * A seller's auctions as lists show them: Live, Sold and Expired. A cancelled (deleted) auction
 * stays on the record (its detail, the audit) but leaves the seller's lists.
 */
const sellerListed = (sellerId: string): Record<string, Condition> => ({
  sellerId,
  status: { in: ['Live', 'Sold', 'Expired'] },
});

/** One page of one seller's auctions (not the cancelled ones), newest first. */
export const sellerAuctionsPage = (
  store: ReadStore,
  users: UserDirectory,
  sellerId: string,
  page: PageRequest = {},
  imageUrl: ImageUrl = storedImagePath,
): Promise<Page<AuctionView>> =>
  auctionsPage(store, users, imageUrl, 'sellerAuctions', sellerListed(sellerId), page);

/** The most recently created Live auctions. */
export const featuredAuctions = (
  store: ReadStore,
  users: UserDirectory,
  imageUrl: ImageUrl = storedImagePath,
): Promise<AuctionView[]> =>
  findAuctions(store, users, imageUrl, {
    where: { status: 'Live' },
    orderBy: newestFirst,
    limit: FEATURED_COUNT,
  });

/** Every auction of one seller but the cancelled ones, newest first. */
export const sellerAuctions = (
  store: ReadStore,
  users: UserDirectory,
  sellerId: string,
  imageUrl: ImageUrl = storedImagePath,
): Promise<AuctionView[]> =>
  findAuctions(store, users, imageUrl, { where: sellerListed(sellerId), orderBy: newestFirst });

const categoryView = (c: CatalogCategoryDoc): CategoryView => ({
  _id: c._id,
  name: c.name,
  description: c.description,
});

/** One category, or undefined if unknown. */
export const categoryById = async (
  store: ReadStore,
  categoryId: string,
): Promise<CategoryView | undefined> => {
  const category = (await store.get(catalogCategories.name, categoryId)) as
    CatalogCategoryDoc | undefined;
  return category && categoryView(category);
};

/** Categories a page at a time, by name (default 50 a page). */
export const categoriesPage = async (
  store: ReadStore,
  { limit = 50, after }: PageRequest = {},
): Promise<Page<CategoryView>> => {
  const { docs, nextCursor } = await findPage(
    'categories',
    (options) => store.find(catalogCategories.name, options) as Promise<CatalogCategoryDoc[]>,
    { orderBy: [{ field: 'name', direction: 'asc' }] },
    { limit, ...(after ? { after } : {}) },
  );
  return { items: docs.map(categoryView), nextCursor };
};

/** Every category, by name. */
export const listCategories = async (store: ReadStore): Promise<CategoryView[]> => {
  const categories = (await store.find(catalogCategories.name, {
    orderBy: [{ field: 'name', direction: 'asc' }],
  })) as CatalogCategoryDoc[];
  return categories.map((c) => ({ _id: c._id, name: c.name, description: c.description }));
};
