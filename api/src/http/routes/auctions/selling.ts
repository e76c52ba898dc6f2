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
import { auctionDetail, categoryById, sellerAuctionsPage } from '@auction/projections';
import type { Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../../../app-deps';
import { releaseAuctionImages } from '../../../followers/image-cleanup';
import { auctionView } from '../../../realtime/auction-view';
import { type Accepted, sendCommand } from '../../commands';
import { claimUpload } from '../../middleware/image-upload';
import { clientAddress, limiter } from '../../middleware/rate-limit';
import type { ReadYourWrites } from '../../middleware/read-your-writes';
import { imageUploadOf } from '../../middleware/upload-limits';
import { pageRequest } from '../../paging';
import { commandMetadata, currentUser, newId, requireLogin } from '../../request-context';
import { respond } from '../../respond';
import type { OperationHandler, routesOn } from '../../route';

type Route = ReturnType<typeof routesOn>;

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

const HOUR_MS = 60 * 60_000;

/** New auctions per user and per address, counted before the body is read. */
const newAuctionLimits = (deps: AppDeps): RequestHandler[] => [
  limiter({
    windowMs: HOUR_MS,
    limit: deps.config.RATE_LIMIT_AUCTIONS,
    key: (req) => currentUser(req).id,
    message: 'Too many new auctions, please try again later',
    store: deps.rateLimits('auctions-user'),
  }),
  limiter({
    windowMs: HOUR_MS,
    limit: deps.config.RATE_LIMIT_AUCTIONS_PER_ADDRESS,
    key: clientAddress,
    message: 'Too many new auctions from this address, please try again later',
    store: deps.rateLimits('auctions-address'),
  }),
];

const detail = (deps: AppDeps, auctionId: string, viewerId?: string) =>
  auctionDetail(deps.read, deps.users, auctionId, deps.imageUrl, viewerId);

/**
 * Sends a seller's command. The image of a refused command goes; on an outage it stays, as the
 * command may have landed. An accepted one hands the client its consistency token.
 */
const send = async (
  deps: AppDeps,
  consistency: ReadYourWrites,
  req: Request,
  res: Response,
  command: AuctionCommand,
  uploadedImage: string | null = null,
): Promise<Accepted> => {
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
const createdView = async (deps: AppDeps, outcome: Accepted): Promise<AuctionView | null> => {
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

/** Checked before the body so a stranger learns nothing more than 403; the decider checks again. */
const ownAuction = async (deps: AppDeps, id: string, userId: string): Promise<AuctionView> => {
  const auction = await detail(deps, id);
  if (!auction) throw new DomainError(rejection('AUCTION_NOT_FOUND'));
  if (auction.seller._id !== userId) throw new DomainError(rejection('NOT_AUCTION_OWNER'));
  return auction;
};

const createAuction =
  (deps: AppDeps, consistency: ReadYourWrites): OperationHandler<typeof ops.createAuction> =>
  async (req, res, inputs) => {
    const user = currentUser(req);
    const input = inputs.body();
    const image = claimUpload(req);
    const auctionId = newId(req, user.id, 'auction');
    const command: AuctionCommand = {
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
    };
    const outcome = await send(deps, consistency, req, res, command, image);
    // A retry answered with the first outcome keeps the first image: this one goes.
    if (image !== null) await releaseAuctionImages(deps, auctionId, image);
    // No wait for the catalog: where it has not applied the auction yet, the events show it.
    respond(res, 201, 'Auction Created', {
      auction: (await detail(deps, auctionId, user.id)) ?? (await createdView(deps, outcome)),
    });
  };

const editAuction =
  (deps: AppDeps, consistency: ReadYourWrites): OperationHandler<typeof ops.editAuction> =>
  async (req, res, inputs) => {
    const user = currentUser(req);
    const auction = await ownAuction(deps, inputs.params().id, user.id);
    const input = inputs.body();
    const endsAt = newEnd(input.auctionEndTime, auction.auctionEndTime);
    const uploaded = claimUpload(req);
    const image = uploaded ?? (input.removeImage ? null : undefined);
    const command: AuctionCommand = {
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
    };
    const outcome = await send(deps, consistency, req, res, command, uploaded);
    // Committed: the image it replaced goes (taken from the stream, so a concurrent edit's too).
    const imageChanged = outcome.events.some(
      (event) => event.type === 'AuctionEdited' && event.data.image !== undefined,
    );
    if (imageChanged || uploaded !== null) await releaseAuctionImages(deps, auction._id, uploaded);
    // The answer is the catalog's view: it waits (bounded) for the edit to show there.
    await consistency.reach(req, res, ['catalog'], outcome.position);
    respond(res, 200, 'Auction updated successfully!', {
      auction: (await detail(deps, auction._id, user.id)) ?? auction,
    });
  };

const cancelAuction =
  (deps: AppDeps, consistency: ReadYourWrites): OperationHandler<typeof ops.cancelAuction> =>
  async (req, res, inputs) => {
    const user = currentUser(req);
    const auction = await ownAuction(deps, inputs.params().id, user.id);
    await send(deps, consistency, req, res, {
      type: 'CancelAuction',
      data: { auctionId: auction._id, reason: 'seller' },
      metadata: commandMetadata(req, deps, user.id),
    });
    // Committed: the cancelled auction's images go.
    await releaseAuctionImages(deps, auction._id);
    respond(res, 200, 'Auction Deleted Successfully');
  };

const sellerAuctions =
  (deps: AppDeps): OperationHandler<typeof ops.sellerAuctions> =>
  async (req, res, inputs) => {
    const user = currentUser(req);
    const page = pageRequest('sellerAuctions', inputs.query());
    const { items: auctions, nextCursor } = await sellerAuctionsPage(
      deps.read,
      deps.users,
      user.id,
      page,
      deps.imageUrl,
    );
    respond(res, 200, 'Auctions Fetched', { auctions, nextCursor });
  };

/** A seller's routes: create, edit and cancel an auction, and list one's own. */
export const sellingRoutes = (route: Route, deps: AppDeps, consistency: ReadYourWrites): void => {
  const imageUpload = imageUploadOf(deps);
  // Counted before the body is read, so a refused create never stores its image.
  route(
    ops.createAuction,
    requireLogin,
    ...newAuctionLimits(deps),
    imageUpload,
    createAuction(deps, consistency),
  );
  route(ops.sellerAuctions, sellerAuctions(deps));
  route(ops.cancelAuction, cancelAuction(deps, consistency));
  route(ops.editAuction, requireLogin, imageUpload, editAuction(deps, consistency));
};
