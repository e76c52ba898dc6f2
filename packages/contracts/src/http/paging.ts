import { z } from 'zod';

/** The most any page holds. */
export const MAX_PAGE_SIZE = 100;

/**
 * The standing bids an auction's detail and its realtime state carry (the first page of
 * `GET /auction/bids`, which pages the rest).
 */
export const BIDS_PAGE_SIZE = 20;

/** The longest cursor accepted (one of ours is a few hundred characters at most). */
export const MAX_CURSOR_LENGTH = 1024;

/** The 400 of a cursor that is not one the list gave (made up, cut, or another list's). */
export const INVALID_CURSOR = 'cursor must be the nextCursor of an earlier page of this list';
export const INVALID_LIMIT = `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`;

/** `limit`: a whole number of items per page, 1 to 100, as query text. */
export const pageLimit = z
  .custom<string>(
    (value) =>
      typeof value === 'string' &&
      /^\d{1,3}$/.test(value) &&
      +value >= 1 &&
      +value <= MAX_PAGE_SIZE,
    INVALID_LIMIT,
  )
  .transform(Number)
  .meta({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    description: `Items per page, 1 to ${MAX_PAGE_SIZE}`,
  });

/**
 * `cursor`: the opaque `nextCursor` of the previous page; empty or absent: the first. Only its
 * kind is checked here: whether it names a place in the list the API decides (`INVALID_CURSOR`).
 */
export const pageCursor = z
  .custom<string>((value) => typeof value === 'string', INVALID_CURSOR)
  .optional()
  .meta({
    type: 'string',
    maxLength: MAX_CURSOR_LENGTH,
    description: 'The nextCursor of the previous page; absent or empty for the first page',
  });

/** The query fields of a paged list: `limit` and `cursor`, both optional. */
export const pageFields = { limit: pageLimit.optional(), cursor: pageCursor };

/** The query of a paged list; other keys are left alone. */
export const PageQuery = z.object(pageFields);
export type PageQuery = z.infer<typeof PageQuery>;

/** What a page answers beside its list: the cursor of the next page, null on the last. */
export const NextCursor = z.string().nullable();
