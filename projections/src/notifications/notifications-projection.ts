import {
  type AuctionCancelled,
  type AuctionClosed,
  type AuctionCreated,
  type AuctionEvent,
  type BidPlaced,
  type BidRetracted,
  formatCents,
  asAuctionEvent,
} from '@auction/contracts';
import type { CollectionSpec, Doc } from '../read-store/read-store';
import type { RecordedEvent, Projection, UnitOfWork } from '../runner/projection';
import {
  type WatcherAuctionFields,
  type WatcherNoticeKind,
  applyWatcherEvent,
  firstPerUser,
  watcherOutcome,
  watchersCollection,
} from './watcher-notices';

/** The collections of the `notifications` projection. */
export const notificationsCollections = {
  auctions: { name: 'notifications_auctions', indexes: [] },
  bids: {
    name: 'notifications_bids',
    indexes: ['auctionId', 'retracted'],
    compoundIndexes: [['auctionId', 'retracted']],
  },
  // A user's newest first; by position alone for the audit.
  items: {
    name: 'notifications_items',
    indexes: ['userId', 'position'],
    compoundIndexes: [['userId', 'position'], ['position']],
  },
  watchers: watchersCollection,
} as const satisfies Record<string, CollectionSpec>;

const AUCTIONS = notificationsCollections.auctions.name;
const BIDS = notificationsCollections.bids.name;
const ITEMS = notificationsCollections.items.name;

/** What deciding who to notify needs to know about an auction. */
type AuctionFields = {
  readonly title: string;
  readonly sellerId: string;
  readonly leadingBidId: string | null;
  readonly leadingBidderId: string | null;
  /**
   * The seller's secret reserve (cents) and the current bid, to tell the seller when a bid first
   * meets it. Absent in documents written before: no reserve notice for those auctions.
   */
  readonly reservePrice?: number | null;
  readonly currentBid?: number;
} & WatcherAuctionFields;
type AuctionDoc = Doc & AuctionFields;

/** One bid: who placed it, and whether it still stands (one small document, not a growing map). */
type BidFields = {
  readonly auctionId: string;
  readonly bidderId: string;
  readonly retracted: boolean;
};
type BidDoc = Doc & BidFields;

export type NotificationKind =
  | 'new-bid'
  | 'bid-raised'
  | 'bid-retracted'
  | 'outbid'
  | 'won'
  | 'sold'
  | 'ended-unsold'
  | 'reserve-not-met'
  | 'reserve-met'
  | 'bought-now'
  | 'cancelled'
  | WatcherNoticeKind;

/** One notification of one user (`_id` = `${event id}:${user id}`). */
export interface NotificationFields {
  readonly userId: string;
  readonly kind: NotificationKind;
  readonly message: string;
  /** The business time of the event behind it. */
  readonly timestamp: string;
  /** The global position of the event behind it: what read/clear cursors compare against. */
  readonly position: number;
  readonly auctionId: string;
}
export type NotificationDoc = Doc & NotificationFields;

interface Notice {
  readonly userId: string;
  readonly kind: NotificationKind;
  readonly message: string;
}

interface Outcome {
  readonly auction: AuctionFields;
  readonly notices: readonly Notice[];
  readonly bid?: { readonly bidId: string; readonly fields: BidFields };
}

type LaterEvent = Exclude<AuctionEvent, AuctionCreated>;

const quoted = (title: string): string => `"${title}"`;

const standingBidders = async (uow: UnitOfWork, auctionId: string): Promise<string[]> => {
  const bids = await uow.find<BidDoc>(BIDS, { where: { auctionId, retracted: false } });
  return [...new Set(bids.map((b) => b.bidderId))].sort();
};

