import { centsToDollars } from '@auction/contracts';
import type { HistoryEntry, ProfileStatistics, RecentActivity } from '@auction/contracts';
import { type ImageUrl, storedImagePath } from '../images';
import { type Page, type PageRequest, findPage } from '../paging';
import type { ReadStore } from '../read-store/read-store';
import {
  type CatalogAuction,
  type CatalogAuctionDoc,
  catalogAuctions,
} from '../catalog/catalog-projection';
import {
  type BidEntryFields,
  type HistoryEntryDoc,
  type HistoryEntryFields,
  type ProfileDoc,
  activityHistory,
  activityProfiles,
  emptyProfile,
} from './activity-projection';

export const DEFAULT_HISTORY_LIMIT = 20;
export const RECENT_ACTIVITY_LIMIT = 5;

/** The History page's filter: every entry, or one type. */
export type HistoryFilter = 'all' | HistoryEntry['type'];

export interface HistoryOptions {
  readonly type?: HistoryFilter;
  /** At most this many entries (default 20). */
  readonly limit?: number;
}

export interface UserProfileView {
  readonly statistics: ProfileStatistics;
  readonly recentActivity: RecentActivity[];
}

const newestFirst = [{ field: 'date', direction: 'desc' }] as const;

/** What an entry's view and status take from its auction: the catalog's, as it is now. */
export type EntryAuction = Pick<
  CatalogAuction,
  'title' | 'image' | 'status' | 'leadingBidId' | 'winningBidId'
>;

const bidStatus = (entry: BidEntryFields, auction: EntryAuction): HistoryEntry['status'] => {
  if (entry.retracted) return 'retracted';
  switch (auction.status) {
    case 'Live':
      return auction.leadingBidId === entry.bidId ? 'active' : 'outbid';
    case 'Sold':
      return auction.winningBidId === entry.bidId ? 'completed' : 'lost';
    case 'Expired':
      // Closed without a sale (no bid reached the reserve): no bid won.
      return 'lost';
    case 'Cancelled':
      return 'cancelled';
    default: {
      const unexpected: never = auction.status;
      throw new Error(`Unknown auction status ${String(unexpected)}`);
    }
  }
};

const createdStatus = (auction: EntryAuction): HistoryEntry['status'] => {
  switch (auction.status) {
    case 'Live':
      return 'active';
    case 'Sold':
    case 'Expired':
      return 'completed';
    case 'Cancelled':
      return 'cancelled';
    default: {
      const unexpected: never = auction.status;
      throw new Error(`Unknown auction status ${String(unexpected)}`);
    }
  }
};

/** An entry's status as of now, from its auction's current state. */
export const historyStatus = (
  entry: HistoryEntryFields,
  auction: EntryAuction,
): HistoryEntry['status'] => {
  switch (entry.type) {
    case 'created':
      return createdStatus(auction);
    case 'bid':
      return bidStatus(entry, auction);
    case 'won':
      return 'completed';
    default: {
      const unexpected: never = entry;
      throw new Error(`Unknown history type ${(unexpected as { type: string }).type}`);
    }
  }
};

/** The entries' auctions from the catalog, in one read. */
const auctionsOf = async (
  store: ReadStore,
  entries: readonly HistoryEntryDoc[],
): Promise<Map<string, EntryAuction>> => {
  const ids = [...new Set(entries.map((entry) => entry.auctionId))];
  if (ids.length === 0) return new Map();
  return (await store.getMany(catalogAuctions.name, ids)) as Map<string, CatalogAuctionDoc>;
};

const historyViews = async (
  store: ReadStore,
  entries: readonly HistoryEntryDoc[],
  imageUrl: ImageUrl,
): Promise<HistoryEntry[]> => {
  const auctions = await auctionsOf(store, entries);
  return entries.flatMap((entry): HistoryEntry[] => {
    const auction = auctions.get(entry.auctionId);
    if (!auction) return [];
    return [
      {
        id: entry._id,
        type: entry.type,
        auctionId: entry.auctionId,
        title: auction.title,
        image: auction.image === null ? null : imageUrl(auction.image),
        amount: centsToDollars(entry.amount),
        status: historyStatus(entry, auction),
        date: entry.date,
      },
    ];
  });
};

/** The user's history, newest first, each entry joined with its auction as it is now. */
export const userHistory = async (
  store: ReadStore,
  userId: string,
  { type = 'all', limit = DEFAULT_HISTORY_LIMIT }: HistoryOptions = {},
  imageUrl: ImageUrl = storedImagePath,
): Promise<HistoryEntry[]> =>
  historyViews(
    store,
    (await store.find(activityHistory.name, {
      where: type === 'all' ? { userId } : { userId, type },
      orderBy: newestFirst,
      limit,
    })) as HistoryEntryDoc[],
    imageUrl,
  );

/** The user's history a page at a time (`limit` a page, default 20), newest first. */
export const userHistoryPage = async (
  store: ReadStore,
  userId: string,
  { type = 'all', limit = DEFAULT_HISTORY_LIMIT, after }: HistoryOptions & PageRequest = {},
  imageUrl: ImageUrl = storedImagePath,
): Promise<Page<HistoryEntry>> => {
  const { docs, nextCursor } = await findPage(
    'history',
    (options) => store.find(activityHistory.name, options) as Promise<HistoryEntryDoc[]>,
    { where: type === 'all' ? { userId } : { userId, type }, orderBy: [...newestFirst] },
    { limit, ...(after ? { after } : {}) },
  );
  return { items: await historyViews(store, docs, imageUrl), nextCursor };
};

/** "My Profile": the user's counters and their most recent bids. */
export const userProfile = async (store: ReadStore, userId: string): Promise<UserProfileView> => {
  const [profile, bids] = await Promise.all([
    store.get(activityProfiles.name, userId) as Promise<ProfileDoc | undefined>,
    store.find(activityHistory.name, {
      where: { userId, type: 'bid' },
      orderBy: newestFirst,
      limit: RECENT_ACTIVITY_LIMIT,
    }) as Promise<HistoryEntryDoc[]>,
  ]);
  const counters = profile ?? emptyProfile;
  const auctions = await auctionsOf(store, bids);
  return {
    statistics: {
      totalAuctions: counters.totalAuctions,
      totalWinnings: counters.totalWinnings,
      totalBids: counters.totalBids,
      totalWinningsValue: centsToDollars(counters.totalWinningsValue),
      // The watchlist read model's (`watchListCount`): the profile route puts it in.
      watchListCount: 0,
      activeAuctions: counters.activeAuctions,
      completedAuctions: counters.completedAuctions,
    },
    recentActivity: bids.flatMap((entry): RecentActivity[] => {
      const auction = auctions.get(entry.auctionId);
      if (!auction || entry.type !== 'bid') return [];
      return [
        {
          _id: entry.bidId,
          product: { _id: entry.auctionId, title: auction.title },
          amount: centsToDollars(entry.amount),
          createdAt: entry.date,
        },
      ];
    }),
  };
};
