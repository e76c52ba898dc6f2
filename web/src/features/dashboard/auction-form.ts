import {
  CreateAuctionBody,
  CreateCategoryBody,
  errorCatalog,
  priceProblems,
  rules,
} from '@auction/contracts';
import { z } from 'zod';
import { checkedBy } from '../../lib/checked-by';
import { dateWithCurrentTime, formatDate, formatDateTime } from '../../lib/format';
import { localDateAfter } from '../../components/form-controls';

export const MAX_DAYS_AHEAD = Math.floor(rules.maxAuctionDurationMs / 86_400_000);

/** Today's time of day on today's date is already past when it arrives, so the earliest is tomorrow. */
export const earliestEndDate = (): string => localDateAfter(1);
export const latestEndDate = (): string => localDateAfter(MAX_DAYS_AHEAD);

/** How long a new auction runs when the seller picks no end date. */
export const DEFAULT_DURATION_DAYS = 7;

/** Today's date is offered while at least this much of the day is left before its end. */
const TODAY_MIN_LEFT_MS = 15 * 60_000;

/** 11:59 PM local time on `now`'s day: when an auction created to end today ends. */
export const endOfToday = (now: Date): Date => {
  const end = new Date(now);
  end.setHours(23, 59, 0, 0);
  return end;
};

/** The create form's earliest end date: today while enough of it is left, else tomorrow. */
export const earliestCreateEndDate = (now = new Date()): string =>
  localDateAfter(endOfToday(now).getTime() - now.getTime() >= TODAY_MIN_LEFT_MS ? 0 : 1, now);

/**
 * When a new auction ends for the create form's end date (spec §5: the date at the current time of
 * day). Today at the current time is already past when it arrives, so today ends at 11:59 PM;
 * no date ends `DEFAULT_DURATION_DAYS` from now (the same time of day).
 */
export const createAuctionEnd = (
  dateValue: string,
  now = new Date(),
): { at: Date; kind: 'default' | 'today' | 'date' } => {
  if (dateValue === '') {
    const at = new Date(now);
    at.setDate(at.getDate() + DEFAULT_DURATION_DAYS);
    return { at, kind: 'default' };
  }
  if (dateValue === localDateAfter(0, now)) return { at: endOfToday(now), kind: 'today' };
  return { at: new Date(dateWithCurrentTime(dateValue, now)), kind: 'date' };
};

const timeOfDay = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** What the create form's end date field says the auction's end will be. */
export const createAuctionEndHint = (dateValue: string, now = new Date()): string => {
  const { at, kind } = createAuctionEnd(dateValue, now);
  const iso = at.toISOString();
  if (kind === 'default')
    return `No date chosen: bidding ends in ${DEFAULT_DURATION_DAYS} days, on ${formatDateTime(iso)}.`;
  if (kind === 'today')
    return `Bidding ends today at ${timeOfDay.format(at)} (${formatDate(iso)}).`;
  return `Bidding ends on ${formatDateTime(iso)}, the current time of day.`;
};

/** The create form's end date: optional (spec §5), from today (or tomorrow late at night) on. */
export const createEndDateField = () =>
  z
    .string()
    .refine((value) => value === '' || value >= earliestCreateEndDate(), {
      error: () =>
        earliestCreateEndDate() === localDateAfter(0)
          ? 'The auction end date must be today or later'
          : 'The auction end date must be tomorrow or later',
    })
    .refine(
      (value) => value === '' || value <= latestEndDate(),
      `The auction end time must be at most ${MAX_DAYS_AHEAD} days ahead`,
    );

// The fields the API reads as the form sends them (text), judged by its own schemas: the limits
// (rules.maxLength, rules.minStartingPriceCents) and the messages are the server's.
const { shape } = CreateAuctionBody;

export const titleField = checkedBy(shape.title);
export const descriptionField = checkedBy(shape.description);
export const categoryField = checkedBy(shape.category);
export const startingPriceField = checkedBy(shape.startingPrice);

/**
 * An optional price (the reserve, Buy It Now): empty is none. How it must relate to the starting
 * price the server judges, and its message lands on the field (`fieldOfMessage`).
 */
export const optionalPriceField = (field: 'reservePrice' | 'buyNowPrice') =>
  checkedBy(shape[field]);

/** A price field's value in cents, or null when it is empty or not a valid price. */
const centsOf = (schema: z.ZodType, value: string): number | null => {
  const parsed = schema.safeParse(value);
  return parsed.success && typeof parsed.data === 'number' ? parsed.data : null;
};

/**
 * How the prices must relate (the decider's `priceProblems`, with its messages), each problem at
 * its own field and all at once. An invalid starting price counts as none: its own message says so.
 */
export const checkPriceRules = (
  values: { startingPrice: string; reservePrice: string; buyNowPrice: string },
  ctx: z.RefinementCtx,
): void => {
  const problems = priceProblems(
    centsOf(shape.startingPrice, values.startingPrice.trim()) ?? 0,
    centsOf(shape.reservePrice, values.reservePrice.trim()),
    centsOf(shape.buyNowPrice, values.buyNowPrice.trim()),
  );
  if (problems.reserve)
    ctx.addIssue({
      code: 'custom',
      path: ['reservePrice'],
      message: errorCatalog[problems.reserve].message,
    });
  if (problems.buyNow)
    ctx.addIssue({
      code: 'custom',
      path: ['buyNowPrice'],
      message: errorCatalog[problems.buyNow].message,
    });
};

/** The create category form (spec §2, §4): the API's own fields and messages. */
export const CategoryForm = z.object({
  name: checkedBy(CreateCategoryBody.shape.name),
  description: checkedBy(CreateCategoryBody.shape.description),
});
export type CategoryForm = z.infer<typeof CategoryForm>;

/** A date input's value within the window the server accepts, or `unchanged` as it was. */
export const endDateField = (unchanged?: string) =>
  z
    .string()
    .min(1, 'Auction end date is required')
    .refine(
      (value) => value === '' || value === unchanged || value >= earliestEndDate(),
      'The auction end date must be tomorrow or later',
    )
    .refine(
      (value) => value === '' || value === unchanged || value <= latestEndDate(),
      `The auction end time must be at most ${MAX_DAYS_AHEAD} days ahead`,
    );

/** Which field a server message is about (the API's 400 messages name it first). */
export const fieldOfMessage = <F extends string>(
  message: string,
  fields: Partial<
    Record<'title' | 'description' | 'category' | 'price' | 'date' | 'reserve' | 'buyNow', F>
  >,
): F | undefined => {
  if (/buy it now/i.test(message)) return fields.buyNow;
  if (/reserve/i.test(message)) return fields.reserve;
  if (/^title/i.test(message)) return fields.title;
  if (/^description/i.test(message)) return fields.description;
  if (/^category/i.test(message)) return fields.category;
  if (/starting price|two decimals/i.test(message)) return fields.price;
  if (/end (date|time)/i.test(message)) return fields.date;
  return undefined;
};
