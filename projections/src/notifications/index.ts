export {
  notificationsProjection,
  notificationsCollections,
  type NotificationDoc,
  type NotificationFields,
  type NotificationKind,
} from './notifications-projection';
export {
  notificationCursors,
  notificationCursorsCollection,
  userNotifications,
  type NotificationCursor,
  type NotificationCursors,
} from './notifications-queries';
