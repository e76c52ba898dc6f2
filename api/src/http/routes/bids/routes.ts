import {
  DomainError,
  bidOperations as ops,
  bidView,
  centsToDollars,
  dollarsToCents,
  rejection,
} from '@auction/contracts';
import { type CatalogBid, type Doc, catalogBids } from '@auction/projections';
import { Router } from 'express';
import { publicUser, type Account } from '../../../accounts/account';
import type { AppDeps } from '../../../app-deps';
import type { AppPassport } from '../auth/passport';
import { type Accepted, sendCommand } from '../../commands';
import type { ReadYourWrites } from '../../middleware/read-your-writes';
import { limiter } from '../../middleware/rate-limit';
import { commandMetadata, currentUser, newId, requireLogin } from '../../request-context';
import { respond } from '../../respond';
import { type OperationHandler, routesOn } from '../../route';

/** The bid an accepted bidding command carries in its outcome (the engine sets it for each). */
const bidOf = (outcome: Accepted, command: string, bidId: string) => {
  if (outcome.bid?.bidId !== bidId)
    throw new Error(`${command} ${bidId} was accepted without its bid in the outcome`);
  return outcome.bid;
};

/** The bidder's own standing bid named in the path: 404 when unknown, 403 when someone else's. */
const ownBid = async (deps: AppDeps, bidId: string, account: Account) => {
  const bid = (await deps.read.get(catalogBids.name, bidId)) as (Doc & CatalogBid) | undefined;
  if (!bid || bid.retracted) throw new DomainError(rejection('BID_NOT_FOUND'));
  if (bid.bidderId !== account.id) throw new DomainError(rejection('NOT_BID_OWNER'));
  return { ...bid, bidId };
};

const placeBid =
  (deps: AppDeps, consistency: ReadYourWrites): OperationHandler<typeof ops.placeBid> =>
  async (req, res, input) => {
    const account = currentUser(req);
    const body = input.body();
    const bidId = newId(req, account.id, `bid:${body.productId}`);
    // Answered from the outcome once stored, with the client's consistency token.
    const outcome = await sendCommand(deps, {
      type: 'PlaceBid',
      data: {
        auctionId: body.productId,
        bidId,
        amount: dollarsToCents(body.bidAmount),
        ...(body.maxBidAmount === undefined
          ? {}
          : { maxAmount: dollarsToCents(body.maxBidAmount) }),
      },
      metadata: commandMetadata(req, deps, account.id, body.productId),
    });
    consistency.written(req, res, outcome.position);
    const placed = bidOf(outcome, 'PlaceBid', bidId);
    respond(res, 201, 'Bid placed successfully!', {
      // As its own event placed it: a client applies it at that revision, once (an automatic
      // bid it called for follows at the next revision, over the socket).
      newBid: bidView(
        { ...placed, auctionId: outcome.auctionId, amount: placed.entryAmount, automatic: false },
        publicUser(account, deps.imageUrl),
      ),
      currentBid: centsToDollars(outcome.currentBid),
      revision: placed.entryRevision,
      // Whether it leads once the proxies answered, and, for the bidder's eyes only, the maximum.
      leading: outcome.leadingBidId === bidId,
      maxBid: centsToDollars(placed.maxAmount),
      // Where the bid landed in the soft-close window: the end it moved the auction to.
      ...(placed.endsAt === undefined ? {} : { auctionEndTime: placed.endsAt }),
    });
  };

const buyNow =
  (deps: AppDeps, consistency: ReadYourWrites): OperationHandler<typeof ops.buyNow> =>
  async (req, res, input) => {
    const account = currentUser(req);
    const body = input.body();
    const bidId = newId(req, account.id, `buy:${body.productId}`);
    const outcome = await sendCommand(deps, {
      type: 'BuyNow',
      data: { auctionId: body.productId, bidId, price: dollarsToCents(body.price) },
      metadata: commandMetadata(req, deps, account.id, body.productId),
    });
    consistency.written(req, res, outcome.position);
    respond(res, 201, 'Purchased with Buy It Now!', {
      auctionId: outcome.auctionId,
      finalPrice: centsToDollars(bidOf(outcome, 'BuyNow', bidId).amount),
      status: outcome.status,
    });
  };

const editBid =
  (deps: AppDeps, consistency: ReadYourWrites): OperationHandler<typeof ops.editBid> =>
  async (req, res, input) => {
    const account = currentUser(req);
    const { bidId } = input.params();
    const body = input.body();
    const bid = await ownBid(deps, bidId, account);
    const outcome = await sendCommand(deps, {
      type: 'EditBid',
      data: {
        auctionId: bid.auctionId,
        bidId: bid.bidId,
        ...(body.bidAmount === undefined ? {} : { amount: dollarsToCents(body.bidAmount) }),
        ...(body.maxBidAmount === undefined
          ? {}
          : { maxAmount: dollarsToCents(body.maxBidAmount) }),
      },
      metadata: commandMetadata(req, deps, account.id),
    });
    consistency.written(req, res, outcome.position);
    // As it stands after the command, an automatic bid it called for included.
    const edited = bidOf(outcome, 'EditBid', bid.bidId);
    respond(res, 200, 'Bid Updated Successfully', {
      updatedBid: bidView(
        { ...edited, auctionId: outcome.auctionId },
        publicUser(account, deps.imageUrl),
      ),
      currentBid: centsToDollars(outcome.currentBid),
      leading: outcome.leadingBidId === bid.bidId,
      maxBid: centsToDollars(edited.maxAmount),
    });
  };

const retractBid =
  (deps: AppDeps, consistency: ReadYourWrites): OperationHandler<typeof ops.retractBid> =>
  async (req, res, input) => {
    const account = currentUser(req);
    const { bidId } = input.params();
    const bid = await ownBid(deps, bidId, account);
    const outcome = await sendCommand(deps, {
      type: 'RetractBid',
      data: { auctionId: bid.auctionId, bidId: bid.bidId },
      metadata: commandMetadata(req, deps, account.id),
    });
    consistency.written(req, res, outcome.position);
    respond(res, 200, 'Bid Deleted Successfully', {
      currentBid: centsToDollars(outcome.currentBid),
    });
  };

/** Bids of a signed-in user, each counted against the per-user bid limit. */
export const bidRoutes = (
  deps: AppDeps,
  _passport: AppPassport,
  consistency: ReadYourWrites,
): Router => {
  const router = Router();
  const route = routesOn(router, '/bid');
  router.use(requireLogin);
  router.use(
    limiter({
      windowMs: 60_000,
      limit: deps.config.RATE_LIMIT_BIDS,
      key: (req) => currentUser(req).id,
      message: 'Too many bids, please slow down',
      store: deps.rateLimits('bids'),
    }),
  );
  route(ops.placeBid, placeBid(deps, consistency));
  route(ops.buyNow, buyNow(deps, consistency));
  route(ops.editBid, editBid(deps, consistency));
  route(ops.retractBid, retractBid(deps, consistency));
  return router;
};
