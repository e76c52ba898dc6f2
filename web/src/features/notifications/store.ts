import type { NotificationView } from '@auction/contracts';
import { create } from 'zustand';
import { appendPage } from '../../lib/paging';
import { onForgetUser } from '../../lib/session/forget';
import { notify } from '../../lib/toast';
import { notificationsApi } from './api';

interface NotificationsState {
  items: NotificationView[];
  /** The cursor of the next (older) page; null when every notification is loaded. */
  nextCursor: string | null;
  loadingMore: boolean;
  /** The last fetch of the newest page failed: the panel says so rather than "No notifications". */
  failed: boolean;
  open: boolean;
  toggle: () => void;
  close: () => void;
  /** The newest page again (after a change, or a new notification). */
  fetch: () => Promise<void>;
  /** The next, older page, appended (the panel asks as it is scrolled to its end). */
  loadMore: () => Promise<void>;
  markAllRead: () => Promise<void>;
  clearAll: () => Promise<void>;
  reset: () => void;
}

/** The bell's slice: the user's notifications, refetched after every change (spec §4). */
export const useNotifications = create<NotificationsState>()((set, get) => ({
  items: [],
  nextCursor: null,
  loadingMore: false,
  failed: false,
  open: false,
  toggle: () => set((state) => ({ open: !state.open })),
  close: () => set({ open: false }),
  fetch: async () => {
    try {
      const { data, nextCursor } = await notificationsApi.list();
      set({ items: data, nextCursor, failed: false });
    } catch {
      set({ failed: true });
      notify.error('Failed to display notifications');
    }
  },
  loadMore: async () => {
    const { nextCursor, loadingMore } = get();
    if (nextCursor === null || loadingMore) return;
    set({ loadingMore: true });
    try {
      const page = await notificationsApi.list(nextCursor);
      // A refetch meanwhile started the list again: this page belongs to the old one.
      if (get().nextCursor !== nextCursor) return;
      set((state) => ({ items: appendPage(state.items, page.data), nextCursor: page.nextCursor }));
    } catch {
      notify.error('Failed to display notifications');
    } finally {
      set({ loadingMore: false });
    }
  },
  markAllRead: async () => {
    try {
      await notificationsApi.markAllRead();
    } catch {
      notify.error('Failed to read notifications');
    }
    await get().fetch();
  },
  clearAll: async () => {
    try {
      await notificationsApi.clearAll();
      set({ open: false });
    } catch {
      notify.error('Failed to delete notifications');
    }
    await get().fetch();
  },
  reset: () => set({ items: [], nextCursor: null, loadingMore: false, failed: false, open: false }),
}));

export const unreadCount = (items: readonly NotificationView[]): number =>
  items.filter((item) => !item.isRead).length;

onForgetUser(() => useNotifications.getState().reset());
