import { z } from 'zod';
import { Dollars, MAX_CENTS, dollarsToCents } from '../money';
import { Id } from '../ids';
import { IncrementRule } from '../increments';
import { rules } from '../rules';
import { IsoTime, toIsoTime } from '../time';
import { AuctionView, BidView, CategoryView, NotificationView } from './views';
import {
  DECIMALS,
  MAX_DOLLARS,
  atLeast,
  atMost,
  idOf,
  isNumber,
  isString,
  missing,
  numeral,
  optionalText,
  present,
  requestBody,
  text,
} from './input';
import { operationTable } from './operation';
import { NextCursor, pageFields } from './paging';

const { maxLength } = rules;

/** The starting price's messages: the minimum is `rules.minStartingPriceCents`. */
export const startingPriceMessages = {
  required: 'Starting price is required',
  notNumber: 'Starting price must be a number',
  tooLow: atLeast('Starting price', rules.minStartingPriceCents),
  tooHigh: atMost('Starting price', MAX_CENTS),
  decimals: DECIMALS,
} as const;

/** Dollars in (a JSON number, or a form's text), cents out: at least the minimum (spec §5). */
const startingPrice = z.preprocess(
  numeral,
  present(isNumber, startingPriceMessages.required, startingPriceMessages.notNumber)
    .pipe(
      z
        .number()
        .min(rules.minStartingPriceCents / 100, startingPriceMessages.tooLow)
        .max(MAX_DOLLARS, startingPriceMessages.tooHigh),
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
      .pipe(z.number().min(1, atLeast(label, 100)).max(MAX_DOLLARS, atMost(label, MAX_CENTS)))
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

/** Soft close (a bid in the last minutes moves the end); absent: the operator's default. */
const softCloseFlag = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'softClose must be true or false' })
  .optional()
  .transform((value) => (value === undefined ? undefined : value === true || value === 'true'));

/** How much each bid must beat the current price by; absent: the operator's default. */
const incrementRule = z
  .enum(IncrementRule.options, { error: 'increments must be "one-dollar" or "table"' })
  .optional();

const title = text('Title', maxLength.title, undefined, 'title');
const description = text('Description', maxLength.description, undefined, 'multiline');

