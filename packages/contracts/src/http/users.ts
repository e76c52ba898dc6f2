import { z } from 'zod';
import { operationTable } from './operation';
import { NextCursor, pageCursor, pageLimit } from './paging';
import { HistoryEntry, ProfileView, WinningItem, WinningsStatistics } from './views';

/** The history page: which entries, and the page (the API's default size when `limit` is absent). */
export const HistoryQuery = z.object({
  type: z
    .enum(['all', 'created', 'won', 'bid'], {
      error: 'type must be one of all, created, won, bid',
    })
    .default('all'),
  limit: pageLimit.optional(),
  cursor: pageCursor,
});

/** `/api/v1/user/...`: the signed-in user's dashboard and account. */
export const userOperations = operationTable({
  profile: {
    method: 'get',
    path: '/user/profile',
    summary: 'Profile, statistics and recent activity',
    auth: 'user',
    ok: 200,
    payload: { data: ProfileView },
  },
  history: {
    method: 'get',
    path: '/user/history',
    summary: 'Auctions created, bid on and won',
    auth: 'user',
    query: HistoryQuery,
    ok: 200,
    payload: { history: z.array(HistoryEntry), nextCursor: NextCursor },
  },
  winnings: {
    method: 'get',
    path: '/user/winnings',
    summary: 'Auctions won and their statistics',
    auth: 'user',
    ok: 200,
    payload: { winnings: z.array(WinningItem), statistics: WinningsStatistics },
  },
  deleteAccount: {
    method: 'delete',
    path: '/user/delete-account',
    summary: 'Delete the account and its personal data',
    auth: 'user',
    ok: 200,
  },
});
