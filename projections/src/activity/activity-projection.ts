import type {
  AuctionCancelled,
  AuctionClosed,
  AuctionCreated,
  AuctionEdited,
  BidEdited,
  BidPlaced,
  BidRetracted,
} from '@auction/contracts';
import type { CollectionSpec, Doc } from '../read-store/read-store';
import { asAuctionEvent } from '@auction/contracts';
import type { RecordedEvent, Projection, UnitOfWork } from '../runner/projection';

/**
 * Each auction's seller (by auction id): what the profile counters need when it closes or is
 * cancelled. Written once, when it is created. The facts a history entry shows of its auction
 * (title, image, status, leading and winning bid) are the catalog's, joined when read
 * (`activity-queries.ts`), so a bid writes nothing here. Documents written before that also carry
 * a copy of those facts, which nothing reads any more.
 */
export const activityAuctions: CollectionSpec = {
  name: 'activity_auctions',
  indexes: ['sellerId'],
};

/** One entry per created auction, bid and win (by `created:`, `bid:`, `won:` ids). */
export const activityHistory: CollectionSpec = {
  name: 'activity_history',
  indexes: ['userId', 'type', 'date', 'auctionId'],
  // A user's entries newest first (of one type: filtered on the way); an auction's (audit).
  compoundIndexes: [['userId', 'date'], ['auctionId']],
};

/** Per-user counters (by user id), kept incrementally. */
export const activityProfiles: CollectionSpec = { name: 'activity_profiles', indexes: [] };

export type ActivityAuctionFields = { readonly sellerId: string };
export type ActivityAuctionDoc = Doc & ActivityAuctionFields;

type EntryBase = {
  readonly userId: string;
  readonly auctionId: string;
  /** Cents: the starting price, the bid's amount, or the final price. */
  readonly amount: number;
  readonly date: string;
};
export type BidEntryFields = EntryBase & {
  readonly type: 'bid';
  readonly bidId: string;
  readonly retracted: boolean;
};
/** A history entry as stored: its status is derived at read time from its auction. */
export type HistoryEntryFields =
  (EntryBase & { readonly type: 'created' | 'won' }) | BidEntryFields;
export type HistoryEntryDoc = Doc & HistoryEntryFields;

export type ProfileCounters = {
  readonly totalAuctions: number;
  readonly totalBids: number;
  readonly totalWinnings: number;
  /** Cents. */
  readonly totalWinningsValue: number;
  readonly activeAuctions: number;
  readonly completedAuctions: number;
};
export type ProfileDoc = Doc & ProfileCounters;

export const emptyProfile: ProfileCounters = {
  totalAuctions: 0,
  totalBids: 0,
  totalWinnings: 0,
  totalWinningsValue: 0,
  activeAuctions: 0,
  completedAuctions: 0,
};

type ProfileDelta = Partial<ProfileCounters>;

const counterNames = Object.keys(emptyProfile) as (keyof ProfileCounters)[];

const addDelta = (counters: ProfileCounters, delta: ProfileDelta): ProfileCounters => {
  const next = { ...counters };
  for (const name of counterNames) next[name] = counters[name] + (delta[name] ?? 0);
  return next;
};

/** One delta per user, summed. */
const mergeDeltas = (
  deltas: readonly (readonly [userId: string, delta: ProfileDelta])[],
): Map<string, ProfileCounters> => {
  const merged = new Map<string, ProfileCounters>();
  for (const [userId, delta] of deltas) {
    merged.set(userId, addDelta(merged.get(userId) ?? emptyProfile, delta));
  }
  return merged;
};

const adjustProfiles = async (
  uow: UnitOfWork,
  deltas: readonly (readonly [userId: string, delta: ProfileDelta])[],
): Promise<void> => {
  // Most events change one user's counters (a bid): those need no merging.
  const merged: Iterable<readonly [string, ProfileDelta]> =
    deltas.length === 1 ? deltas : mergeDeltas(deltas);
  for (const [userId, delta] of merged) {
    await uow.update<ProfileDoc>(activityProfiles.name, userId, (current): ProfileCounters =>
      addDelta(current ?? emptyProfile, delta),
    );
  }
};

/** An entry is made whole by one event, named after it: written without a read. */
const putEntry = (uow: UnitOfWork, id: string, entry: HistoryEntryFields): void =>
  uow.put<HistoryEntryDoc>(activityHistory.name, id, entry);

const patchBidEntry = (
  uow: UnitOfWork,
  bidId: string,
  patch: Partial<Pick<BidEntryFields, 'amount' | 'retracted'>>,
): Promise<void> =>
  uow.update<Doc & BidEntryFields>(
    activityHistory.name,
    `bid:${bidId}`,
    (current): BidEntryFields | undefined => current && { ...current, ...patch },
  );

