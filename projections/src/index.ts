import { activityProjection } from './activity/index';
import { catalogProjection } from './catalog/index';
import { notificationsProjection } from './notifications/index';
import type { Projection } from './runner/projection';
import { winningsProjection } from './winnings/index';
import { watchlistProjection } from './watchlist/index';

export type {
  ReadStore,
  Doc,
  CollectionSpec,
  FindOptions,
  FindAfter,
  Where,
  Condition,
  IndexValue,
  Write,
} from './read-store/read-store';
export { SqliteReadStore, type SqliteReadStoreOptions } from './read-store/sqlite-read-store';
export { openSqlite, type SqliteOpenOptions } from './read-store/sqlite-connection';
export { MongoReadStore, type MongoReadStoreOptions } from './read-store/mongo-read-store';
export type { Projection, ProjectedEvent, UnitOfWork } from './runner/projection';
export {
  ProjectionRunner,
  applyBatch,
  type EventSource,
  type LeaseOptions,
  type ProjectionStatus,
  type RunnerOptions,
} from './runner/projection-runner';
export { type UserDirectory, type AccountRecord, accountsCollection } from './users/user-directory';
export { type ImageUrl, imageView, storedImagePath } from './images';
export {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  pagedLists,
  type Page,
  type PageRequest,
  type PagedList,
} from './paging';
export * from './catalog/index';
export * from './activity/index';
export * from './winnings/index';
export * from './notifications/index';
export * from './watchlist/index';

/** Every read model, in the order the runner starts them. */
export const allProjections: readonly Projection[] = [
  catalogProjection,
  activityProjection,
  winningsProjection,
  notificationsProjection,
  watchlistProjection,
];
