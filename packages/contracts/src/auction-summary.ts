import type { AuctionStatus } from './auction-status';
import {
  type AuctionCreated,
  type AuctionEdited,
  type AuctionEvent,
  type AuctionClosed,
  type SoftClose,
} from './events/auction-events';
import { type IncrementRule, defaultIncrementRule, legacyIncrementRule } from './increments';

/**
 * What every reader of an auction keeps of it: the fields its own events set. The decider's
 * state, the catalog's documents and the views built from either all hold these, changed only by
 * `summaryChange`, so a field added here reaches each of them. Money in cents, times ISO.
 */
export interface AuctionSummary {
  readonly status: Exclude<AuctionStatus, 'None'>;
  readonly auctionId: string;
  readonly sellerId: string;
  readonly title: string;
  readonly description: string;
  readonly categoryId: string;
  /** The stored image path, null for none. */
  readonly image: string | null;
  readonly startingPrice: number;
  readonly endsAt: string;
  readonly increments: IncrementRule;
  /** Null: the end never moves. */
  readonly softClose: SoftClose | null;
  /** Whether a bid in the soft-close window has moved the end. */
  readonly extended: boolean;
  /** The seller's secret minimum; null: none. */
  readonly reservePrice: number | null;
  /** Null: no Buy It Now. */
  readonly buyNowPrice: number | null;
  /** The highest standing bid, 0 when none. */
  readonly currentBid: number;
  readonly leadingBidId: string | null;
  readonly winnerId: string | null;
  readonly finalPrice: number | null;
  /** Sold at the Buy It Now price. */
  readonly boughtNow: boolean;
  /**
   * When the auction stopped taking bids (closed, sold at Buy It Now, or cancelled): the event's
   * business time. Null while Live. A Buy It Now sale closes before `endsAt`.
   */
  readonly closedAt: string | null;
}

/** The fields only `AuctionCreated` gives a value. */
type SetAtCreation = 'auctionId' | 'sellerId' | 'categoryId' | 'endsAt';

/** The summary as a fold of a stream holds it, from before the auction's creation on. */
export type FoldedSummary = Omit<AuctionSummary, SetAtCreation | 'status'> & {
  readonly [K in SetAtCreation]: AuctionSummary[K] | null;
} & { readonly status: AuctionStatus };

/** Before `AuctionCreated`: where a fold of an auction's stream starts. */
export const noAuction: FoldedSummary = {
  status: 'None',
  auctionId: null,
  sellerId: null,
  title: '',
  description: '',
  categoryId: null,
  image: null,
  startingPrice: 0,
  endsAt: null,
  increments: defaultIncrementRule,
  softClose: null,
  extended: false,
  reservePrice: null,
  buyNowPrice: null,
  currentBid: 0,
  leadingBidId: null,
  winnerId: null,
  finalPrice: null,
  boughtNow: false,
  closedAt: null,
};

/** Every field of the summary, for readers that copy it out of a larger record. */
export const summaryKeys = Object.keys(noAuction) as readonly (keyof AuctionSummary)[];

const created = ({ data: d }: AuctionCreated): AuctionSummary => ({
  status: 'Live',
  auctionId: d.auctionId,
  sellerId: d.sellerId,
  title: d.title,
  description: d.description,
  categoryId: d.categoryId,
  image: d.image,
  startingPrice: d.startingPrice,
  endsAt: d.endsAt,
  // An auction created before increment rules were recorded bids under the legacy table.
  increments: d.increments ?? legacyIncrementRule,
  softClose: d.softClose ?? null,
  extended: false,
  reservePrice: d.reservePrice ?? null,
  buyNowPrice: d.buyNowPrice ?? null,
  currentBid: 0,
  leadingBidId: null,
  winnerId: null,
  finalPrice: null,
  boughtNow: false,
  closedAt: null,
});

/** An edit's fields: absent leaves a field as it is; null (image, reserve, Buy It Now) removes it. */
const edited = ({ data: d }: AuctionEdited): Partial<AuctionSummary> => {
  const change: { -readonly [K in keyof AuctionSummary]?: AuctionSummary[K] } = {};
  if (d.title !== undefined) change.title = d.title;
  if (d.description !== undefined) change.description = d.description;
  if (d.image !== undefined) change.image = d.image;
  if (d.startingPrice !== undefined) change.startingPrice = d.startingPrice;
  if (d.endsAt !== undefined) change.endsAt = d.endsAt;
  if (d.reservePrice !== undefined) change.reservePrice = d.reservePrice;
  if (d.buyNowPrice !== undefined) change.buyNowPrice = d.buyNowPrice;
  return change;
};

/** A bid that leads at `amount`, and the end it moved the auction to, if it moved it. */
const leads = (d: { bidId: string; amount: number; endsAt?: string | undefined }) => ({
  currentBid: d.amount,
  leadingBidId: d.bidId,
  ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
});

const closed = ({ data: d }: AuctionClosed): Partial<AuctionSummary> =>
  d.outcome === 'Sold'
    ? {
        status: 'Sold',
        winnerId: d.winnerId,
        finalPrice: d.finalPrice,
        boughtNow: d.boughtNow === true,
        closedAt: d.at,
      }
    : { status: 'Expired', closedAt: d.at };

/** The summary's fields `event` sets: all of them for `AuctionCreated`, the ones it changes else. */
export function summaryChange(event: AuctionCreated): AuctionSummary;
export function summaryChange(event: AuctionEvent): Partial<AuctionSummary>;
export function summaryChange(event: AuctionEvent): Partial<AuctionSummary> {
  switch (event.type) {
    case 'AuctionCreated':
      return created(event);
    case 'AuctionEdited':
      return edited(event);
    case 'AuctionCancelled':
      // The image store removes a cancelled auction's image (api/src/followers/image-cleanup.ts).
      return { status: 'Cancelled', image: null, closedAt: event.data.at };
    case 'BidPlaced':
    case 'BidEdited':
    case 'AutomaticBidPlaced':
      return leads(event.data);
    case 'BidRetracted':
      return { currentBid: event.data.currentBid, leadingBidId: event.data.leadingBidId };
    case 'AuctionClosed':
      return closed(event);
    case 'BidMaximumRaised':
    case 'AuctionEndingSoon':
      return {};
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
}

/**
 * The summary fields of a stored record. A field the record lacks (written before the field
 * existed) is taken from `absent`, else from `noAuction`.
 */
export const summaryOf = (record: object, absent: Partial<AuctionSummary>): AuctionSummary => {
  const fields = record as Partial<Record<keyof AuctionSummary, unknown>>;
  const summary: Record<string, unknown> = {};
  for (const key of summaryKeys) {
    summary[key] =
      fields[key] !== undefined ? fields[key] : key in absent ? absent[key] : noAuction[key];
  }
  return summary as unknown as AuctionSummary;
};