const outbid = (
  auction: AuctionFields,
  bidderId: string,
  amount: number,
  byProxy = false,
): Notice[] =>
  auction.leadingBidderId === null || auction.leadingBidderId === bidderId
    ? []
    : [
        {
          userId: auction.leadingBidderId,
          kind: 'outbid',
          message: byProxy
            ? `You have been outbid on ${quoted(auction.title)} by another bidder's maximum. The current bid is ${formatCents(amount)}.`
            : `You have been outbid on ${quoted(auction.title)}. The current bid is ${formatCents(amount)}.`,
        },
      ];

const reserveMet = (reservePrice: number | null | undefined, currentBid: number | undefined) =>
  reservePrice !== undefined &&
  reservePrice !== null &&
  currentBid !== undefined &&
  currentBid >= reservePrice;

/**
 * The seller's notice when the bid at `amount` is the one that meets their reserve (it was not met
 * before): said instead of the plain bid notice, to the seller only, so the reserve stays theirs.
 */
const reserveMetNotice = (auction: AuctionFields, amount: number): Notice | null =>
  reserveMet(auction.reservePrice, auction.currentBid) ||
  !reserveMet(auction.reservePrice, amount) ||
  auction.currentBid === undefined
    ? null
    : {
        userId: auction.sellerId,
        kind: 'reserve-met',
        message: `Your reserve price on ${quoted(auction.title)} is met: the current bid is ${formatCents(amount)}.`,
      };

/** A standing bid raised (by its bidder or automatically): it leads; the seller hears the price. */
const raised = (
  auction: AuctionFields,
  bid: { readonly bidId: string; readonly bidderId: string; readonly amount: number },
  sellerMessage: string,
  others: readonly Notice[],
): Outcome => ({
  auction: {
    ...auction,
    leadingBidId: bid.bidId,
    leadingBidderId: bid.bidderId,
    ...(auction.currentBid === undefined ? {} : { currentBid: bid.amount }),
  },
  notices: [
    reserveMetNotice(auction, bid.amount) ?? {
      userId: auction.sellerId,
      kind: 'bid-raised',
      message: sellerMessage,
    },
    ...others,
  ],
});

const created = ({ data }: AuctionCreated): Outcome => ({
  auction: {
    title: data.title,
    sellerId: data.sellerId,
    leadingBidId: null,
    leadingBidderId: null,
    reservePrice: data.reservePrice ?? null,
    currentBid: 0,
  },
  notices: [],
});

/**
 * The auction's next state and who hears about the event, from the state before it. A promise
 * only where the store must be read.
 */
const outcomeOf = (
  event: LaterEvent,
  auction: AuctionFields,
  uow: UnitOfWork,
): Outcome | Promise<Outcome> => {
  switch (event.type) {
    case 'AuctionEdited':
      return {
        auction: {
          ...auction,
          title: event.data.title ?? auction.title,
          // A reserve the seller lowers to the current bid is met by their own edit: no notice.
          ...(event.data.reservePrice === undefined || auction.currentBid === undefined
            ? {}
            : { reservePrice: event.data.reservePrice }),
        },
        notices: [],
      };
    case 'BidPlaced':
      return bidPlaced(event, auction);
    case 'BidEdited':
      return raised(
        auction,
        event.data,
        `A bid on ${quoted(auction.title)} was raised to ${formatCents(event.data.amount)}.`,
        // One its automatic answer outbids at once did not outbid the leader.
        event.data.outbidByProxy ? [] : outbid(auction, event.data.bidderId, event.data.amount),
      );
    case 'AutomaticBidPlaced':
      return raised(
        auction,
        event.data,
        `An automatic bid raised the price of ${quoted(auction.title)} to ${formatCents(event.data.amount)}.`,
        outbid(auction, event.data.bidderId, event.data.amount, true),
      );
    case 'BidMaximumRaised':
      // Private to the bidder: nobody hears of it.
      return { auction, notices: [] };
    case 'BidRetracted':
      return bidRetracted(event, auction, uow);
    case 'AuctionCancelled':
      return cancelled(event, auction, uow);
    case 'AuctionClosed':
      return closed(event.data, auction, uow);
    case 'AuctionEndingSoon':
      return { auction, notices: [] };
    default: {
      const unexpected: never = event;
      throw new Error(`Unknown auction event ${(unexpected as { type: string }).type}`);
    }
  }
};

