import type { AuctionEvent, CategoryCreated } from '@auction/contracts';
import type { CollectionSpec, Doc } from '../read-store/read-store';
import { asAuctionEvent } from '@auction/contracts';
import { asCategoryCreated } from '../runner/events';
import type { Projection, UnitOfWork } from '../runner/projection';

/** The collections of the `winnings` projection. Money in them is in cents. */
export const winningsCollections = {
  categories: { name: 'winnings_categories', indexes: [] },
  auctions: { name: 'winnings_auctions', indexes: [] },
  items: {
    name: 'winnings_items',
    indexes: ['winnerId', 'wonDate'],
    compoundIndexes: [['winnerId', 'wonDate']],
  },
} as const satisfies Record<string, CollectionSpec>;

const CATEGORIES = winningsCollections.categories.name;
const AUCTIONS = winningsCollections.auctions.name;
const ITEMS = winningsCollections.items.name;

interface CategoryFields {
  readonly name: string;
}
type CategoryDoc = Doc & CategoryFields;

/** What a won item shows of its auction, kept current while the auction is Live. */
interface AuctionFields {
  readonly title: string;
  readonly description: string;
  readonly image: string | null;
  readonly categoryId: string;
  readonly startingPrice: number;
  readonly sellerId: string;
}
type AuctionDoc = Doc & AuctionFields;

/** One Sold auction (`_id` = auction id), as its winner sees it. */
export interface WonItemFields {
  readonly winnerId: string;
  readonly title: string;
  readonly description: string;
  readonly image: string | null;
  readonly categoryId: string;
  /** Null when the category is unknown to the read side. */
  readonly categoryName: string | null;
  readonly finalPrice: number;
  /** The starting price. */
  readonly originalPrice: number;
  /** When the auction closed. */
  readonly wonDate: string;
  readonly sellerId: string;
}
export type WonItemDoc = Doc & WonItemFields;

const saveCategory = (event: CategoryCreated, uow: UnitOfWork): Promise<void> =>
  uow.update<CategoryDoc>(CATEGORIES, event.data.categoryId, () => ({
    name: event.data.name,
  }));

const applyAuctionEvent = async (event: AuctionEvent, uow: UnitOfWork): Promise<void> => {
  switch (event.type) {
    case 'AuctionCreated': {
      const d = event.data;
      return uow.update<AuctionDoc>(
        AUCTIONS,
        d.auctionId,
        () =>
          ({
            title: d.title,
            description: d.description,
            image: d.image,
            categoryId: d.categoryId,
            startingPrice: d.startingPrice,
            sellerId: d.sellerId,
          }) satisfies AuctionFields,
      );
    }
    case 'AuctionEdited': {
      const d = event.data;
      return uow.update<AuctionDoc>(AUCTIONS, d.auctionId, (current) =>
        current
          ? ({
              title: d.title ?? current.title,
              description: d.description ?? current.description,
              image: d.image === undefined ? current.image : d.image,
              categoryId: current.categoryId,
              startingPrice: d.startingPrice ?? current.startingPrice,
              sellerId: current.sellerId,
            } satisfies AuctionFields)
          : undefined,
      );
    }
    case 'AuctionClosed': {
      const d = event.data;
      if (d.outcome !== 'Sold') return;
      const auction = await uow.get<AuctionDoc>(AUCTIONS, d.auctionId);
      if (!auction) return;
      const category = await uow.get<CategoryDoc>(CATEGORIES, auction.categoryId);
      return uow.update<WonItemDoc>(
        ITEMS,
        d.auctionId,
        () =>
          ({
            winnerId: d.winnerId,
            title: auction.title,
            description: auction.description,
            image: auction.image,
            categoryId: auction.categoryId,
            categoryName: category?.name ?? null,
            finalPrice: d.finalPrice,
            originalPrice: auction.startingPrice,
            wonDate: d.at,
            sellerId: auction.sellerId,
          }) satisfies WonItemFields,
      );
    }
    case 'AuctionCancelled':
    case 'BidPlaced':
    case 'BidEdited':
    case 'BidMaximumRaised':
    case 'AutomaticBidPlaced':
    case 'BidRetracted':
    case 'AuctionEndingSoon':
      return;
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
};

/** Won items per winner: one document per Sold auction, with what the auction showed at close. */
export const winningsProjection: Projection = {
  name: 'winnings',
  collections: Object.values(winningsCollections),
  handle: async (event, uow) => {
    const category = asCategoryCreated(event);
    if (category) return saveCategory(category, uow);
    const auctionEvent = asAuctionEvent(event);
    if (auctionEvent) return applyAuctionEvent(auctionEvent, uow);
  },
};
