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
  userNotificationsPage,
  type NotificationCursor,
  type NotificationCursors,
} from './notifications-queries';
