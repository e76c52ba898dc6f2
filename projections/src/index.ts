import { activityProjection } from './activity/index';
import { catalogProjection } from './catalog/index';
import { notificationsProjection } from './notifications/index';
import type { Projection } from './runner/projection';
import { winningsProjection } from './winnings/index';
import { watchlistProjection } from './watchlist/index';

export type { ReadStore, Doc, CollectionSpec, Where, Write } from './read-store/read-store';
export { SqliteReadStore } from './read-store/sqlite-read-store';
export { openSqlite } from './read-store/sqlite-connection';
export { MongoReadStore } from './read-store/mongo-read-store';
export {
  ProjectionRunner,
  applyBatch,
  type EventSource,
  type LeaseOptions,
  type ProjectionStatus,
} from './runner/projection-runner';
export type { UserDirectory } from './users/user-directory';
export { type ImageUrl, imageView, storedImagePath } from './images';
export { decodeCursor, type PageRequest, type PagedList } from './paging';
export {
  catalogProjection,
  catalogAuctions,
  catalogBids,
  catalogCategories,
  type CatalogAuction,
  type CatalogBid,
  auctionDetail,
  auctionBidsPage,
  featuredAuctions,
  sellerAuctions,
  liveAuctionsPage,
  liveAuctionsList,
  sellerAuctionsPage,
  categoriesPage,
  categoryById,
  priceView,
  bidViewsPage,
  bidsPageOf,
  type AuctionFacts,
  auctionView,
  usersOfAuction,
  viewerView,
} from './catalog/index';
export {
  activityAuctions,
  activityHistory,
  DEFAULT_HISTORY_LIMIT,
  userHistoryPage,
  userProfile,
} from './activity/index';
export { winningsCollections, userWinnings } from './winnings/index';
export {
  notificationsCollections,
  notificationCursors,
  userNotificationsPage,
} from './notifications/index';
export {
  watchlistCollections,
  watchListCount,
  watchedAmong,
  watchlistPage,
} from './watchlist/index';

/** Every read model, in the order the runner starts them. */
export const allProjections: readonly Projection[] = [
  catalogProjection,
  activityProjection,
  winningsProjection,
  notificationsProjection,
  watchlistProjection,
];
