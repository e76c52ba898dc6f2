import {
  type BidView,
  DomainError,
  centsToDollars,
  dollarsToCents,
  rejection,
} from '@auction/contracts';
import { type CatalogBid, type Doc, type ImageUrl, catalogBids } from '@auction/projections';
import { Router } from 'express';
import { publicUser, type Account } from '../../accounts/account';
import type { AppDeps } from '../../app-deps';
import type { AppPassport } from '../auth/passport';
import { sendCommand } from '../commands';
import type { AcknowledgedWrites } from '../acknowledged-writes';
import { limiter } from '../rate-limit';
import { commandMetadata, currentUser, newId } from '../request-context';
import { respond } from '../respond';
import { parseInput } from '../validate';
import { BidParams, EditBidBody, PlaceBidBody } from './schemas';

const bidView = (
  bid: { bidId: string; auctionId: string; amount: number; createdAt: string },
  bidder: Account,
  imageUrl: ImageUrl,
): BidView => ({
  _id: bid.bidId,
  auctionId: bid.auctionId,
  bidAmount: centsToDollars(bid.amount),
  amount: centsToDollars(bid.amount),
  bidder: publicUser(bidder, imageUrl),
  createdAt: bid.createdAt,
});

/** The bidder's own standing bid named in the path: 404 when unknown, 403 when someone else's. */
const ownBid = async (deps: AppDeps, bidId: string, account: Account) => {
  const bid = (await deps.read.get(catalogBids.name, bidId)) as (Doc & CatalogBid) | undefined;
  if (!bid || bid.retracted) throw new DomainError(rejection('BID_NOT_FOUND'));
  if (bid.bidderId !== account.id) throw new DomainError(rejection('NOT_BID_OWNER'));
  return { ...bid, bidId };
};

/** The route that answers from the command's outcome, without waiting for the catalog. */
export const isPlaceBid = (method: string, path: string): boolean =>
  method === 'POST' && path === '/bid/placeBid';

export const bidRoutes = (
  deps: AppDeps,
  _passport: AppPassport,
  acknowledged: AcknowledgedWrites,
): Router => {
  const router = Router();
  router.use((req, _res, next) => {
    currentUser(req);
    next();
  });
  router.use(
    limiter({
      windowMs: 60_000,
      limit: deps.config.RATE_LIMIT_BIDS,
      key: (req) => currentUser(req).id,
      message: 'Too many bids, please slow down',
      store: deps.rateLimits('bids'),
    }),
  );

  router.post('/placeBid', async (req, res) => {
    const account = currentUser(req);
    const body = parseInput(PlaceBidBody, req.body ?? {});
    const bidId = newId(req, account.id, `bid:${body.productId}`);
    // Answered from the outcome once stored; this user's next request waits for the catalog.
    const outcome = await sendCommand(
      deps,
      {
        type: 'PlaceBid',
        data: { auctionId: body.productId, bidId, amount: dollarsToCents(body.bidAmount) },
        metadata: commandMetadata(req, deps, account.id, body.productId),
      },
      { awaitCatalog: false },
    );
    acknowledged.note(outcome.position);
    const placed = outcome.events.find((event) => event.type === 'BidPlaced');
    if (!placed) throw new Error(`PlaceBid ${bidId} was accepted without a BidPlaced event`);
    respond(res, 201, 'Bid placed successfully!', {
      newBid: bidView(
        { bidId, auctionId: body.productId, amount: placed.data.amount, createdAt: placed.data.at },
        account,
        deps.imageUrl,
      ),
      currentBid: centsToDollars(outcome.currentBid),
      // The auction's stream revision after the bid: a client applies its own bid at it, once.
      revision: outcome.revision,
      // Where the bid landed in the soft-close window: the end it moved the auction to.
      ...(placed.data.endsAt === undefined ? {} : { auctionEndTime: placed.data.endsAt }),
    });
  });

  router.put('/editBid/:bidId', async (req, res) => {
    const account = currentUser(req);
    const { bidId } = parseInput(BidParams, req.params);
    const body = parseInput(EditBidBody, req.body ?? {});
    const bid = await ownBid(deps, bidId, account);
    const amount = dollarsToCents(body.bidAmount);
    const outcome = await sendCommand(deps, {
      type: 'EditBid',
      data: { auctionId: bid.auctionId, bidId: bid.bidId, amount },
      metadata: commandMetadata(req, deps, account.id),
    });
    respond(res, 200, 'Bid Updated Successfully', {
      updatedBid: bidView({ ...bid, amount }, account, deps.imageUrl),
      currentBid: centsToDollars(outcome.currentBid),
    });
  });

  router.delete('/deleteBid/:bidId', async (req, res) => {
    const account = currentUser(req);
    const { bidId } = parseInput(BidParams, req.params);
    const bid = await ownBid(deps, bidId, account);
    const outcome = await sendCommand(deps, {
      type: 'RetractBid',
      data: { auctionId: bid.auctionId, bidId: bid.bidId },
      metadata: commandMetadata(req, deps, account.id),
    });
    respond(res, 200, 'Bid Deleted Successfully', {
      currentBid: centsToDollars(outcome.currentBid),
    });
  });

  return router;
};
