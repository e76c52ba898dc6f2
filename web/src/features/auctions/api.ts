import { AuctionView, BidView, CategoryView } from '@auction/contracts';
import { z } from 'zod';
import { call } from '../../lib/api-client';

const Auctions = z.object({ auctions: z.array(AuctionView) });
const Empty = z.object({});

export const auctionsApi = {
  /** Live auctions, newest first. */
  all: () => call('/auction/fetchAllAuctions', Auctions),
  featured: () => call('/auction/featured', z.object({ featured: z.array(AuctionView) })),
  detail: (auctionId: string) =>
    call('/auction/fetchSpecificAuction', z.object({ auctionDetails: AuctionView }), {
      query: { auctionId },
    }),
  /** The logged-in user's own auctions. */
  mine: () => call('/auction/getAuctions', Auctions),
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
  categories: () =>
    call('/auction/getAllCategories', z.object({ categories: z.array(CategoryView) })),
  createCategory: (name: string, description: string) =>
    call('/auction/createCategory', z.object({ category: CategoryView.nullable() }), {
      method: 'POST',
      json: { name, description },
    }),
};

const BidOutcome = z.object({ currentBid: z.number() });

export const bidsApi = {
  place: (productId: string, bidAmount: number) =>
    call('/bid/placeBid', BidOutcome.extend({ newBid: BidView, revision: z.number().int() }), {
      method: 'POST',
      json: { productId, bidAmount },
    }),
  edit: (bidId: string, bidAmount: number) =>
    call(`/bid/editBid/${encodeURIComponent(bidId)}`, BidOutcome.extend({ updatedBid: BidView }), {
      method: 'PUT',
      json: { bidAmount },
    }),
  remove: (bidId: string) =>
    call(`/bid/deleteBid/${encodeURIComponent(bidId)}`, BidOutcome, { method: 'DELETE' }),
};
