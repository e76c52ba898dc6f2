import { randomUUID } from 'node:crypto';
import {
  type AuctionCommand,
  type AuctionView,
  DomainError,
  type EndChange,
  centsToDollars,
  IsoTime,
  auctionOperations as ops,
  fixedCategories,
  rejection,
  rules,
  toIsoTime,
} from '@auction/contracts';
import { fold, initialState } from '@auction/engine';
import {
  auctionBidsPage,
  auctionDetail,
  categoriesPage,
  categoryById,
  featuredAuctions,
  liveAuctionsPage,
  notificationCursors,
  sellerAuctionsPage,
  userNotificationsPage,
} from '@auction/projections';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { AppDeps } from '../../../app-deps';
import type { AppPassport } from '../auth/passport';
import { commandMetadata, currentUser, newId } from '../../request-context';
import { type Accepted, sendCommand } from '../../commands';
import type { ReadYourWrites } from '../../middleware/read-your-writes';
import { auctionView } from '../../../realtime/auction-view';
import { respond } from '../../respond';
import { clientAddress, limiter } from '../../middleware/rate-limit';
import { claimUpload } from '../../middleware/image-upload';
import { imageUploadOf } from '../../middleware/upload-limits';
import { pageRequest } from '../../paging';
import { routesOn } from '../../route';
import { releaseAuctionImages } from '../../../followers/image-cleanup';
import { withWatching } from '../watchlist/routes';

/**
 * `date` at the time of day of `current` (both UTC), the end a date-only edit means; undefined
 * when that is not a time the product can hold.
 */
export const endOnDate = (date: string, current: string): string | undefined => {
  const at = Date.parse(`${date}${current.slice(10)}`);
  if (!Number.isFinite(at)) return undefined;
  const iso = toIsoTime(at);
  return IsoTime.safeParse(iso).success ? iso : undefined;
};

/** The end an edit asks for: as sent, or the sent date at the current end's time of day. */
const newEnd = (change: EndChange | undefined, current: string): string | undefined => {
  if (change === undefined) return undefined;
  if ('at' in change) return change.at;
  const at = endOnDate(change.date, current);
  if (at === undefined)
    throw new DomainError(
      rejection('VALIDATION_FAILED', undefined, 'Auction end date is out of range'),
    );
  return at;
};

const requireLogin: RequestHandler = (req, _res, next) => {
  currentUser(req);
  next();
};

