import { Id, MAX_CENTS, formatCents, hasAtMostTwoDecimals } from '@auction/contracts';
import { z } from 'zod';

const AMOUNT_REQUIRED = 'Valid bid amount is required';

/** An id whose every problem names it (`parseInput` reads any zod type error as "is required"). */
export const idField = (field: string) =>
  z.unknown().transform((value, ctx): string => {
    const message =
      value === undefined
        ? `${field} is required`
        : typeof value !== 'string'
          ? `${field} must be a string`
          : Id.safeParse(value).success
            ? undefined
            : `Invalid ${field}`;
    if (message === undefined) return value as string;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

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
