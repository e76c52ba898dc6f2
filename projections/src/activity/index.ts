export {
  activityProjection,
  activityAuctions,
  activityHistory,
  activityProfiles,
} from './activity-projection';
export {
  DEFAULT_HISTORY_LIMIT,
  RECENT_ACTIVITY_LIMIT,
  historyStatus,
  userHistory,
  userHistoryPage,
  userProfile,
  type HistoryFilter,
  type HistoryOptions,
  type UserProfileView,
} from './activity-queries';
