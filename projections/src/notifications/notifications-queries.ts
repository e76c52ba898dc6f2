import type { NotificationView } from '@auction/contracts';
import { type Page, type PageRequest, findPage } from '../paging';
import type { CollectionSpec, Doc, ReadStore } from '../read-store/read-store';
import { type NotificationDoc, notificationsCollections } from './notifications-projection';

/**
 * Per-user read and clear state (`_id` = user id), owned by the API rather than a projection.
 * Both cursors are global log positions, so they stay right when the projection is rebuilt.
 */
export const notificationCursorsCollection: CollectionSpec = {
  name: 'notifications_cursors',
  indexes: [],
};

const CURSORS = notificationCursorsCollection.name;
const ITEMS = notificationsCollections.items.name;

/** Notifications at or before `readUpTo` are read; those at or before `clearedUpTo` are hidden. */
export interface NotificationCursor {
  readonly readUpTo: number;
  readonly clearedUpTo: number;
}
type CursorDoc = Doc & NotificationCursor;

const cursorOf = async (store: ReadStore, userId: string): Promise<NotificationCursor> => {
  const doc = (await store.get(CURSORS, userId)) as CursorDoc | undefined;
  return { readUpTo: doc?.readUpTo ?? 0, clearedUpTo: doc?.clearedUpTo ?? 0 };
};

const newestFirst = (userId: string, limit: number) => ({
  where: { userId },
  orderBy: [{ field: 'position', direction: 'desc' }] as const,
  limit,
});

export interface NotificationCursors {
  /** Creates the cursors collection if missing; call before the other methods and the query. */
  init(): Promise<void>;
  /** Marks every notification the user has now as read; later ones arrive unread. */
  markAllRead(userId: string): Promise<void>;
  /** Hides every notification the user has now; later ones still show. */
  clearAll(userId: string): Promise<void>;
}

/** The service behind mark-all-as-read and clear-all: it moves the user's cursors forward. */
export const notificationCursors = (store: ReadStore): NotificationCursors => {
  const advance = async (userId: string, cursor: keyof NotificationCursor): Promise<void> => {
    const [newest] = (await store.find(ITEMS, newestFirst(userId, 1))) as NotificationDoc[];
    if (!newest) return;
    const current = await cursorOf(store, userId);
    if (current[cursor] >= newest.position) return;
    await store.upsert(CURSORS, {
      _id: userId,
      _position: 0,
      ...current,
      [cursor]: newest.position,
    });
  };
  return {
    init: () => store.ensureCollections([notificationCursorsCollection]),
    markAllRead: (userId) => advance(userId, 'readUpTo'),
    clearAll: (userId) => advance(userId, 'clearedUpTo'),
  };
};

const toView =
  (readUpTo: number) =>
  (doc: NotificationDoc): NotificationView => ({
    _id: doc._id,
    message: doc.message,
    timestamp: doc.timestamp,
    isRead: doc.position <= readUpTo,
    auctionId: doc.auctionId,
  });

/** Notifications a page at a time (default 50): the user's not cleared, newest first. */
export const userNotificationsPage = async (
  store: ReadStore,
  userId: string,
  { limit = 50, after }: PageRequest = {},
): Promise<Page<NotificationView>> => {
  const { readUpTo, clearedUpTo } = await cursorOf(store, userId);
  const { docs, nextCursor } = await findPage(
    'notifications',
    (options) => store.find(ITEMS, options) as Promise<NotificationDoc[]>,
    { where: { userId }, orderBy: [{ field: 'position', direction: 'desc' }] },
    { limit, ...(after ? { after } : {}) },
    // Newest first: the first cleared one is followed by cleared ones only.
    (doc) => doc.position > clearedUpTo,
  );
  return { items: docs.map(toView(readUpTo)), nextCursor };
};

/** The user's notifications not cleared, newest first, at most `limit`. */
export const userNotifications = async (
  store: ReadStore,
  userId: string,
  { limit = 50 }: { readonly limit?: number } = {},
): Promise<NotificationView[]> => {
  const { readUpTo, clearedUpTo } = await cursorOf(store, userId);
  const docs = (await store.find(ITEMS, newestFirst(userId, limit))) as NotificationDoc[];
  return docs
    .filter((doc) => doc.position > clearedUpTo)
    .map((doc) => ({
      _id: doc._id,
      message: doc.message,
      timestamp: doc.timestamp,
      isRead: doc.position <= readUpTo,
      auctionId: doc.auctionId,
    }));
};