/**
 * A new bid leads; the seller hears of it (that it met the reserve, when it is the first to), and
 * the leader it outbids. The bid of a Buy It Now purchase tells nobody: its sale, which follows at
 * once, tells the seller, the buyer and the other bidders.
 */
const bidPlaced = ({ data }: BidPlaced, auction: AuctionFields): Outcome => {
  const { bidId, bidderId, amount } = data;
  const next: AuctionFields = {
    ...auction,
    leadingBidId: bidId,
    leadingBidderId: bidderId,
    ...(auction.currentBid === undefined ? {} : { currentBid: amount }),
  };
  const bid = { bidId, fields: { auctionId: data.auctionId, bidderId, retracted: false } };
  if (data.buyNow) return { auction: next, bid, notices: [] };
  return {
    auction: next,
    bid,
    notices: [
      reserveMetNotice(auction, amount) ?? {
        userId: auction.sellerId,
        kind: 'new-bid',
        message: `New bid of ${formatCents(amount)} on ${quoted(auction.title)}.`,
      },
      // One its automatic answer outbids at once did not outbid the leader.
      ...(data.outbidByProxy ? [] : outbid(auction, bidderId, amount)),
    ],
  };
};

/** The seller hears of a retraction; the leader is read from the bid now leading. */
const bidRetracted = async (
  { data }: BidRetracted,
  auction: AuctionFields,
  uow: UnitOfWork,
): Promise<Outcome> => {
  const { auctionId, bidId, bidderId, leadingBidId, amount, currentBid, reason } = data;
  const leader = leadingBidId === null ? undefined : await uow.get<BidDoc>(BIDS, leadingBidId);
  const why =
    reason === 'account-deleted' ? "withdrawn: its bidder's account was deleted" : 'retracted';
  return {
    auction: {
      ...auction,
      leadingBidId,
      leadingBidderId: leader?.bidderId ?? null,
      ...(auction.currentBid === undefined ? {} : { currentBid }),
    },
    bid: { bidId, fields: { auctionId, bidderId, retracted: true } },
    notices: [
      {
        userId: auction.sellerId,
        kind: 'bid-retracted',
        message: `A bid of ${formatCents(amount)} on ${quoted(auction.title)} was ${why}. The current bid is ${formatCents(currentBid)}.`,
      },
    ],
  };
};

/** Every standing bidder hears of a cancellation. */
const cancelled = async (
  { data }: AuctionCancelled,
  auction: AuctionFields,
  uow: UnitOfWork,
): Promise<Outcome> => ({
  auction,
  notices: (await standingBidders(uow, data.auctionId)).map((userId) => ({
    userId,
    kind: 'cancelled',
    message: `The auction ${quoted(auction.title)} was cancelled.`,
  })),
});

type Closed = AuctionClosed['data'];
type Sold = Extract<Closed, { readonly outcome: 'Sold' }>;

const closed = (d: Closed, auction: AuctionFields, uow: UnitOfWork): Outcome | Promise<Outcome> => {
  if (d.outcome === 'Expired')
    return { auction, notices: d.reserveNotMet ? reserveNotMet(auction) : endedUnsold(auction) };
  if (d.boughtNow) return boughtNow(d, auction, uow);
  const title = quoted(auction.title);
  const price = formatCents(d.finalPrice);
  return {
    auction,
    notices: [
      { userId: d.winnerId, kind: 'won', message: `You won ${title} for ${price}!` },
      {
        userId: auction.sellerId,
        kind: 'sold',
        message: `Your auction ${title} sold for ${price}.`,
      },
    ],
  };
};

