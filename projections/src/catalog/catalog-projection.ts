import type {
  AuctionClosed,
  AuctionCreated,
  AuctionEdited,
  AuctionEvent,
  AutomaticBidPlaced,
  BidEdited,
  BidMaximumRaised,
  BidPlaced,
  BidRetracted,
  CategoryCreated,
  IncrementRule,
  SoftClose,
} from '@auction/contracts';
import type { CollectionSpec, Doc } from '../read-store/read-store';
import type { ProjectedEvent, Projection, UnitOfWork } from '../runner/projection';
import { asAuctionEvent } from '@auction/contracts';
import { asCategoryCreated } from '../runner/events';

export type CatalogStatus = 'Live' | 'Sold' | 'Expired' | 'Cancelled';

/** One auction as the catalog keeps it. Money in cents, times ISO. */
export type CatalogAuction = {
  readonly auctionId: string;
  readonly title: string;
  readonly description: string;
  readonly categoryId: string;
  /** Empty until the category is known. */
  readonly categoryName: string;
  readonly startingPrice: number;
  /** The highest standing bid, 0 when none. */
  readonly currentBid: number;
  readonly leadingBidId: string | null;
  readonly image: string | null;
  readonly sellerId: string;
  readonly endsAt: string;
  /** Its increment rule; absent as in its AuctionCreated: created under the table (`legacyIncrementRule`). */
  readonly increments?: IncrementRule;
  /** The soft close it was created with (absent in documents written before soft close). */
  readonly softClose?: SoftClose | null;
  /** Whether a bid in the soft-close window has moved the end. */
  readonly extended?: boolean;
  /** Cents; the seller's secret minimum (never shown to others). Absent or null: none. */
  readonly reservePrice?: number | null;
  /** Cents; absent or null: no Buy It Now. */
  readonly buyNowPrice?: number | null;
  /** Sold at the Buy It Now price. */
  readonly boughtNow?: boolean;
  /** Closed without a winner although there were bids: none reached the reserve. */
  readonly reserveNotMet?: boolean;
  readonly status: CatalogStatus;
  readonly createdAt: string;
  /** Standing (non-retracted) bids. */
  readonly bidCount: number;
  readonly winnerId: string | null;
  readonly winningBidId: string | null;
  readonly finalPrice: number | null;
  /** Stream revision of the last event applied. */
  readonly revision: number;
};

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
  indexes: ['status', 'sellerId', 'createdAt', 'title', 'categoryName'],
  // Lists, a page at a time: Live newest first (title filtered on the way), a category's Live
  // newest first, a seller's newest first; auctions whose category is not named yet.
  compoundIndexes: [
    ['status', 'createdAt'],
    ['sellerId', 'createdAt'],
    ['categoryName', 'status', 'createdAt'],
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

/** Each event's writes, in the order they reach the unit of work. */
const applyAuctionEvent = (
  event: AuctionEvent,
  revision: number,
  uow: UnitOfWork,
): Promise<void> => {
  switch (event.type) {
    case 'AuctionCreated':
      return auctionCreated(event, revision, uow);
    case 'AuctionEdited':
      return auctionEdited(event, revision, uow);
    case 'AuctionCancelled':
      // A cancelled auction's image is removed from the image store (api/src/followers/image-cleanup.ts).
      return updateAuction(uow, event.data.auctionId, (a) => ({
        ...a,
        status: 'Cancelled',
        image: null,
        revision,
      }));
    case 'BidPlaced':
      return bidPlaced(event, revision, uow);
    case 'BidEdited':
    case 'AutomaticBidPlaced':
      return bidRaised(event, revision, uow);
    case 'BidMaximumRaised':
      return maximumRaised(event, revision, uow);
    case 'BidRetracted':
      return bidRetracted(event, revision, uow);
    case 'AuctionClosed':
      return auctionClosed(event, revision, uow);
    case 'AuctionEndingSoon':
      // Nothing shown changes (watchers are notified); the revision moves with the stream.
      return updateAuction(uow, event.data.auctionId, (a) => ({ ...a, revision }));
    default: {
      const _exhaustive: never = event;
      throw new Error(`Unknown auction event ${(_exhaustive as { type: string }).type}`);
    }
  }
};

const auctionCreated = async (
  { data: d }: AuctionCreated,
  revision: number,
  uow: UnitOfWork,
): Promise<void> => {
  const category = await uow.get<CatalogCategoryDoc>(catalogCategories.name, d.categoryId);
  return uow.update<CatalogAuctionDoc>(catalogAuctions.name, d.auctionId, (): CatalogAuction => ({
    auctionId: d.auctionId,
    title: d.title,
    description: d.description,
    categoryId: d.categoryId,
    categoryName: category?.name ?? '',
    startingPrice: d.startingPrice,
    currentBid: 0,
    leadingBidId: null,
    image: d.image,
    sellerId: d.sellerId,
    endsAt: d.endsAt,
    ...(d.increments === undefined ? {} : { increments: d.increments }),
    softClose: d.softClose ?? null,
    extended: false,
    reservePrice: d.reservePrice ?? null,
    buyNowPrice: d.buyNowPrice ?? null,
    status: 'Live',
    createdAt: d.at,
    bidCount: 0,
    winnerId: null,
    winningBidId: null,
    finalPrice: null,
    revision,
  }));
};

const auctionEdited = ({ data: d }: AuctionEdited, revision: number, uow: UnitOfWork) =>
  updateAuction(uow, d.auctionId, (a) => ({
    ...a,
    title: d.title ?? a.title,
    description: d.description ?? a.description,
    image: d.image === undefined ? a.image : d.image,
    startingPrice: d.startingPrice ?? a.startingPrice,
    endsAt: d.endsAt ?? a.endsAt,
    reservePrice: d.reservePrice === undefined ? a.reservePrice : d.reservePrice,
    buyNowPrice: d.buyNowPrice === undefined ? a.buyNowPrice : d.buyNowPrice,
    revision,
  }));

const bidPlaced = ({ data: d }: BidPlaced, revision: number, uow: UnitOfWork) => {
  // The bid's own document, made whole by this event: written without a read.
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
  return updateAuction(uow, d.auctionId, (a) => ({
    ...a,
    currentBid: d.amount,
    leadingBidId: d.bidId,
    bidCount: a.bidCount + 1,
    ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
    revision,
  }));
};

/** A standing bid raised by its bidder or automatically: it leads at its new amount. */
const bidRaised = async (
  event: BidEdited | AutomaticBidPlaced,
  revision: number,
  uow: UnitOfWork,
): Promise<void> => {
  const d = event.data;
  const maxAmount = 'maxAmount' in d ? d.maxAmount : undefined;
  await updateBid(uow, d.bidId, (bid) => ({
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
  return updateAuction(uow, d.auctionId, (a) => ({
    ...a,
    currentBid: d.amount,
    leadingBidId: d.bidId,
    ...(d.endsAt === undefined ? {} : { endsAt: d.endsAt, extended: true }),
    revision,
  }));
};

const maximumRaised = async (
  { data: d }: BidMaximumRaised,
  revision: number,
  uow: UnitOfWork,
): Promise<void> => {
  await updateBid(uow, d.bidId, (bid) => ({ ...bid, maxAmount: d.maxAmount, enteredAt: d.at }));
  return updateAuction(uow, d.auctionId, (a) => ({ ...a, revision }));
};

const bidRetracted = async (
  { data: d }: BidRetracted,
  revision: number,
  uow: UnitOfWork,
): Promise<void> => {
  await updateBid(uow, d.bidId, (bid) => ({
    ...bid,
    retracted: true,
    updatedAt: d.at,
  }));
  return updateAuction(uow, d.auctionId, (a) => ({
    ...a,
    currentBid: d.currentBid,
    leadingBidId: d.leadingBidId,
    bidCount: a.bidCount - 1,
    revision,
  }));
};

const auctionClosed = ({ data: d }: AuctionClosed, revision: number, uow: UnitOfWork) =>
  updateAuction(uow, d.auctionId, (a) =>
    d.outcome === 'Sold'
      ? {
          ...a,
          status: 'Sold',
          winnerId: d.winnerId,
          winningBidId: d.winningBidId,
          finalPrice: d.finalPrice,
          ...(d.boughtNow ? { boughtNow: true } : {}),
          revision,
        }
      : {
          ...a,
          status: 'Expired',
          ...(d.reserveNotMet ? { reserveNotMet: true } : {}),
          revision,
        },
  );

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
  async handle(event: ProjectedEvent, uow: UnitOfWork): Promise<void> {
    const auctionEvent = asAuctionEvent(event);
    if (auctionEvent) return applyAuctionEvent(auctionEvent, event.revision, uow);
    const categoryCreated = asCategoryCreated(event);
    if (categoryCreated) return applyCategoryCreated(categoryCreated, uow);
  },
};
