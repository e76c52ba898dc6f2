import { type AuctionSort, AuctionView, BidView, CategoryView } from '@auction/contracts';
import { z } from 'zod';
import { call } from './api-client';
import { allPages } from './paging';

const NextCursor = z.string().nullable();
const Auctions = z.object({ auctions: z.array(AuctionView), nextCursor: NextCursor });
const Empty = z.object({});

/** A page request: after the page whose `nextCursor` this is (the first page without). */
export interface PageQuery {
  readonly cursor?: string | undefined;
  readonly limit?: number;
}

/** The All Auctions filters and order, applied by the server over every auction. */
export interface AuctionFilters {
  readonly search?: string;
  readonly category?: string;
  /** Newest first when absent (the spec's order). */
  readonly sort?: AuctionSort;
}

const categoriesPage = (page: PageQuery) =>
  call(
    '/auction/getAllCategories',
    z.object({ categories: z.array(CategoryView), nextCursor: NextCursor }),
    { query: { ...page } },
  );

export const auctionsApi = {
  /** Live auctions, newest first or in `sort`'s order, a page at a time, filtered by the server. */
  all: (filters: AuctionFilters = {}, page: PageQuery = {}) =>
    call('/auction/fetchAllAuctions', Auctions, {
      query: {
        search: filters.search || undefined,
        category: filters.category || undefined,
        sort: filters.sort === 'newest' ? undefined : filters.sort,
        ...page,
      },
    }),
  featured: () => call('/auction/featured', z.object({ featured: z.array(AuctionView) })),
  detail: (auctionId: string) =>
    call('/auction/fetchSpecificAuction', z.object({ auctionDetails: AuctionView }), {
      query: { auctionId },
    }),
  /** An auction's standing bids after a view's `bidsNextCursor` (or a page's), a page at a time. */
  bids: (auctionId: string, page: PageQuery = {}) =>
    call('/auction/bids', z.object({ bids: z.array(BidView), nextCursor: NextCursor }), {
      query: { auctionId, ...page },
    }),
  /** The logged-in user's own auctions, newest first, a page at a time. */
  mine: (page: PageQuery = {}) => call('/auction/getAuctions', Auctions, { query: { ...page } }),
  create: (form: FormData) =>
    call('/auction/createAuction', z.object({ auction: AuctionView.nullable() }), {
      method: 'POST',
      form,
    }),
  edit: (auctionId: string, form: FormData) =>
    call(
      `/auction/editAuction/${encodeURIComponent(auctionId)}`,
      z.object({ auction: AuctionView.nullable() }),
      { method: 'PATCH', form },
    ),
  remove: (auctionId: string) =>
    call(`/auction/deleteAuction/${encodeURIComponent(auctionId)}`, Empty, { method: 'DELETE' }),
  /** Categories by name, a page at a time. */
  categories: (page: PageQuery = {}) => categoriesPage(page),
  /** Every category, page after page (for a picker or a filter that offers them all). */
  allCategories: () =>
    allPages(async (cursor) => {
      const { categories, nextCursor } = await categoriesPage({ cursor, limit: 100 });
      return { items: categories, nextCursor };
    }),
  createCategory: (name: string, description: string) =>
    call('/auction/createCategory', z.object({ category: CategoryView.nullable() }), {
      method: 'POST',
      json: { name, description },
    }),
};

const BidOutcome = z.object({ currentBid: z.number() });

/** What a bid or raise answers besides the current bid: whether it leads, and the bidder's own maximum. */
const ProxyOutcome = BidOutcome.extend({ leading: z.boolean(), maxBid: z.number() });

/** A new amount, a new secret maximum, or both. */
export interface BidChange {
  readonly bidAmount?: number | undefined;
  readonly maxBidAmount?: number | undefined;
}

export const bidsApi = {
  /** `maxBidAmount`: a secret maximum the server bids up to (second price), or none. */
  place: (productId: string, bidAmount: number, maxBidAmount?: number) =>
    call(
      '/bid/placeBid',
      ProxyOutcome.extend({
        newBid: BidView,
        revision: z.number().int(),
        auctionEndTime: z.string().optional(),
      }),
      {
        method: 'POST',
        json: { productId, bidAmount, maxBidAmount },
      },
    ),
  edit: (bidId: string, change: BidChange) =>
    call(
      `/bid/editBid/${encodeURIComponent(bidId)}`,
      ProxyOutcome.extend({ updatedBid: BidView }),
      {
        method: 'PUT',
        json: change,
      },
    ),
  /** Buys at the price on offer (`price`: as the buyer saw it; a changed price is refused). */
  buyNow: (productId: string, price: number) =>
    call(
      '/bid/buyNow',
      z.object({ auctionId: z.string(), finalPrice: z.number(), status: z.string() }),
      { method: 'POST', json: { productId, price } },
    ),
  remove: (bidId: string) =>
    call(`/bid/deleteBid/${encodeURIComponent(bidId)}`, BidOutcome, { method: 'DELETE' }),
};
