import {
  type AuctionCreated,
  type AuctionEvent,
  type AuctionSummary,
  type AutomaticBidPlaced,
  type BidEdited,
  type BidPlaced,
  type CategoryCreated,
  legacyIncrementRule,
  summaryChange,
  summaryOf,
} from '@auction/contracts';
import type { CollectionSpec, Doc } from '../read-store/read-store';
import type { RecordedEvent, Projection, UnitOfWork } from '../runner/projection';
import { asAuctionEvent } from '@auction/contracts';
import { asCategoryCreated } from '../runner/events';

export type CatalogStatus = 'Live' | 'Sold' | 'Expired' | 'Cancelled';

/**
 * One auction as the catalog keeps it: the summary every reader shares (`summaryChange`), and what
 * the lists need beside it. Money in cents, times ISO. Documents written before a summary field
 * existed lack it: read them through `catalogSummaryOf`.
 */
export type CatalogAuction = AuctionSummary & {
  /** Empty until the category is known. */
  readonly categoryName: string;
  readonly createdAt: string;
  /** Standing (non-retracted) bids. */
  readonly bidCount: number;
  readonly winningBidId: string | null;
  /** Closed without a winner although there were bids: none reached the reserve. */
  readonly reserveNotMet?: boolean;
  /** Stream revision of the last event applied. */
  readonly revision: number;
  /**
   * The current price the list sorts by: the current bid, the starting price while no bid leads
   * (cents). Absent in documents written before it existed, until `rebuild catalog`.
   */
  readonly price?: number;
};

/** The current price of an auction: the leading bid, or the starting price while none leads. */
const priceOf = (a: Pick<AuctionSummary, 'leadingBidId' | 'currentBid' | 'startingPrice'>) =>
  a.leadingBidId === null ? a.startingPrice : a.currentBid;

/** What a document written before a summary field existed means by its absence. */
const beforeTheField: Partial<AuctionSummary> = {
  increments: legacyIncrementRule,
  softClose: null,
  extended: false,
  reservePrice: null,
  buyNowPrice: null,
  boughtNow: false,
  // Written before `closedAt` existed: a closed auction's close time is unknown (null).
  closedAt: null,
};

/** The summary of a stored auction, whichever version of the catalog wrote it. */
export const catalogSummaryOf = (auction: CatalogAuction): AuctionSummary =>
  summaryOf(auction, beforeTheField);

/**
 * One bid, keyed by its bid id. Edits and automatic bids change `amount`; a retraction sets
 * `retracted`. `maxAmount` is the bidder's secret maximum: only their own views show it.
 */
export type CatalogBid = {
  readonly auctionId: string;
  readonly bidderId: string;
  readonly amount: number;
  /** Absent in documents written before proxy bidding: the amount. */
  readonly maxAmount?: number;
  /** Whether an automatic bid set `amount` last. */
  readonly automatic?: boolean;
  readonly createdAt: string;
  /** The last change (a retracted bid's is its retraction: nothing changes it after). */
  readonly updatedAt: string;
  readonly retracted: boolean;
  /** When its bidder last placed or raised it, or raised its maximum (absent in older documents). */
  readonly enteredAt?: string;
  /** An automatic bid raised it, or it moved the end: its bidder can no longer retract it. */
  readonly bound?: boolean;
  /** Another's maximum answered it at once (`outbidByProxy`): its bidder can retract no bid. */
  readonly answered?: boolean;
};

/** One category, keyed by its category id. */
export type CatalogCategory = {
  readonly name: string;
  readonly description: string;
  readonly createdAt: string;
};

export type CatalogAuctionDoc = Doc & CatalogAuction;
export type CatalogBidDoc = Doc & CatalogBid;
export type CatalogCategoryDoc = Doc & CatalogCategory;

export const catalogAuctions: CollectionSpec = {
  name: 'catalog_auctions',
  indexes: ['status', 'sellerId', 'createdAt', 'title', 'categoryName', 'endsAt', 'price'],
  // Lists, a page at a time: Live newest first (title filtered on the way), a category's Live
  // newest first, a seller's newest first; auctions whose category is not named yet. Live ending
  // soonest (rewritten only when a late bid moves the end) and Live by price (rewritten by every
  // bid that moves the price: one more index entry on the live bid path).
  compoundIndexes: [
    ['status', 'createdAt'],
    ['sellerId', 'createdAt'],
    ['categoryName', 'status', 'createdAt'],
    ['status', 'endsAt'],
    ['status', 'price'],
  ],
};
export const catalogBids: CollectionSpec = {
  name: 'catalog_bids',
  indexes: ['auctionId', 'amount', 'retracted', 'bidderId', 'createdAt', 'updatedAt'],
  // An auction's standing bids, highest first, a page at a time, and its retracted ones, newest
  // first; a bidder's standing bids (account deletion).
  compoundIndexes: [
    ['auctionId', 'retracted', 'amount', 'createdAt'],
    ['auctionId', 'retracted', 'updatedAt'],
    ['bidderId', 'retracted'],
  ],
};
export const catalogCategories: CollectionSpec = {
  name: 'catalog_categories',
  indexes: ['name', 'createdAt'],
};

const updateAuction = (
  uow: UnitOfWork,
  auctionId: string,
  change: (current: CatalogAuctionDoc) => CatalogAuction,
): Promise<void> =>
  uow.update<CatalogAuctionDoc>(catalogAuctions.name, auctionId, (current) =>
    current ? change(current) : undefined,
  );

const updateBid = (
  uow: UnitOfWork,
  bidId: string,
  change: (current: CatalogBidDoc) => CatalogBid,
): Promise<void> =>
  uow.update<CatalogBidDoc>(catalogBids.name, bidId, (current) =>
    current ? change(current) : undefined,
  );

