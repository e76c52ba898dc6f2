import type { NotificationView } from '@auction/contracts';
import { create } from 'zustand';
import { notify } from '../../lib/toast';
import { notificationsApi } from './api';

interface NotificationsState {
  items: NotificationView[];
  open: boolean;
  toggle: () => void;
  close: () => void;
  fetch: () => Promise<void>;
  markAllRead: () => Promise<void>;
  clearAll: () => Promise<void>;
  reset: () => void;
}

/** The bell's slice: the user's notifications, refetched after every change (spec §4). */
export const useNotifications = create<NotificationsState>()((set, get) => ({
  items: [],
  open: false,
  toggle: () => set((state) => ({ open: !state.open })),
  close: () => set({ open: false }),
  fetch: async () => {
    try {
      set({ items: (await notificationsApi.list()).data });
    } catch {
      notify.error('Failed to display notifications');
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
  reset: () => set({ items: [], open: false }),
}));

export const unreadCount = (items: readonly NotificationView[]): number =>
  items.filter((item) => !item.isRead).length;
