import {
  type AuctionView,
  DomainError,
  rejection,
  watchlistOperations as ops,
} from '@auction/contracts';
import { auctionDetail, watchedAmong, watchlistPage } from '@auction/projections';
import { type Request, type Response, Router } from 'express';
import type { AppDeps } from '../../../app-deps';
import { pageRequest } from '../../paging';
import type { ReadYourWrites } from '../../middleware/read-your-writes';
import { limiter } from '../../middleware/rate-limit';
import { commandMetadata, currentUser } from '../../request-context';
import { respond } from '../../respond';
import { routesOn } from '../../route';

export const WATCHED = 'Auction added to your watchlist';
export const UNWATCHED = 'Auction removed from your watchlist';
export const TOO_MANY_WATCHES = 'Too many watchlist changes, please slow down';

/**
 * `watching` on auctions for the signed-in user (absent for a guest): one read for the lot, so
 * lists show their watch stars without a request per card.
 */
export const withWatching = async <A extends AuctionView>(
  deps: AppDeps,
  req: Request,
  auctions: readonly A[],
): Promise<A[]> => {
  if (!req.user) return [...auctions];
  const watched = await watchedAmong(
    deps.read,
    req.user.id,
    auctions.map((auction) => auction._id),
  );
  return auctions.map((auction) => ({ ...auction, watching: watched.has(auction._id) }));
};

/**
 * The watchlist: `POST` and `DELETE /auction/watch/:id` watch and unwatch an auction
 * (idempotent; 404 for an unknown auction; a cancelled one cannot be watched, 409, but can be
 * unwatched), and `GET /user/watchlist` pages the user's watched auctions as auction cards. Every
 * route needs a session (401).
 */
export const watchlistRoutes = (deps: AppDeps, consistency: ReadYourWrites): Router => {
  const router = Router();
  const route = routesOn(router);
  // Every change is an event in the user's watchlist stream: toggling must not grow the log
  // without bound. Keyed by user (a guest gets the 401 from `currentUser`).
  const limited = limiter({
    windowMs: 60_000,
    limit: deps.config.RATE_LIMIT_WATCHES,
    key: (req) => currentUser(req).id,
    message: TOO_MANY_WATCHES,
    store: deps.rateLimits('watches'),
  });

  const watch = async (req: Request, res: Response, id: string, watching: boolean) => {
    const user = currentUser(req);
    const auction = await auctionDetail(deps.read, deps.users, id, deps.imageUrl);
    if (!auction) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    if (watching && auction.status === 'Cancelled')
      throw new DomainError(rejection('WATCH_CANCELLED_AUCTION'));
    const { position } = await deps.engine.watch(
      { userId: user.id, auctionId: id, watching },
      commandMetadata(req, deps, user.id, id),
    );
    // Read-your-writes: the list, the count and the stars show it on the client's next read.
    consistency.written(req, res, position);
    return id;
  };

  route(ops.watch, limited, async (req, res, { params }) => {
    const auctionId = await watch(req, res, params().id, true);
    respond(res, 200, WATCHED, { auctionId, watching: true });
  });

  route(ops.unwatch, limited, async (req, res, { params }) => {
    const auctionId = await watch(req, res, params().id, false);
    respond(res, 200, UNWATCHED, { auctionId, watching: false });
  });

  route(ops.watchlist, async (req, res, { query }) => {
    const user = currentUser(req);
    const page = pageRequest('watchlist', query());
    const { items: auctions, nextCursor } = await watchlistPage(
      deps.read,
      deps.users,
      user.id,
      page,
      deps.imageUrl,
    );
    respond(res, 200, 'Watchlist fetched', { auctions, nextCursor });
  });

  return router;
};
