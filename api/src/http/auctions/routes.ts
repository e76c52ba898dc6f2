import { randomUUID } from 'node:crypto';
import {
  type AuctionCommand,
  type AuctionView,
  DomainError,
  fixedCategories,
  rejection,
  rules,
} from '@auction/contracts';
import { fold, initialState } from '@auction/engine';
import {
  auctionDetail,
  categoriesPage,
  categoryById,
  featuredAuctions,
  liveAuctionsPage,
  notificationCursors,
  sellerAuctionsPage,
  userNotificationsPage,
} from '@auction/projections';
import { type Request, type RequestHandler, Router } from 'express';
import type { AppDeps } from '../../app-deps';
import type { AppPassport } from '../auth/passport';
import { commandMetadata, currentUser, newId } from '../request-context';
import { type Accepted, catalogReaches, sendCommand } from '../commands';
import { auctionView } from '../../realtime/auction-view';
import { respond } from '../respond';
import { clientAddress, limiter } from '../rate-limit';
import { claimUpload } from '../uploads';
import { imageUploadOf } from '../upload-limits';
import { PageQuery } from '../paging';
import { parseInput } from '../validate';
import {
  AuctionFilters,
  AuctionIdParams,
  AuctionIdQuery,
  CreateAuctionBody,
  CreateCategoryBody,
  EditAuctionBody,
  type EndChange,
  endOnDate,
} from './schemas';
import { releaseAuctionImages } from './images';
import { withWatching } from '../watchlist/routes';

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
export const auctionRoutes = (deps: AppDeps, _passport: AppPassport): Router => {
  const router = Router();
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
  const send = async (command: AuctionCommand, uploadedImage: string | null = null) => {
    try {
      return await sendCommand(deps, command);
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
    return auctionView(
      fold(outcome.events, initialState),
      outcome.revision,
      { createdAt: at, categoryName },
      await deps.users.lookup([sellerId]),
      deps.imageUrl,
    );
  };

  // Checked before the body so a stranger learns nothing more than 403; the decider checks again.
  const ownAuction = async (req: Request, userId: string): Promise<AuctionView> => {
    const { id } = parseInput(AuctionIdParams, req.params);
    const auction = await detail(id);
    if (!auction) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    if (auction.seller._id !== userId) throw new DomainError(rejection('NOT_AUCTION_OWNER'));
    return auction;
  };

  // Counted before the body is read, so a refused create never stores its image.
  const createGuards = [requireLogin, auctionsPerUser, auctionsPerAddress, imageUpload];
  router.post('/createAuction', ...createGuards, async (req, res) => {
    const user = currentUser(req);
    const input = parseInput(CreateAuctionBody, req.body ?? {});
    const image = claimUpload(req);
    const auctionId = newId(req, user.id, 'auction');
    const outcome = await send(
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
          softClose: input.softClose ? rules.softClose : null,
          ...(input.reservePrice === undefined ? {} : { reservePrice: input.reservePrice }),
          ...(input.buyNowPrice === undefined ? {} : { buyNowPrice: input.buyNowPrice }),
        },
        metadata: commandMetadata(req, deps, user.id),
      },
      image,
    );
    // A retry answered with the first outcome keeps the first image: this one goes.
    if (image !== null) await releaseAuctionImages(deps, auctionId, image);
    respond(res, 201, 'Auction Created', {
      auction: (await detail(auctionId, user.id)) ?? (await createdView(outcome)),
    });
  });

  router.get('/getAuctions', async (req, res) => {
    const user = currentUser(req);
    const page = parseInput(PageQuery('sellerAuctions'), req.query);
    const { items: auctions, nextCursor } = await sellerAuctionsPage(
      deps.read,
      deps.users,
      user.id,
      page,
      deps.imageUrl,
    );
    respond(res, 200, 'Auctions Fetched', { auctions, nextCursor });
  });

  router.delete('/deleteAuction/:id', async (req, res) => {
    const user = currentUser(req);
    const auction = await ownAuction(req, user.id);
    await send({
      type: 'CancelAuction',
      data: { auctionId: auction._id, reason: 'seller' },
      metadata: commandMetadata(req, deps, user.id),
    });
    // Committed: the cancelled auction's images go.
    await releaseAuctionImages(deps, auction._id);
    respond(res, 200, 'Auction Deleted Successfully');
  });

  router.get('/fetchAllAuctions', async (req, res) => {
    const filters = parseInput(AuctionFilters, req.query);
    const page = parseInput(PageQuery('auctions'), req.query);
    const { items: auctions, nextCursor } = await liveAuctionsPage(
      deps.read,
      deps.users,
      filters,
      page,
      deps.imageUrl,
    );
    respond(res, 200, 'Auctions Fetched', {
      auctions: await withWatching(deps, req, auctions),
      nextCursor,
    });
  });

  router.get('/fetchSpecificAuction', async (req, res) => {
    const { auctionId } = parseInput(AuctionIdQuery, req.query);
    const auctionDetails = await detail(auctionId, req.user?.id);
    if (!auctionDetails) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
    const [shown] = await withWatching(deps, req, [auctionDetails]);
    respond(res, 200, 'Auction Fetched', { auctionDetails: shown });
  });

  router.get('/featured', async (req, res) => {
    const featured = await featuredAuctions(deps.read, deps.users, deps.imageUrl);
    respond(res, 200, 'Featured Auctions Fetched', {
      featured: await withWatching(deps, req, featured),
    });
  });

  router.patch('/editAuction/:id', requireLogin, imageUpload, async (req, res) => {
    const user = currentUser(req);
    const auction = await ownAuction(req, user.id);
    const input = parseInput(EditAuctionBody, req.body ?? {});
    const endsAt = newEnd(input.auctionEndTime, auction.auctionEndTime);
    const uploaded = claimUpload(req);
    const image = uploaded ?? (input.removeImage ? null : undefined);
    const outcome = await send(
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
    respond(res, 200, 'Auction updated successfully!', {
      auction: (await detail(auction._id, user.id)) ?? auction,
    });
  });

  router.post('/createCategory', requireLogin, async (req, res) => {
    const user = currentUser(req);
    const input = parseInput(CreateCategoryBody, req.body ?? {});
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
    await catalogReaches(deps, outcome.position);
    const category = await categoryById(deps.read, categoryId);
    respond(res, 201, 'Category Created', { category: category ?? null });
  });

  router.get('/getAllCategories', async (req, res) => {
    const page = parseInput(PageQuery('categories'), req.query);
    const { items: categories, nextCursor } = await categoriesPage(deps.read, page);
    respond(res, 200, 'Categories Fetched', { categories, nextCursor });
  });

  router.get('/notifications', async (req, res) => {
    const user = currentUser(req);
    const page = parseInput(PageQuery('notifications'), req.query);
    const { items: data, nextCursor } = await userNotificationsPage(deps.read, user.id, page);
    respond(res, 200, 'Notifications Fetched', { data, nextCursor });
  });

  router.patch('/notifications/mark-read', async (req, res) => {
    const user = currentUser(req);
    await cursors.markAllRead(user.id);
    respond(res, 200, 'Notifications marked as read');
  });

  router.delete('/notifications/clear', async (req, res) => {
    const user = currentUser(req);
    await cursors.clearAll(user.id);
    respond(res, 200, 'Notifications cleared');
  });

  return router;
};
