import { NotificationView } from '@auction/contracts';
import { z } from 'zod';
import { call } from '../../lib/api-client';

const Empty = z.object({});

export const notificationsApi = {
  list: () => call('/auction/notifications', z.object({ data: z.array(NotificationView) })),
  markAllRead: () => call('/auction/notifications/mark-read', Empty, { method: 'PATCH' }),
  clearAll: () => call('/auction/notifications/clear', Empty, { method: 'DELETE' }),
};
