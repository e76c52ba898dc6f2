import { DomainError, auctionOperations as ops, rejection } from '@auction/contracts';
import {
  auctionBidsPage,
  auctionDetail,
  featuredAuctions,
  liveAuctionsList,
  liveAuctionsPage,
} from '@auction/projections';
import type { AppDeps } from '../../../app-deps';
import { fromEngine } from '../../middleware/readiness';
import { pageRequest } from '../../paging';
import { respond } from '../../respond';
import type { routesOn } from '../../route';
import { withWatching } from '../watchlist/routes';
import { auctionBidsFromEngine, auctionDetailFromEngine } from './from-engine';

/** What anyone may read: live auctions, one auction and its bids, the featured ones. */
export const browsingRoutes = (route: ReturnType<typeof routesOn>, deps: AppDeps): void => {
  route(ops.liveAuctions, async (req, res, { query }) => {
    const { search, category, sort, ...paging } = query();
    // A cursor names a place in one order: another order's cursor is refused (400).
    const page = pageRequest(liveAuctionsList(sort), paging);
    const { items: auctions, nextCursor } = await liveAuctionsPage(
      deps.read,
      deps.users,
      { search, category, sort },
      page,
      deps.imageUrl,
    );
    respond(res, 200, 'Auctions Fetched', {
      auctions: await withWatching(deps, req, auctions),
      nextCursor,
    });
  });

  route(ops.auctionDetail, async (req, res, { query }) => {
    const { auctionId } = query();
    if (fromEngine(req)) {
      // The read models are catching up at start: the engine's state, as the catalog will show it.
      const view = await auctionDetailFromEngine(deps, auctionId, req.user?.id);
      if (!view) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
      const shown = req.user
        ? { ...view, watching: await deps.engine.isWatching(req.user.id, auctionId) }
        : view;
      return respond(res, 200, 'Auction Fetched', { auctionDetails: shown });
    }
    const auctionDetails = await auctionDetail(
      deps.read,
      deps.users,
      auctionId,
      deps.imageUrl,
      req.user?.id,
    );
    if (!auctionDetails) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    const [shown] = await withWatching(deps, req, [auctionDetails]);
    respond(res, 200, 'Auction Fetched', { auctionDetails: shown });
  });

  route(ops.auctionBids, async (req, res, { query }) => {
    const { auctionId, ...paging } = query();
    const page = fromEngine(req)
      ? await auctionBidsFromEngine(deps, auctionId, pageRequest('bids', paging))
      : await auctionBidsPage(deps.read, deps.users, auctionId, pageRequest('bids', paging));
    if (!page) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    respond(res, 200, 'Bids Fetched', { bids: page.items, nextCursor: page.nextCursor });
  });

  route(ops.featured, async (req, res) => {
    const featured = await featuredAuctions(deps.read, deps.users, deps.imageUrl);
    respond(res, 200, 'Featured Auctions Fetched', {
      featured: await withWatching(deps, req, featured),
    });
  });
};
