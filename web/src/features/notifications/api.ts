import { NotificationView } from '@auction/contracts';
import { z } from 'zod';
import { call } from '../../lib/api-client';

const Empty = z.object({});

export const notificationsApi = {
  /** The newest notifications, a page at a time (after the page whose `nextCursor` is given). */
  list: (cursor?: string) =>
    call(
      '/auction/notifications',
      z.object({ data: z.array(NotificationView), nextCursor: z.string().nullable() }),
      { query: { cursor } },
    ),
  markAllRead: () => call('/auction/notifications/mark-read', Empty, { method: 'PATCH' }),
  clearAll: () => call('/auction/notifications/clear', Empty, { method: 'DELETE' }),
};
