import {
  AuctionView,
  HistoryEntry,
  type HistoryType,
  ProfileStatistics,
  RecentActivity,
  WinningItem,
  WinningsStatistics,
} from '@auction/contracts';
import { z } from 'zod';
import { call } from '../../lib/api-client';
import { SessionUser } from '../session/api';

export const Profile = z.object({
  user: SessionUser.extend({
    createdAt: z.string().optional(),
    products: z.array(AuctionView),
    winnings: z.array(WinningItem),
  }),
  statistics: ProfileStatistics,
  recentActivity: z.array(RecentActivity),
});
export type Profile = z.infer<typeof Profile>;

export type HistoryFilter = 'all' | z.infer<typeof HistoryType>;

export const dashboardApi = {
  profile: () => call('/user/profile', z.object({ data: Profile })),
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
