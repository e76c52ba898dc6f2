import {
  HistoryEntry,
  type HistoryType,
  type ProfileView,
  WinningItem,
  WinningsStatistics,
} from '@auction/contracts';
import { z } from 'zod';
import { call } from '../../lib/api-client';

export type Profile = ProfileView;

export type HistoryFilter = 'all' | z.infer<typeof HistoryType>;

export const dashboardApi = {
  history: (type: HistoryFilter = 'all', limit = 20) =>
    call('/user/history', z.object({ history: z.array(HistoryEntry) }), {
      query: { type, limit },
    }),
  winnings: () =>
    call(
      '/user/winnings',
      z.object({ winnings: z.array(WinningItem), statistics: WinningsStatistics }),
    ),
};
