import {
  Dollars,
  Id,
  IsoTime,
  MAX_CENTS,
  type TextKind,
  dollarsToCents,
  hasAtMostTwoDecimals,
  toIsoTime,
  visibleText,
} from '@auction/contracts';
import { z } from 'zod';

const missing = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

// Custom issues, not invalid_type, which parseInput would reword as '<key> is required'.
const present = <T>(isKind: (value: unknown) => value is T, required: string, wrongKind: string) =>
  z.custom<T>((value) => !missing(value) && isKind(value), {
    error: (issue) => (missing(issue.input) ? required : wrongKind),
  });

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * Text a person typed: normalised (NFKC), trimmed, refused when it holds invisible or control
 * characters its kind may not hold (`visibleText`). `kind: null` for an id given as text.
 */
const text = (
  label: string,
  max: number,
  required = `${label} is required`,
  kind: TextKind | null = 'line',
) =>
  present(isString, required, `${label} must be text`).pipe(
    (kind === null ? z.string().trim() : visibleText(label, kind))
      .min(1, required)
      .max(max, `${label} must be at most ${max} characters`),
  );

const optionalText = (label: string, max: number) =>
  z
    .custom<string>(isString, { error: `${label} must be text` })
    .pipe(z.string().trim().max(max, `${label} must be at most ${max} characters`))
    .optional();

const idOf = (label: string) =>
  present(
    (value): value is string => Id.safeParse(value).success,
    `${label} is required`,
    `Invalid ${label.toLowerCase()}`,
  );

const MAX_DOLLARS = MAX_CENTS / 100;

const DECIMALS = 'Amounts may have at most two decimals';

// Multipart fields arrive as text, judged as written: Number() would round away what a double
// cannot hold ("100.100000000000000000001" reads as 100.1).
const numeral = (value: unknown, ctx: z.RefinementCtx): unknown => {
  if (typeof value !== 'string' || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return value;
  if (!hasAtMostTwoDecimals(value)) ctx.addIssue({ code: 'custom', message: DECIMALS });
  return Number(value);
};

const startingPrice = z.preprocess(
  numeral,
  present(isNumber, 'Starting price is required', 'Starting price must be a number')
    .pipe(
      z
        .number()
        .min(100, 'Starting price must be at least $100')
        .max(MAX_DOLLARS, 'Starting price must be at most $1,000,000,000'),
    )
    .pipe(Dollars)
    .transform(dollarsToCents),
);

/**
 * An optional price (the reserve, Buy It Now), in dollars out as cents: absent or empty is none.
 * How it must relate to the starting price the decider judges, with the spec's words.
 */
const optionalPrice = (label: string) =>
  z.preprocess(
    (value, ctx) => (missing(value) ? undefined : numeral(value, ctx)),
    z
      .custom<number>(isNumber, { error: `${label} must be a number` })
      .pipe(
        z
          .number()
          .min(1, `${label} must be at least $1`)
          .max(MAX_DOLLARS, `${label} must be at most $1,000,000,000`),
      )
      .pipe(Dollars)
      .transform(dollarsToCents)
      .optional(),
  );

/** A price an edit may set, or remove (an empty value or null); absent: stays. */
const editedPrice = (label: string) =>
  z.preprocess(
    (value) =>
      value === null || (typeof value === 'string' && value.trim() === '') ? null : value,
    z.union([z.null(), optionalPrice(label)]),
  );

// Any offset in; out in the fixed UTC form whose string order is time order.
const endTime = (label: string) =>
  present(isString, `${label} is required`, `${label} must be an ISO date-time`)
    .pipe(z.iso.datetime({ offset: true, error: `${label} must be an ISO date-time` }))
    .transform((value) => toIsoTime(Date.parse(value)))
    .refine((value) => IsoTime.safeParse(value).success, `${label} is out of range`);

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'removeImage must be true or false' })
  .optional()
  .transform((value) => value === true || value === 'true');

/** Soft close (a bid in the last minutes moves the end): on unless the seller says `false`. */
const softCloseFlag = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'softClose must be true or false' })
  .optional()
  .transform((value) => value !== false && value !== 'false');

const body = { error: 'The request body must be an object' };

/** Create auction form (spec §3, §5): multipart or JSON. */
export const CreateAuctionBody = z.object(
  {
    title: text('Title', 200, undefined, 'title'),
    description: text('Description', 5000, undefined, 'multiline'),
    category: text('Category', 64, undefined, null).pipe(
      z.string().refine((value) => Id.safeParse(value).success, 'Category not found'),
    ),
    startingPrice,
    auctionDate: endTime('Auction end date'),
    softClose: softCloseFlag,
    reservePrice: optionalPrice('Reserve price'),
    buyNowPrice: optionalPrice('Buy It Now price'),
  },
  body,
);

/** A new end: an instant, or a date alone, which keeps the current end's time of day (UTC). */
export type EndChange = { readonly at: string } | { readonly date: string };

const END_FORMAT = 'must be a date (YYYY-MM-DD) or an ISO date-time';

const endTimeOrDate = (label: string) =>
  present(isString, `${label} is required`, `${label} ${END_FORMAT}`).pipe(
    z.union(
      [
        z.iso.date().transform((date): EndChange => ({ date })),
        z.iso
          .datetime({ offset: true })
          .transform((value) => toIsoTime(Date.parse(value)))
          .refine((at) => IsoTime.safeParse(at).success, `${label} is out of range`)
          .transform((at): EndChange => ({ at })),
      ],
      { error: `${label} ${END_FORMAT}` },
    ),
  );

/**
 * `date` at the time of day of `current` (both UTC), the end a date-only edit means; undefined
 * when that is not a time the product can hold.
 */
export const endOnDate = (date: string, current: string): string | undefined => {
  const at = Date.parse(`${date}${current.slice(10)}`);
  if (!Number.isFinite(at)) return undefined;
  const iso = toIsoTime(at);
  return IsoTime.safeParse(iso).success ? iso : undefined;
};

/**
 * Edit auction (PATCH: a partial update): every field is optional, and an absent one stays as it
 * is; a field that is sent must be valid (an empty title is refused, not cleared). The end may be a
 * date alone, as the spec's edit form has it. A new image or `removeImage` optional.
 */
export const EditAuctionBody = z.object(
  {
    title: text('Title', 200, undefined, 'title').optional(),
    description: text('Description', 5000, undefined, 'multiline').optional(),
    startingPrice: startingPrice.optional(),
    auctionEndTime: endTimeOrDate('Auction end date').optional(),
    reservePrice: editedPrice('Reserve price'),
    buyNowPrice: editedPrice('Buy It Now price'),
    removeImage: flag,
  },
  body,
);

export const AuctionIdParams = z.object({ id: idOf('Auction id') });

export const AuctionIdQuery = z.object({ auctionId: idOf('Auction id') });

/** All Auctions filters: title substring and exact category name; empty filters nothing. */
export const AuctionFilters = z.object({
  search: optionalText('Search', 200),
  category: optionalText('Category', 80),
});

export const CreateCategoryBody = z.object(
  {
    name: text('Category name', 80, 'Please enter Name of Category'),
    description: text('Description', 1000, 'Please enter Description', 'multiline'),
  },
  body,
);
