import { hasAtMostTwoDecimals, rules } from '@auction/contracts';
import { z } from 'zod';
import { localDateAfter } from './form-controls';

export const MAX_DAYS_AHEAD = Math.floor(rules.maxAuctionDurationMs / 86_400_000);

/** Today's time of day on today's date is already past when it arrives, so the earliest is tomorrow. */
export const earliestEndDate = (): string => localDateAfter(1);
export const latestEndDate = (): string => localDateAfter(MAX_DAYS_AHEAD);

export const titleField = z
  .string()
  .trim()
  .min(1, 'Title is required')
  .max(200, 'Title must be at most 200 characters');

export const descriptionField = z
  .string()
  .trim()
  .min(1, 'Description is required')
  .max(5000, 'Description must be at most 5000 characters');

export const startingPriceField = z
  .string()
  .trim()
  .min(1, 'Starting price is required')
  .refine((value) => value === '' || Number(value) >= 100, 'Starting price must be at least $100')
  .refine(
    (value) => value === '' || Number(value) <= 1_000_000_000,
    'Starting price must be at most $1,000,000,000',
  )
  .refine(
    (value) => value === '' || (/^\d+(\.\d+)?$/.test(value) && hasAtMostTwoDecimals(value)),
    'Amounts may have at most two decimals',
  );

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
  fields: Partial<Record<'title' | 'description' | 'category' | 'price' | 'date', F>>,
): F | undefined => {
  if (/^title/i.test(message)) return fields.title;
  if (/^description/i.test(message)) return fields.description;
  if (/^category/i.test(message)) return fields.category;
  if (/starting price|two decimals/i.test(message)) return fields.price;
  if (/end (date|time)/i.test(message)) return fields.date;
  return undefined;
};
