export {
  watchlistProjection,
  watchlistCollections,
  watchlistEntryId,
  type WatchlistEntryDoc,
  type WatchlistEntryFields,
} from './watchlist-projection';
export { watchListCount, watchedAmong, watcherCount, watchlistPage } from './watchlist-queries';
