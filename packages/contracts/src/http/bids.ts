import { z } from 'zod';
import { MAX_CENTS, formatCents, hasAtMostTwoDecimals } from '../money';
import { idField } from './input';
import { operationTable } from './operation';
import { BidView } from './views';

export const AMOUNT_REQUIRED = 'Valid bid amount is required';

/**
 * Dollars as a JSON number: at least `min`, at most two decimals and $1,000,000,000, each problem
 * named with `label` (`invalid`: the message for anything that is not such a number).
 */
const dollars = (label: string, invalid: string, min = 1) =>
  z
    .custom<number>(
      (value) => typeof value === 'number' && Number.isFinite(value) && value >= min,
      invalid,
    )
    .pipe(
      z
        .number()
        .refine(hasAtMostTwoDecimals, `${label} may have at most two decimals`)
        .refine(
          (value) => value <= MAX_CENTS / 100,
          `${label} may be at most ${formatCents(MAX_CENTS)}`,
        ),
    );

/** Dollars, at least 1, with at most two decimals (spec §5 "Place and edit bid"). */
export const BidAmount = dollars('Bid amount', AMOUNT_REQUIRED);

/** A secret maximum (proxy bid), in dollars as bids are; absent or null: none. */
const MaxBidAmount = z.preprocess(
  (value) => (value === null ? undefined : value),
  dollars('Maximum bid', 'Maximum bid must be a number of at least $1').optional(),
);

export const PlaceBidBody = z.object({
  productId: idField('productId'),
  bidAmount: BidAmount,
  maxBidAmount: MaxBidAmount,
});

/** A new amount, a new maximum, or both. */
export const EditBidBody = z
  .object({ bidAmount: BidAmount.optional(), maxBidAmount: MaxBidAmount })
  .refine((body) => body.bidAmount !== undefined || body.maxBidAmount !== undefined, {
    message: AMOUNT_REQUIRED,
    path: ['bidAmount'],
  });

/** Buy It Now: the price the buyer saw, so a changed price is refused rather than paid. */
export const BuyNowBody = z.object({
  productId: idField('productId'),
  price: dollars('Price', 'Valid price is required', 0),
});
export const BidParams = z.object({ bidId: idField('bidId') });

/** `/api/v1/bid/...`: bids, proxy maxima and Buy It Now (spec §7). */
export const bidOperations = operationTable({
  placeBid: {
    method: 'post',
    path: '/bid/placeBid',
    summary: 'Bid on an auction',
    auth: 'user',
    body: PlaceBidBody,
    ok: 201,
    payload: {
      newBid: BidView,
      currentBid: z.number(),
      revision: z.number().int().describe("The bid's own stream revision"),
      leading: z.boolean().describe("Whether it leads once other bidders' maxima answered it"),
      maxBid: z.number().describe("The bidder's own maximum (the amount when none was given)"),
      auctionEndTime: z
        .string()
        .optional()
        .describe("The auction's new end, when the bid landed in its soft-close window"),
    },
  },
  editBid: {
    method: 'put',
    path: '/bid/editBid/{bidId}',
    summary: 'Raise an own bid, its secret maximum, or both',
    auth: 'user',
    params: BidParams,
    body: EditBidBody,
    ok: 200,
    payload: {
      updatedBid: BidView,
      currentBid: z.number(),
      leading: z.boolean(),
      maxBid: z.number(),
    },
  },
  buyNow: {
    method: 'post',
    path: '/bid/buyNow',
    summary: 'Buy at the Buy It Now price, ending the auction at once',
    auth: 'user',
    body: BuyNowBody,
    ok: 201,
    payload: { auctionId: z.string(), finalPrice: z.number(), status: z.string() },
  },
  retractBid: {
    method: 'delete',
    path: '/bid/deleteBid/{bidId}',
    summary: 'Retract an own bid',
    auth: 'user',
    params: BidParams,
    ok: 200,
    payload: { currentBid: z.number() },
  },
});