/** Create auction form (spec §3, §5): multipart or JSON. */
export const CreateAuctionBody = z.object(
  {
    title,
    description,
    category: text('Category', 64, undefined, null).pipe(
      z.string().refine((value) => Id.safeParse(value).success, 'Category not found'),
    ),
    startingPrice,
    auctionDate: endTime('Auction end date'),
    increments: incrementRule,
    softClose: softCloseFlag,
    reservePrice: optionalPrice('Reserve price'),
    buyNowPrice: optionalPrice('Buy It Now price'),
  },
  requestBody,
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
 * Edit auction (PATCH: a partial update): every field is optional, and an absent one stays as it
 * is; a field that is sent must be valid (an empty title is refused, not cleared). The end may be a
 * date alone, as the spec's edit form has it. A new image or `removeImage` optional.
 */
export const EditAuctionBody = z.object(
  {
    title: title.optional(),
    description: description.optional(),
    startingPrice: startingPrice.optional(),
    auctionEndTime: endTimeOrDate('Auction end date').optional(),
    reservePrice: editedPrice('Reserve price'),
    buyNowPrice: editedPrice('Buy It Now price'),
    removeImage: flag,
  },
  requestBody,
);

export const AuctionIdParams = z.object({ id: idOf('Auction id') });

export const AuctionIdQuery = z.object({ auctionId: idOf('Auction id') });

/**
 * The orders of the live auctions list: newest first (the spec's, when none is asked), ending
 * soonest, and by the current price (the current bid, the starting price while there is none) low
 * to high or high to low.
 */
export const AuctionSort = z.enum(['newest', 'ending-soon', 'price-low', 'price-high'], {
  error: 'sort must be one of newest, ending-soon, price-low, price-high',
});
export type AuctionSort = z.infer<typeof AuctionSort>;

/** All Auctions filters: title substring and exact category name; empty filters nothing. */
export const AuctionFilters = z.object({
  search: optionalText('Search', maxLength.title),
  category: optionalText('Category', maxLength.categoryName),
  /** Absent or empty: newest first. */
  sort: z.preprocess((value) => (value === '' ? undefined : value), AuctionSort.optional()),
});

export const CreateCategoryBody = z.object(
  {
    name: text('Category name', maxLength.categoryName, 'Please enter Name of Category'),
    description: text(
      'Description',
      maxLength.categoryDescription,
      'Please enter Description',
      'multiline',
    ),
  },
  requestBody,
);

const auctionPage = { auctions: z.array(AuctionView), nextCursor: NextCursor };

/** `/api/v1/auction/...`: auctions, categories and notifications (spec §7). */
export const auctionOperations = operationTable({
  createAuction: {
    method: 'post',
    path: '/auction/createAuction',
    summary: 'Create an auction (optional image)',
    auth: 'user',
    body: CreateAuctionBody,
    multipart: true,
    ok: 201,
    payload: { auction: AuctionView.nullable() },
  },
  sellerAuctions: {
    method: 'get',
    path: '/auction/getAuctions',
    summary: "The signed-in user's auctions, newest first, a page at a time",
    auth: 'user',
    query: z.object(pageFields),
    ok: 200,
    payload: auctionPage,
  },
  cancelAuction: {
    method: 'delete',
    path: '/auction/deleteAuction/{id}',
    summary: 'Cancel an own auction',
    auth: 'user',
    params: AuctionIdParams,
    ok: 200,
  },
  liveAuctions: {
    method: 'get',
    path: '/auction/fetchAllAuctions',
    summary: 'Live auctions, by title and category, newest first, a page at a time',
    auth: 'none',
    query: AuctionFilters.extend(pageFields),
    ok: 200,
    payload: auctionPage,
  },
  auctionDetail: {
    method: 'get',
    path: '/auction/fetchSpecificAuction',
    summary:
      "An auction's detail with the first page of its standing bids (bidsNextCursor: the rest)",
    auth: 'none',
    query: AuctionIdQuery,
    ok: 200,
    payload: { auctionDetails: AuctionView },
  },
  auctionBids: {
    method: 'get',
    path: '/auction/bids',
    summary: "An auction's standing bids, highest first, a page at a time",
    auth: 'none',
    query: AuctionIdQuery.extend(pageFields),
    ok: 200,
    payload: { bids: z.array(BidView), nextCursor: NextCursor },
  },
  featured: {
    method: 'get',
    path: '/auction/featured',
    summary: 'Featured auctions',
    auth: 'none',
    ok: 200,
    payload: { featured: z.array(AuctionView) },
  },
  editAuction: {
    method: 'patch',
    path: '/auction/editAuction/{id}',
    summary: 'Edit an own auction (optional new image)',
    auth: 'user',
    params: AuctionIdParams,
    body: EditAuctionBody,
    multipart: true,
    ok: 200,
    payload: { auction: AuctionView },
  },
  createCategory: {
    method: 'post',
    path: '/auction/createCategory',
    summary: 'Create a category',
    auth: 'user',
    body: CreateCategoryBody,
    ok: 201,
    payload: { category: CategoryView.nullable() },
  },
  categories: {
    method: 'get',
    path: '/auction/getAllCategories',
    summary: 'Categories by name, a page at a time',
    auth: 'none',
    query: z.object(pageFields),
    ok: 200,
    payload: { categories: z.array(CategoryView), nextCursor: NextCursor },
  },
  notifications: {
    method: 'get',
    path: '/auction/notifications',
    summary: "The signed-in user's notifications, newest first, a page at a time",
    auth: 'user',
    query: z.object(pageFields),
    ok: 200,
    payload: { data: z.array(NotificationView), nextCursor: NextCursor },
  },
  markNotificationsRead: {
    method: 'patch',
    path: '/auction/notifications/mark-read',
    summary: 'Mark every notification read',
    auth: 'user',
    ok: 200,
  },
  clearNotifications: {
    method: 'delete',
    path: '/auction/notifications/clear',
    summary: 'Clear every notification',
    auth: 'user',
    ok: 200,
  },
});
