import { randomUUID } from 'node:crypto';
import {
  type AuctionCommand,
  type CommandMetadata,
  DomainError,
  type ErrorCode,
  rejection,
  userStream,
} from '@auction/contracts';
import {
  type CatalogAuction,
  type CatalogBid,
  type Doc,
  catalogAuctions,
  catalogBids,
} from '@auction/projections';
import type { Account } from '../../../accounts/account';
import type { AppDeps } from '../../../app-deps';

/** Refusals that mean the step has nothing left to do: the auction closed or the bid is gone. */
const SETTLED: ReadonlySet<ErrorCode> = new Set([
  'AUCTION_ENDED',
  'AUCTION_NOT_LIVE',
  'AUCTION_BOUGHT_NOW',
  'AUCTION_CLOSED',
  'AUCTION_NOT_FOUND',
  'BID_NOT_FOUND',
]);

const CATCH_UP_MS = 5000;

export interface AccountDeletion {
  readonly cancelledAuctions: number;
  readonly retractedBids: number;
}

/** Waits until the catalog has applied the whole log as it is now. */
const catalogCaughtUp = async (deps: AppDeps): Promise<void> => {
  const head = await deps.events.headPosition();
  if (head === undefined) return;
  try {
    await deps.runner.waitFor(head, ['catalog'], CATCH_UP_MS);
  } catch (error) {
    deps.log('Account deletion: the catalog is behind', error);
    throw new DomainError(rejection('UNAVAILABLE'));
  }
};

/** Sends each command in turn; returns how many changed something and the last position. */
const settle = async (deps: AppDeps, commands: readonly AuctionCommand[]) => {
  let changed = 0;
  let position: number | undefined;
  for (const command of commands) {
    const outcome = await deps.engine.send(command);
    if (!outcome.ok) {
      if (SETTLED.has(outcome.rejection.code)) continue;
      throw new DomainError(outcome.rejection);
    }
    if (outcome.events.length > 0) changed++;
    position = outcome.position ?? position;
  }
  return { changed, position };
};

const liveAuctionsOf = async (deps: AppDeps, sellerId: string) =>
  (await deps.read.find(catalogAuctions.name, {
    where: { sellerId, status: 'Live' },
  })) as (Doc & CatalogAuction)[];

const standingBidsOnLiveAuctions = async (deps: AppDeps, bidderId: string) => {
  const bids = (await deps.read.find(catalogBids.name, {
    where: { bidderId, retracted: false },
  })) as (Doc & CatalogBid)[];
  if (bids.length === 0) return [];
  const auctions = await deps.read.getMany(catalogAuctions.name, [
    ...new Set(bids.map((bid) => bid.auctionId)),
  ]);
  return bids.filter(
    (bid) => (auctions.get(bid.auctionId) as (Doc & CatalogAuction) | undefined)?.status === 'Live',
  );
};

const alreadyRecorded = async (deps: AppDeps, userId: string): Promise<boolean> =>
  (await deps.events.readStream(userStream(userId))).some(
    (event) => event.type === 'AccountDeleted',
  );

/**
 * Ends the user's sessions and sockets, closes the account (`Engine.closeAccount`), settles their
 * Live auctions and bids as the read models show them at the log's head, records `AccountDeleted`
 * and erases the account, so whatever they had in flight is refused or settled before the answer.
 * Each step skips what is done, so a retry, or the next start (`finishDeletions`), finishes it.
 */
export const deleteAccount = async (
  deps: AppDeps,
  account: Account,
  request: CommandMetadata,
): Promise<AccountDeletion> => {
  const metadata = (): CommandMetadata => ({
    ...request,
    commandId: randomUUID(),
    at: new Date(deps.clock.now()).toISOString(),
  });
  // First end every session and socket, so no other tab starts a request while this settles.
  await deps.sessions.destroyUser(account.id);
  deps.realtime.disconnectUser(account.id);
  await deps.engine.closeAccount(account.id, metadata());
  // The lists of what to settle come from the catalog, so it must have seen every event first.
  await catalogCaughtUp(deps);

  const cancelled = await settle(
    deps,
    (await liveAuctionsOf(deps, account.id)).map((auction): AuctionCommand => ({
      type: 'CancelAuction',
      data: { auctionId: auction._id, reason: 'account-deleted' },
      metadata: metadata(),
    })),
  );
  const retracted = await settle(
    deps,
    (await standingBidsOnLiveAuctions(deps, account.id)).map((bid): AuctionCommand => ({
      type: 'RetractBid',
      data: { auctionId: bid.auctionId, bidId: bid._id, reason: 'account-deleted' },
      metadata: metadata(),
    })),
  );

  const result = { cancelledAuctions: cancelled.changed, retractedBids: retracted.changed };
  if (!(await alreadyRecorded(deps, account.id))) {
    const recorded = metadata();
    await deps.engine.recordAccountEvent(
      { type: 'AccountDeleted', data: { userId: account.id, ...result, at: recorded.at } },
      recorded,
    );
  }
  const last = retracted.position ?? cancelled.position;
  if (last !== undefined)
    await deps.runner.waitFor(last, undefined, CATCH_UP_MS).catch(() => undefined);

  // The image goes first: once the account row is gone, nothing would point at the file.
  await deps.images.remove(account.imageUrl);
  await deps.accounts.erase(account.id);
  return result;
};

/**
 * Finishes the deletions the log shows begun and not done (a crash or a store failure cut them
 * short): their users can no longer bid or sell, and what they still have on live auctions is
 * settled and their data erased, as `deleteAccount` would have.
 */
export const finishDeletions = async (deps: AppDeps, userIds: readonly string[]): Promise<void> => {
  for (const userId of userIds) {
    try {
      const account = await deps.accounts.byId(userId);
      if (!account) continue;
      const at = new Date(deps.clock.now()).toISOString();
      await deleteAccount(deps, account, {
        commandId: randomUUID(),
        actorId: userId,
        correlationId: randomUUID(),
        at,
      });
      deps.log(`Finished the interrupted deletion of account ${userId}`);
    } catch (error) {
      deps.log(`Finishing the deletion of account ${userId} failed`, error);
    }
  }
};