/** Bids, none at the reserve: the seller hears, and the bidder who led. */
const reserveNotMet = (auction: AuctionFields): Notice[] => {
  const title = quoted(auction.title);
  const leader = auction.leadingBidderId;
  return [
    {
      userId: auction.sellerId,
      kind: 'reserve-not-met',
      message: `Your auction ${title} ended without a sale: no bid reached your reserve price.`,
    },
    ...(leader === null
      ? []
      : [
          {
            userId: leader,
            kind: 'reserve-not-met' as const,
            message: `The auction ${title} ended without a sale: the reserve price was not met.`,
          },
        ]),
  ];
};

const endedUnsold = (auction: AuctionFields): Notice[] => [
  {
    userId: auction.sellerId,
    kind: 'ended-unsold',
    message: `Your auction ${quoted(auction.title)} ended without bids.`,
  },
];

/** The buyer and the seller hear of the sale, and every other standing bidder that it ended. */
const boughtNow = async (d: Sold, auction: AuctionFields, uow: UnitOfWork): Promise<Outcome> => {
  const title = quoted(auction.title);
  const price = formatCents(d.finalPrice);
  const others = (await standingBidders(uow, d.auctionId)).filter((id) => id !== d.winnerId);
  return {
    auction,
    notices: [
      {
        userId: d.winnerId,
        kind: 'won',
        message: `You bought ${title} for ${price} with Buy It Now!`,
      },
      {
        userId: auction.sellerId,
        kind: 'sold',
        message: `Your auction ${title} sold for ${price} with Buy It Now.`,
      },
      ...others.map((userId) => ({
        userId,
        kind: 'bought-now' as const,
        message: `${title} was bought with Buy It Now for ${price}; the auction has ended.`,
      })),
    ],
  };
};

const apply = async (event: RecordedEvent, auctionEvent: AuctionEvent, uow: UnitOfWork) => {
  const { auctionId, at } = auctionEvent.data;
  const current = await uow.get<AuctionDoc>(AUCTIONS, auctionId);
  // Who to notify depends on the state before the event, so a redelivered event must stop here.
  if (current && current._position >= event.position) return;
  const outcome =
    auctionEvent.type === 'AuctionCreated'
      ? created(auctionEvent)
      : current && (await outcomeOf(auctionEvent, current, uow));
  if (!outcome) return;
  // Watchers last: whoever hears of the event another way keeps that notice (same id).
  const watchers =
    auctionEvent.type === 'AuctionCreated'
      ? undefined
      : await watcherOutcome(auctionEvent, outcome.auction, uow);
  await uow.update<AuctionDoc>(AUCTIONS, auctionId, () => ({
    ...outcome.auction,
    ...watchers?.auction,
  }));
  const { bid } = outcome;
  // Made whole by this event (the auction's document above guards against a redelivery): written
  // without a read.
  if (bid) uow.put<BidDoc>(BIDS, bid.bidId, bid.fields);
  const notices = firstPerUser([...outcome.notices, ...(watchers?.notices ?? [])]);
  for (const { userId, kind, message } of notices) {
    uow.put<NotificationDoc>(ITEMS, `${event.id}:${userId}`, {
      userId,
      kind,
      message,
      timestamp: at,
      position: event.position,
      auctionId,
    } satisfies NotificationFields);
  }
};

/**
 * Notifications from auction events (design §4): the seller on each new or raised bid, the
 * previous leader when someone else outbids them, the winner and the seller on close, and every
 * standing bidder on cancellation. Read and cleared state lives in cursors, not here.
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  collections: Object.values(notificationsCollections),
  // The auction's document says which of its events were applied (see `apply`).
  // Watchers too: who hears of an auction event is derived from them (`watcher-notices.ts`).
  guards: [watchersCollection.name, AUCTIONS],
  handle: async (event, uow) => {
    if (await applyWatcherEvent(event, uow)) return;
    const auctionEvent = asAuctionEvent(event);
    if (auctionEvent) await apply(event, auctionEvent, uow);
  },
};