const sellerOf = async (uow: UnitOfWork, auctionId: string): Promise<string | undefined> =>
  (await uow.get<ActivityAuctionDoc>(activityAuctions.name, auctionId))?.sellerId;

const onCreated = async (d: AuctionCreated['data'], uow: UnitOfWork): Promise<void> => {
  uow.put<ActivityAuctionDoc>(activityAuctions.name, d.auctionId, { sellerId: d.sellerId });
  putEntry(uow, `created:${d.auctionId}`, {
    type: 'created',
    userId: d.sellerId,
    auctionId: d.auctionId,
    amount: d.startingPrice,
    date: d.at,
  });
  await adjustProfiles(uow, [[d.sellerId, { totalAuctions: 1, activeAuctions: 1 }]]);
};

/** Only a new starting price changes what activity keeps: the created entry's amount. */
const onEdited = async (d: AuctionEdited['data'], uow: UnitOfWork): Promise<void> => {
  const startingPrice = d.startingPrice;
  if (startingPrice === undefined) return;
  await uow.update<HistoryEntryDoc>(
    activityHistory.name,
    `created:${d.auctionId}`,
    (current): HistoryEntryFields | undefined => current && { ...current, amount: startingPrice },
  );
};

const onCancelled = async (d: AuctionCancelled['data'], uow: UnitOfWork): Promise<void> => {
  const sellerId = await sellerOf(uow, d.auctionId);
  if (sellerId !== undefined) await adjustProfiles(uow, [[sellerId, { activeAuctions: -1 }]]);
};

const onBidPlaced = async (d: BidPlaced['data'], uow: UnitOfWork): Promise<void> => {
  putEntry(uow, `bid:${d.bidId}`, {
    type: 'bid',
    userId: d.bidderId,
    auctionId: d.auctionId,
    bidId: d.bidId,
    amount: d.amount,
    date: d.at,
    retracted: false,
  });
  await adjustProfiles(uow, [[d.bidderId, { totalBids: 1 }]]);
};

const onBidEdited = (d: BidEdited['data'], uow: UnitOfWork): Promise<void> =>
  patchBidEntry(uow, d.bidId, { amount: d.amount });

const onBidRetracted = (d: BidRetracted['data'], uow: UnitOfWork): Promise<void> =>
  patchBidEntry(uow, d.bidId, { retracted: true });

const onClosed = async (d: AuctionClosed['data'], uow: UnitOfWork): Promise<void> => {
  const sellerId = await sellerOf(uow, d.auctionId);
  const closing: [string, ProfileDelta][] =
    sellerId === undefined ? [] : [[sellerId, { activeAuctions: -1, completedAuctions: 1 }]];
  if (d.outcome === 'Expired') {
    await adjustProfiles(uow, closing);
    return;
  }
  putEntry(uow, `won:${d.auctionId}`, {
    type: 'won',
    userId: d.winnerId,
    auctionId: d.auctionId,
    amount: d.finalPrice,
    date: d.at,
  });
  await adjustProfiles(uow, [
    ...closing,
    [d.winnerId, { totalWinnings: 1, totalWinningsValue: d.finalPrice }],
  ]);
};

/**
 * The user-activity read model behind "My Profile" and "History": each auction's seller, one
 * history entry per created auction, bid and win, and per-user counters. An entry holds only what
 * is its own (ids, kind, amount, time, retracted); its auction's facts are the catalog's.
 */
export const activityProjection: Projection = {
  name: 'activity',
  collections: [activityAuctions, activityHistory, activityProfiles],
  async handle(event: RecordedEvent, uow: UnitOfWork): Promise<void> {
    const auctionEvent = asAuctionEvent(event);
    if (!auctionEvent) return;
    switch (auctionEvent.type) {
      case 'AuctionCreated':
        return onCreated(auctionEvent.data, uow);
      case 'AuctionEdited':
        return onEdited(auctionEvent.data, uow);
      case 'AuctionCancelled':
        return onCancelled(auctionEvent.data, uow);
      case 'BidPlaced':
        return onBidPlaced(auctionEvent.data, uow);
      case 'BidEdited':
      case 'AutomaticBidPlaced':
        return onBidEdited(auctionEvent.data, uow);
      case 'BidMaximumRaised':
        return;
      case 'BidRetracted':
        return onBidRetracted(auctionEvent.data, uow);
      case 'AuctionClosed':
        return onClosed(auctionEvent.data, uow);
      case 'AuctionEndingSoon':
        return;
      default: {
        const unexpected: never = auctionEvent;
        throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
      }
    }
  },
};
