import { userOperations as ops } from '@auction/contracts';
import {
  DEFAULT_HISTORY_LIMIT,
  sellerAuctions,
  userHistoryPage,
  userProfile,
  userWinnings,
  watchListCount,
} from '@auction/projections';
import { Router } from 'express';
import { userView } from '../../../accounts/account';
import type { AppDeps } from '../../../app-deps';
import type { AppPassport } from '../auth/passport';
import { commandMetadata, currentUser } from '../../request-context';
import { respond } from '../../respond';
import { SESSION_COOKIE, endSession } from '../../middleware/session';
import { pageRequest } from '../../paging';
import { routesOn } from '../../route';
import { deleteAccount } from './delete-account';

export const userRoutes = (deps: AppDeps, _passport: AppPassport): Router => {
  const router = Router();
  const route = routesOn(router, '/user');
  router.use((req, _res, next) => {
    currentUser(req);
    next();
  });

  route(ops.profile, async (req, res) => {
    const account = currentUser(req);
    const [auctions, won, profile, watched] = await Promise.all([
      sellerAuctions(deps.read, deps.users, account.id, deps.imageUrl),
      userWinnings(deps.read, deps.users, account.id, deps.imageUrl),
      userProfile(deps.read, account.id),
      watchListCount(deps.read, account.id),
    ]);
    respond(res, 200, 'Profile fetched', {
      data: {
        user: {
          ...userView(account, deps.imageUrl),
          products: auctions.filter((auction) => auction.status !== 'Cancelled'),
          winnings: won.winnings,
        },
        statistics: { ...profile.statistics, watchListCount: watched },
        recentActivity: profile.recentActivity,
      },
    });
  });

  route(ops.history, async (req, res, { query }) => {
    const account = currentUser(req);
    const { type, ...paging } = query();
    const { limit = DEFAULT_HISTORY_LIMIT, after } = pageRequest('history', paging);
    const { items: history, nextCursor } = await userHistoryPage(
      deps.read,
      account.id,
      { type, limit, ...(after ? { after } : {}) },
      deps.imageUrl,
    );
    respond(res, 200, 'History fetched', { history, nextCursor });
  });

  route(ops.winnings, async (req, res) => {
    const account = currentUser(req);
    const { winnings, statistics } = await userWinnings(
      deps.read,
      deps.users,
      account.id,
      deps.imageUrl,
    );
    respond(res, 200, 'Winnings fetched', { winnings, statistics });
  });

  route(ops.deleteAccount, async (req, res) => {
    const account = currentUser(req);
    await deleteAccount(deps, account, commandMetadata(req, deps, account.id));
    await endSession(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    respond(res, 200, 'Account Removed');
  });

  return router;
};
