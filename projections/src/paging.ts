import { MAX_CURSOR_LENGTH, MAX_PAGE_SIZE } from '@auction/contracts';
import type { Doc, FindAfter, FindOptions, IndexValue } from './read-store/read-store';
import { placeOf } from './read-store/query-semantics';

/**
 * Keyset pages over an indexed order plus `_id`, each answered with the next one's cursor. A page
 * starts strictly after the last document of the previous one, so paging never repeats or skips a
 * document that stayed in the list, and the thousandth page costs what the first does.
 */

/** Most lists' page when the request names none; the most any page holds is `MAX_PAGE_SIZE`. */
export const DEFAULT_PAGE_SIZE = 20;

/** The lists that page, each with the types of its order's values (its cursor's shape). */
export const pagedLists = {
  auctions: ['string'],
  /** The live list's other orders: by end, by current price (`liveAuctionOrders`). */
  auctionsEndingSoon: ['string'],
  auctionsPriceLow: ['number'],
  auctionsPriceHigh: ['number'],
  sellerAuctions: ['string'],
  categories: ['string'],
  notifications: ['number'],
  history: ['string'],
  watchlist: ['string'],
  /** An auction's standing bids: amount, then when placed (`bid-pages.ts`). */
  bids: ['number', 'string'],
} as const satisfies Record<string, readonly ('string' | 'number')[]>;
export type PagedList = keyof typeof pagedLists;

/** A page request: at most `limit` items, after the place a previous page's cursor names. */
export interface PageRequest {
  readonly limit?: number;
  readonly after?: FindAfter;
}

/** A page: its items, and the cursor of the next page (null on the last page). */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/** The opaque cursor of the place after `after` in `list`: base64url of `[list, ...values, id]`. */
export const encodeCursor = (list: PagedList, after: FindAfter): string =>
  Buffer.from(JSON.stringify([list, ...after.values, after.id]), 'utf8').toString('base64url');

/**
 * The place a cursor of `list` names, or undefined when the text is not such a cursor (made
 * up, cut, or another list's): the caller answers 400.
 */
export const decodeCursor = (list: PagedList, text: string): FindAfter | undefined => {
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text))
    return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const kinds = pagedLists[list];
  if (!Array.isArray(decoded) || decoded.length !== kinds.length + 2 || decoded[0] !== list)
    return undefined;
  const values = decoded.slice(1, -1) as unknown[];
  const id: unknown = decoded.at(-1);
  if (typeof id !== 'string' || id.length === 0) return undefined;
  const typed = values.every((value, i) =>
    kinds[i] === 'number'
      ? typeof value === 'number' && Number.isFinite(value)
      : typeof value === 'string',
  );
  return typed ? { values: values as IndexValue[], id } : undefined;
};

/**
 * Finds one page: asks for one document more than the page holds, to know whether another
 * page follows, and names the next page by the last document kept.
 */
export const findPage = async <D extends Doc>(
  list: PagedList,
  find: (options: FindOptions) => Promise<D[]>,
  options: FindOptions & { readonly orderBy: NonNullable<FindOptions['orderBy']> },
  { limit = DEFAULT_PAGE_SIZE, after }: PageRequest,
  /** Keeps the leading documents that belong to the list (the rest and all after them do not). */
  keepWhile: (doc: D) => boolean = () => true,
): Promise<{ readonly docs: D[]; readonly nextCursor: string | null }> => {
  const size = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(limit)));
  const found = await find({ ...options, ...(after ? { after } : {}), limit: size + 1 });
  const end = found.findIndex((doc) => !keepWhile(doc));
  const listed = end === -1 ? found : found.slice(0, end);
  const docs = listed.slice(0, size);
  const last = docs.at(-1);
  return {
    docs,
    nextCursor:
      listed.length > size && last ? encodeCursor(list, placeOf(last, options.orderBy)) : null,
  };
};
