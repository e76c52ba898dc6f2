import { randomUUID } from 'node:crypto';
import { DomainError, auctionOperations as ops } from '@auction/contracts';
import { categoriesPage, notificationCursors, userNotificationsPage } from '@auction/projections';
import { Router } from 'express';
import type { AppDeps } from '../../../app-deps';
import type { ReadYourWrites } from '../../middleware/read-your-writes';
import { pageRequest } from '../../paging';
import { commandMetadata, currentUser, requireLogin } from '../../request-context';
import { respond } from '../../respond';
import { routesOn } from '../../route';
import type { AppPassport } from '../auth/passport';
import { browsingRoutes } from './browsing';
import { priceHistoryRoute } from './price-history';
import { sellingRoutes } from './selling';

type Route = ReturnType<typeof routesOn>;

/** The categories: anyone lists them, a signed-in user adds one. */
const categoryRoutes = (route: Route, deps: AppDeps, consistency: ReadYourWrites): void => {
  route(ops.createCategory, requireLogin, async (req, res, { body }) => {
    const user = currentUser(req);
    const input = body();
    const { commandId, correlationId, at } = commandMetadata(req, deps, user.id);
    const categoryId = randomUUID();
    const outcome = await deps.engine.createCategory({
      categoryId,
      name: input.name,
      description: input.description,
      commandId,
      actorId: user.id,
      correlationId,
      at,
    });
    if (!outcome.ok) throw new DomainError(outcome.rejection);
    consistency.written(req, res, outcome.position);
    await consistency.reach(req, res, ['catalog'], outcome.position);
    // What was recorded is the answer; a catalog still behind the write does not make it null.
    const category = { _id: categoryId, name: outcome.name, description: outcome.description };
    respond(res, 201, 'Category Created', { category });
  });

  route(ops.categories, async (_req, res, { query }) => {
    const page = pageRequest('categories', query());
    const { items: categories, nextCursor } = await categoriesPage(deps.read, page);
    respond(res, 200, 'Categories Fetched', { categories, nextCursor });
  });
};

/** A user's notifications: read them, mark them read, clear them. */
const notificationRoutes = (route: Route, deps: AppDeps): void => {
  const cursors = notificationCursors(deps.read);
  route(ops.notifications, async (req, res, { query }) => {
    const user = currentUser(req);
    const page = pageRequest('notifications', query());
    const { items: data, nextCursor } = await userNotificationsPage(deps.read, user.id, page);
    respond(res, 200, 'Notifications Fetched', { data, nextCursor });
  });

  route(ops.markNotificationsRead, async (req, res) => {
    const user = currentUser(req);
    await cursors.markAllRead(user.id);
    respond(res, 200, 'Notifications marked as read');
  });

  route(ops.clearNotifications, async (req, res) => {
    const user = currentUser(req);
    await cursors.clearAll(user.id);
    respond(res, 200, 'Notifications cleared');
  });
};

/** Auctions, categories and notifications: `/api/v1/auction/...` (spec §7). */
export const auctionRoutes = (
  deps: AppDeps,
  _passport: AppPassport,
  consistency: ReadYourWrites,
): Router => {
  const router = Router();
  const route = routesOn(router, '/auction');
  sellingRoutes(route, deps, consistency);
  browsingRoutes(route, deps);
  priceHistoryRoute(route, deps);
  categoryRoutes(route, deps, consistency);
  notificationRoutes(route, deps);
  return router;
};