/** Auctions, categories and notifications: `/api/v1/auction/...` (spec §7). */
export const auctionRoutes = (
  deps: AppDeps,
  _passport: AppPassport,
  consistency: ReadYourWrites,
): Router => {
  const router = Router();
  const route = routesOn(router, '/auction');
  const cursors = notificationCursors(deps.read);
  const imageUpload = imageUploadOf(deps);
  // New auctions per user and per address.
  const HOUR_MS = 60 * 60_000;
  const auctionsPerUser = limiter({
    windowMs: HOUR_MS,
    limit: deps.config.RATE_LIMIT_AUCTIONS,
    key: (req) => currentUser(req).id,
    message: 'Too many new auctions, please try again later',
    store: deps.rateLimits('auctions-user'),
  });
  const auctionsPerAddress = limiter({
    windowMs: HOUR_MS,
    limit: deps.config.RATE_LIMIT_AUCTIONS_PER_ADDRESS,
    key: clientAddress,
    message: 'Too many new auctions from this address, please try again later',
    store: deps.rateLimits('auctions-address'),
  });

  const detail = (auctionId: string, viewerId?: string) =>
    auctionDetail(deps.read, deps.users, auctionId, deps.imageUrl, viewerId);

  // The image of a refused command goes; on an outage it stays, as the command may have landed.
  // An accepted one hands the client its consistency token.
  const send = async (
    req: Request,
    res: Response,
    command: AuctionCommand,
    uploadedImage: string | null = null,
  ) => {
    try {
      const outcome = await sendCommand(deps, command);
      consistency.written(req, res, outcome.position);
      return outcome;
    } catch (error) {
      if (error instanceof DomainError && error.code !== 'UNAVAILABLE')
        await deps.images.remove(uploadedImage).catch((removal: unknown) => {
          deps.log("A refused command's image not removed", removal);
        });
      throw error;
    }
  };

  /**
   * A new auction as its own committed events show it, for the 201 of a create the catalog has not
   * applied yet (it lags, or is still catching up at start): a client always gets the auction.
   */
  const createdView = async (outcome: Accepted): Promise<AuctionView | null> => {
    const created = outcome.events.find((event) => event.type === 'AuctionCreated');
    if (created?.type !== 'AuctionCreated') return null;
    const { categoryId, sellerId, at } = created.data;
    const categoryName =
      (await categoryById(deps.read, categoryId).catch(() => undefined))?.name ??
      fixedCategories.find((category) => category.categoryId === categoryId)?.name ??
      '';
    const view = auctionView(
      fold(outcome.events, initialState),
      outcome.revision,
      { createdAt: at, categoryName },
      await deps.users.lookup([sellerId]),
      deps.imageUrl,
    );
    // What the seller alone sees, as the catalog's detail gives it: no bid of theirs, the reserve.
    const { reservePrice } = created.data;
    return {
      ...view,
      viewer: {
        bidId: null,
        maxBid: null,
        retractable: [],
        reservePrice: reservePrice === undefined ? null : centsToDollars(reservePrice),
      },
    };
  };

  // Checked before the body so a stranger learns nothing more than 403; the decider checks again.
  const ownAuction = async (id: string, userId: string): Promise<AuctionView> => {
    const auction = await detail(id);
    if (!auction) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    if (auction.seller._id !== userId) throw new DomainError(rejection('NOT_AUCTION_OWNER'));
    return auction;
  };

  // Counted before the body is read, so a refused create never stores its image.
  const createGuards = [requireLogin, auctionsPerUser, auctionsPerAddress, imageUpload];
  route(ops.createAuction, ...createGuards, async (req, res, { body }) => {
    const user = currentUser(req);
    const input = body();
    const image = claimUpload(req);
    const auctionId = newId(req, user.id, 'auction');
    const outcome = await send(
      req,
      res,
      {
        type: 'CreateAuction',
        data: {
          auctionId,
          title: input.title,
          description: input.description,
          categoryId: input.category,
          startingPrice: input.startingPrice,
          endsAt: input.auctionDate,
          image,
          increments: input.increments ?? deps.config.DEFAULT_INCREMENTS,
          softClose: (input.softClose ?? deps.config.DEFAULT_SOFT_CLOSE) ? rules.softClose : null,
          ...(input.reservePrice === undefined ? {} : { reservePrice: input.reservePrice }),
          ...(input.buyNowPrice === undefined ? {} : { buyNowPrice: input.buyNowPrice }),
        },
        metadata: commandMetadata(req, deps, user.id),
      },
      image,
    );
    // A retry answered with the first outcome keeps the first image: this one goes.
    if (image !== null) await releaseAuctionImages(deps, auctionId, image);
    // No wait for the catalog: where it has not applied the auction yet, the events show it.
    respond(res, 201, 'Auction Created', {
      auction: (await detail(auctionId, user.id)) ?? (await createdView(outcome)),
    });
  });

  route(ops.sellerAuctions, async (req, res, { query }) => {
    const user = currentUser(req);
    const page = pageRequest('sellerAuctions', query());
    const { items: auctions, nextCursor } = await sellerAuctionsPage(
      deps.read,
      deps.users,
      user.id,
      page,
      deps.imageUrl,
    );
    respond(res, 200, 'Auctions Fetched', { auctions, nextCursor });
  });

  route(ops.cancelAuction, async (req, res, { params }) => {
    const user = currentUser(req);
    const auction = await ownAuction(params().id, user.id);
    await send(req, res, {
      type: 'CancelAuction',
      data: { auctionId: auction._id, reason: 'seller' },
      metadata: commandMetadata(req, deps, user.id),
    });
    // Committed: the cancelled auction's images go.
    await releaseAuctionImages(deps, auction._id);
    respond(res, 200, 'Auction Deleted Successfully');
  });

  route(ops.liveAuctions, async (req, res, { query }) => {
    const { search, category, ...paging } = query();
    const page = pageRequest('auctions', paging);
    const { items: auctions, nextCursor } = await liveAuctionsPage(
      deps.read,
      deps.users,
      { search, category },
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
    const auctionDetails = await detail(auctionId, req.user?.id);
    if (!auctionDetails) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    const [shown] = await withWatching(deps, req, [auctionDetails]);
    respond(res, 200, 'Auction Fetched', { auctionDetails: shown });
  });

  route(ops.auctionBids, async (_req, res, { query }) => {
    const { auctionId, ...paging } = query();
    const page = await auctionBidsPage(
      deps.read,
      deps.users,
      auctionId,
      pageRequest('bids', paging),
    );
    if (!page) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    respond(res, 200, 'Bids Fetched', { bids: page.items, nextCursor: page.nextCursor });
  });

  route(ops.featured, async (req, res) => {
    const featured = await featuredAuctions(deps.read, deps.users, deps.imageUrl);
    respond(res, 200, 'Featured Auctions Fetched', {
      featured: await withWatching(deps, req, featured),
    });
  });

  route(ops.editAuction, requireLogin, imageUpload, async (req, res, { params, body }) => {
    const user = currentUser(req);
    const auction = await ownAuction(params().id, user.id);
    const input = body();
    const endsAt = newEnd(input.auctionEndTime, auction.auctionEndTime);
    const uploaded = claimUpload(req);
    const image = uploaded ?? (input.removeImage ? null : undefined);
    const outcome = await send(
      req,
      res,
      {
        type: 'EditAuction',
        data: {
          auctionId: auction._id,
          title: input.title,
          description: input.description,
          startingPrice: input.startingPrice,
          endsAt,
          image,
          reservePrice: input.reservePrice,
          buyNowPrice: input.buyNowPrice,
        },
        metadata: commandMetadata(req, deps, user.id),
      },
      uploaded,
    );
    // Committed: the image it replaced goes (taken from the stream, so a concurrent edit's too).
    const imageChanged = outcome.events.some(
      (event) => event.type === 'AuctionEdited' && event.data.image !== undefined,
    );
    if (imageChanged || uploaded !== null) await releaseAuctionImages(deps, auction._id, uploaded);
    // The answer is the catalog's view: it waits (bounded) for the edit to show there.
    await consistency.reach(req, res, ['catalog'], outcome.position);
    respond(res, 200, 'Auction updated successfully!', {
      auction: (await detail(auction._id, user.id)) ?? auction,
    });
  });

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
    const category = await categoryById(deps.read, categoryId);
    respond(res, 201, 'Category Created', { category: category ?? null });
  });

  route(ops.categories, async (_req, res, { query }) => {
    const page = pageRequest('categories', query());
    const { items: categories, nextCursor } = await categoriesPage(deps.read, page);
    respond(res, 200, 'Categories Fetched', { categories, nextCursor });
  });

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

  return router;
};