/** Each event's writes: the bid's own document first, then the auction's. */
const applyAuctionEvent = async (
  event: AuctionEvent,
  revision: number,
  uow: UnitOfWork,
): Promise<void> => {
  if (event.type === 'AuctionCreated') return auctionCreated(event, revision, uow);
  await writeBid(event, uow);
  return updateAuction(uow, event.data.auctionId, (a) => {
    const next = { ...a, ...summaryChange(event), ...listFields(a, event), revision };
    return { ...next, price: priceOf(catalogSummaryOf(next)) };
  });
};

/** What the catalog keeps beside the summary, as `event` changes it. */
const listFields = (a: CatalogAuction, event: AuctionEvent): Partial<CatalogAuction> => {
  switch (event.type) {
    case 'BidPlaced':
      return { bidCount: a.bidCount + 1 };
    case 'BidRetracted':
      return { bidCount: a.bidCount - 1 };
    case 'AuctionClosed':
      return event.data.outcome === 'Sold'
        ? { winningBidId: event.data.winningBidId }
        : event.data.reserveNotMet
          ? { reserveNotMet: true }
          : {};
    case 'AuctionCreated':
    case 'AuctionEdited':
    case 'AuctionCancelled':
    case 'BidEdited':
    case 'BidMaximumRaised':
    case 'AutomaticBidPlaced':
    case 'AuctionEndingSoon':
      return {};
  }
};

const auctionCreated = async (
  event: AuctionCreated,
  revision: number,
  uow: UnitOfWork,
): Promise<void> => {
  const d = event.data;
  const category = await uow.get<CatalogCategoryDoc>(catalogCategories.name, d.categoryId);
  const summary = summaryChange(event);
  return uow.update<CatalogAuctionDoc>(catalogAuctions.name, d.auctionId, (): CatalogAuction => ({
    ...summary,
    categoryName: category?.name ?? '',
    createdAt: d.at,
    bidCount: 0,
    winningBidId: null,
    revision,
    price: priceOf(summary),
  }));
};

/** The bid's own document, as the bid events change it. */
const writeBid = (event: AuctionEvent, uow: UnitOfWork): Promise<void> | void => {
  switch (event.type) {
    case 'BidPlaced':
      return bidPlaced(event, uow);
    case 'BidEdited':
    case 'AutomaticBidPlaced':
      return bidRaised(event, uow);
    case 'BidMaximumRaised':
      return updateBid(uow, event.data.bidId, (bid) => ({
        ...bid,
        maxAmount: event.data.maxAmount,
        enteredAt: event.data.at,
      }));
    case 'BidRetracted':
      return updateBid(uow, event.data.bidId, (bid) => ({
        ...bid,
        retracted: true,
        updatedAt: event.data.at,
      }));
    case 'AuctionCreated':
    case 'AuctionEdited':
    case 'AuctionCancelled':
    case 'AuctionClosed':
    case 'AuctionEndingSoon':
      return undefined;
  }
};

/** A new bid's document, made whole by this event: written without a read. */
const bidPlaced = ({ data: d }: BidPlaced, uow: UnitOfWork): void =>
  uow.put<CatalogBidDoc>(catalogBids.name, d.bidId, {
    auctionId: d.auctionId,
    bidderId: d.bidderId,
    amount: d.amount,
    maxAmount: Math.max(d.amount, d.maxAmount ?? 0),
    createdAt: d.at,
    updatedAt: d.at,
    retracted: false,
    enteredAt: d.at,
    bound: d.endsAt !== undefined,
    answered: d.outbidByProxy === true,
  } satisfies CatalogBid);

/** A standing bid raised by its bidder or automatically: it leads at its new amount. */
const bidRaised = (event: BidEdited | AutomaticBidPlaced, uow: UnitOfWork): Promise<void> => {
  const d = event.data;
  const maxAmount = 'maxAmount' in d ? d.maxAmount : undefined;
  return updateBid(uow, d.bidId, (bid) => ({
    ...bid,
    amount: d.amount,
    maxAmount: Math.max(d.amount, maxAmount ?? 0, bid.maxAmount ?? bid.amount),
    automatic: event.type === 'AutomaticBidPlaced',
    updatedAt: d.at,
    ...(event.type === 'BidEdited'
      ? {
          enteredAt: d.at,
          ...(event.data.outbidByProxy ? { answered: true } : {}),
          ...(d.endsAt === undefined ? {} : { bound: true }),
        }
      : { bound: true }),
  }));
};

const applyCategoryCreated = async (event: CategoryCreated, uow: UnitOfWork): Promise<void> => {
  const d = event.data;
  await uow.update<CatalogCategoryDoc>(
    catalogCategories.name,
    d.categoryId,
    (): CatalogCategory => ({
      name: d.name,
      description: d.description,
      createdAt: d.at,
    }),
  );
  // The command bus checks the category exists first; this only repairs an out-of-order log.
  const unnamed = await uow.find<CatalogAuctionDoc>(catalogAuctions.name, {
    where: { categoryName: '' },
  });
  for (const auction of unnamed.filter((a) => a.categoryId === d.categoryId)) {
    await updateAuction(uow, auction._id, (a) => ({ ...a, categoryName: d.name }));
  }
};

/** The catalog: auctions with their bids and categories, for the lists and the detail page. */
export const catalogProjection: Projection = {
  name: 'catalog',
  collections: [catalogAuctions, catalogBids, catalogCategories],
  async handle(event: RecordedEvent, uow: UnitOfWork): Promise<void> {
    const auctionEvent = asAuctionEvent(event);
    if (auctionEvent) return applyAuctionEvent(auctionEvent, event.revision, uow);
    const categoryCreated = asCategoryCreated(event);
    if (categoryCreated) return applyCategoryCreated(categoryCreated, uow);
  },
};
