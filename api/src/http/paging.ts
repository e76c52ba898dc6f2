import {
  type FindAfter,
  MAX_CURSOR_LENGTH,
  MAX_PAGE_SIZE,
  type PagedList,
  type PageRequest,
  decodeCursor,
} from '@auction/projections';
import { z } from 'zod';

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

/** `cursor`: the opaque `nextCursor` of the previous page of `list`; empty or absent: the first. */
export const pageCursor = (list: PagedList) =>
  z
    .custom<string>((value) => typeof value === 'string', INVALID_CURSOR)
    .transform((text, ctx): FindAfter | undefined => {
      if (text === '') return undefined;
      const after = decodeCursor(list, text);
      if (!after) ctx.addIssue({ code: 'custom', message: INVALID_CURSOR });
      return after;
    })
    .optional()
    .meta({
      type: 'string',
      maxLength: MAX_CURSOR_LENGTH,
      description: 'The nextCursor of the previous page; absent or empty for the first page',
    });

/** The query fields of a paged list: `limit` and `cursor`, both optional. */
export const pageFields = (list: PagedList) => ({
  limit: pageLimit.optional(),
  cursor: pageCursor(list),
});

/** What a page answers beside its list: the cursor of the next page, null on the last. */
export const NextCursor = z.string().nullable();

/** The query of a paged list: `limit` and `cursor`, both optional; other keys are left alone. */
export const PageQuery = (list: PagedList) =>
  z.object(pageFields(list)).transform(({ limit, cursor }): PageRequest => ({
    ...(limit === undefined ? {} : { limit }),
    ...(cursor === undefined ? {} : { after: cursor }),
  }));
