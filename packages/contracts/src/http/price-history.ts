import { z } from 'zod';
import { operationTable } from './operation';
import { AuctionIdQuery } from './auctions';
import { pageLimit } from './paging';
import { AuctionStatusView, PublicUser } from './views';

/**
 * An auction's public price history (`GET /auction/history`): what moved its price, one entry per
 * stream revision that anyone may see, in revision order. Never a bidder's maximum, never the
 * reserve's amount: only whether the reserve is met, as the auction's view says.
 *
 * - `opened`: the auction was created (`amount`: the starting price, `endsAt`: its end);
 * - `bid`: a new bid (a Buy It Now purchase is a bid followed by a `closed` entry with `boughtNow`);
 * - `raise`: a bidder raised their standing bid (`previousAmount`: what it stood at);
 * - `automatic`: the system bid for a proxy bidder, up to their secret maximum;
 * - `retraction`: a bid was taken back (`amount`: what it stood at), the price fell back;
 * - `edited`: the seller changed the starting price or the end (`amount`, `endsAt`: the new ones);
 * - `closed`: the auction ended (`outcome`), `cancelled`: the seller cancelled it.
 */
export const PriceHistoryKind = z.enum([
  'opened',
  'bid',
  'raise',
  'automatic',
  'retraction',
  'edited',
  'closed',
  'cancelled',
]);
export type PriceHistoryKind = z.infer<typeof PriceHistoryKind>;

export const PriceHistoryEntry = z.object({
  /** The auction's stream revision of the event. */
  revision: z.number().int().min(0),
  /** When it happened (ISO, milliseconds). */
  at: z.string(),
  kind: PriceHistoryKind,
  /** The bid it is about; null for the auction's own entries. */
  bidId: z.string().nullable(),
  bidder: PublicUser.nullable(),
  /** Dollars: the bid's amount (a retraction: what it stood at), or the starting price. */
  amount: z.number().nullable(),
  /** Dollars: a raise's or automatic bid's amount before it. */
  previousAmount: z.number().nullable(),
  /** Dollars: the current bid before and after the event (0: no bid). */
  priceBefore: z.number(),
  price: z.number(),
  /** Whether there is a reserve and whether the leading bid reaches it, after the event. */
  reserve: z.enum(['none', 'not-met', 'met']),
  /** This event made the leading bid reach the reserve (it was not met before). */
  reserveMet: z.boolean(),
  /** A bid in the soft-close window moved the end (`endsAt`: the new end). */
  extended: z.boolean(),
  /** The end after the event when the event set it (creation, an edit, an extension), else null. */
  endsAt: z.string().nullable(),
  /** `closed`: Sold or Expired; null otherwise. */
  outcome: AuctionStatusView.extract(['Sold', 'Expired']).nullable(),
  /** `closed`: sold at the Buy It Now price. */
  boughtNow: z.boolean(),
  /** `closed` Expired: there were bids, none reached the reserve. */
  reserveNotMet: z.boolean(),
  /** An automatic bid answered this bid or raise at once (the next entry). */
  outbidByProxy: z.boolean(),
});
export type PriceHistoryEntry = z.infer<typeof PriceHistoryEntry>;

/** The most entries' worth of stream revisions one page reads; also the default. */
export const PRICE_HISTORY_PAGE = 100;

const AFTER_MESSAGE = 'after must be a stream revision: a whole number, -1 or more';

/** `after`: the last revision already read (`nextAfter` of the previous page); -1 or absent: from the start. */
const after = z
  .custom<string>((value) => typeof value === 'string' && /^(-1|\d{1,15})$/.test(value), {
    error: AFTER_MESSAGE,
  })
  .transform(Number)
  .pipe(z.number().int().min(-1).max(Number.MAX_SAFE_INTEGER, AFTER_MESSAGE))
  .meta({ type: 'integer', minimum: -1, description: 'The last revision already read' });

export const PriceHistoryQuery = AuctionIdQuery.extend({
  after: after.optional(),
  limit: pageLimit.optional(),
});

export const priceHistoryOperations = operationTable({
  priceHistory: {
    method: 'get',
    path: '/auction/history',
    summary:
      "An auction's public price history: bids, raises, automatic bids, retractions, the end, by revision",
    auth: 'none',
    query: PriceHistoryQuery,
    ok: 200,
    payload: {
      auctionId: z.string(),
      status: AuctionStatusView,
      entries: z.array(PriceHistoryEntry),
      /** The stream's last revision when the page was read. */
      lastRevision: z.number().int(),
      /** Pass as `after` for the next page; null when this page reached `lastRevision`. */
      nextAfter: z.number().int().nullable(),
    },
  },
});
