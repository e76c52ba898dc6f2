import { z } from 'zod';
import { SoftClose } from '../events/auction-events';
import { IncrementRule } from '../increments';

/** What the API shows of a user next to their auctions and bids. Money in views is in dollars. */
export const PublicUser = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  image: z.object({ url: z.string() }).nullable(),
});
export type PublicUser = z.infer<typeof PublicUser>;

export const ImageView = z.object({ url: z.string() }).nullable();

export const BidView = z.object({
  _id: z.string(),
  auctionId: z.string(),
  /** Dollars; `amount` is the same value under the other name the spec reads. */
  bidAmount: z.number(),
  amount: z.number(),
  bidder: PublicUser,
  createdAt: z.string(),
  /** Whether the system set this amount for the bidder, bidding up to their secret maximum. */
  automatic: z.boolean().optional(),
});
export type BidView = z.infer<typeof BidView>;

/** A bid its bidder took back (or their account's deletion did), as everyone sees it. */
export const RetractionView = z.object({
  /** The retracted bid's id. */
  _id: z.string(),
  bidder: PublicUser,
  /** Dollars: what the bid stood at when it was retracted. */
  amount: z.number(),
  /** When the bid was placed. */
  createdAt: z.string(),
  retractedAt: z.string(),
});
export type RetractionView = z.infer<typeof RetractionView>;

export const AuctionStatusView = z.enum(['Live', 'Sold', 'Expired', 'Cancelled']);

export const AuctionView = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.object({ _id: z.string(), name: z.string() }),
  startingPrice: z.number(),
  /** The highest standing bid in dollars, 0 when none. */
  currentBid: z.number(),
  image: ImageView,
  /** The same image under the name the list cards read. */
  images: ImageView,
  seller: PublicUser,
  auctionEndTime: z.string(),
  /** How much each bid must beat the current price by: $1, or the published table. */
  increments: IncrementRule,
  /** Soft close: a bid this close to the end moves it (null: the end never moves). */
  softClose: SoftClose.nullable(),
  /** Whether a bid in the soft-close window has moved the end. */
  extended: z.boolean(),
  /** Whether there is a reserve price and whether the leading bid reaches it (never the amount). */
  reserve: z.enum(['none', 'not-met', 'met']),
  /** Dollars, while Buy It Now is on offer; null when there is none or it is gone. */
  buyNowPrice: z.number().nullable(),
  /** Sold at the Buy It Now price. */
  boughtNow: z.boolean(),
  /** The bid that leads (on equal amounts, the one whose maximum came first). */
  leadingBidId: z.string().nullable(),
  /**
   * What only the signed-in viewer may see: their own secret maximum (and the bid it belongs
   * to), and, for the seller, the reserve price. Absent in views for everyone.
   */
  viewer: z
    .object({
      bidId: z.string().nullable(),
      maxBid: z.number().nullable(),
      reservePrice: z.number().nullable(),
      /**
       * Their own bids they may still delete, each until its grace period ends (never in the
       * auction's last `rules.retraction.closingMs`). A hint for the page: the server decides.
       */
      retractable: z.array(z.object({ bidId: z.string(), until: z.string() })).optional(),
    })
    .optional(),
  status: AuctionStatusView,
  /**
   * Standing bids, highest first: the first page of them (the detail and the realtime state carry
   * `BIDS_PAGE_SIZE`, lists the top few); `GET /auction/bids` pages the rest from `bidsNextCursor`.
   */
  bids: z.array(BidView),
  /** The cursor of the standing bids after `bids` (null: `bids` holds them all). */
  bidsNextCursor: z.string().nullable(),
  /** How many bids stand, all pages together. */
  bidCount: z.number().int(),
  /**
   * Retracted bids, newest first: the latest `RETRACTIONS_SHOWN` in a detail, none in a list.
   * Standing bids never appear here, nor retracted ones in `bids`.
   */
  retractions: z.array(RetractionView),
  createdAt: z.string(),
  winner: PublicUser.nullable(),
  finalPrice: z.number().nullable(),
  /**
   * When the auction stopped taking bids (its close, a Buy It Now sale, or its cancellation):
   * null while Live. A Buy It Now sale closes before `auctionEndTime`, which keeps the planned end.
   */
  closedAt: z.string().nullable(),
  /** Stream revision the view reflects: realtime events after it apply on top. */
  revision: z.number().int(),
  /** Whether the signed-in user watches it (watchlist); absent for guests and socket payloads. */
  watching: z.boolean().optional(),
});
export type AuctionView = z.infer<typeof AuctionView>;

export const CategoryView = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type CategoryView = z.infer<typeof CategoryView>;

export const ProfileStatistics = z.object({
  totalAuctions: z.number().int(),
  totalWinnings: z.number().int(),
  totalBids: z.number().int(),
  totalWinningsValue: z.number(),
  watchListCount: z.number().int(),
  activeAuctions: z.number().int(),
  completedAuctions: z.number().int(),
});
export type ProfileStatistics = z.infer<typeof ProfileStatistics>;

export const RecentActivity = z.object({
  _id: z.string(),
  product: z.object({ _id: z.string(), title: z.string() }),
  amount: z.number(),
  createdAt: z.string(),
});
export type RecentActivity = z.infer<typeof RecentActivity>;

export const HistoryType = z.enum(['created', 'won', 'bid']);
/** `lost`: a bid on an auction that closed without it winning (sold to another, or no sale). */
export const HistoryStatus = z.enum([
  'active',
  'outbid',
  'lost',
  'completed',
  'cancelled',
  'retracted',
]);
export const HistoryEntry = z.object({
  id: z.string(),
  type: HistoryType,
  auctionId: z.string(),
  title: z.string(),
  /** The image's URL, used as an image source by clients (null: none). */
  image: z.string().nullable(),
  amount: z.number(),
  status: HistoryStatus,
  date: z.string(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const WinningItem = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  image: ImageView,
  finalPrice: z.number(),
  originalPrice: z.number(),
  wonDate: z.string(),
  /** The category's name, as the spec shows it (null: unknown). */
  category: z.string().nullable(),
  categoryId: z.string(),
  /** The seller's full name ("Deleted user" once erased), as the spec shows it. */
  seller: z.string().nullable(),
  sellerId: z.string(),
});
export type WinningItem = z.infer<typeof WinningItem>;

export const WinningsStatistics = z.object({
  totalItems: z.number().int(),
  totalValue: z.number(),
  /** Original (starting) price minus final price, summed, as the spec defines savings. */
  totalSavings: z.number(),
  averageSavings: z.number(),
});
export type WinningsStatistics = z.infer<typeof WinningsStatistics>;

export const NotificationView = z.object({
  _id: z.string(),
  message: z.string(),
  timestamp: z.string(),
  isRead: z.boolean(),
  auctionId: z.string().nullable(),
});
export type NotificationView = z.infer<typeof NotificationView>;

export const Role = z.enum(['User', 'Auditor', 'Admin']);
export type Role = z.infer<typeof Role>;

/** The signed-in user as login and `GET /auth/me` return it (design §5): personal data, own eyes only. */
export const SessionUser = z.object({
  _id: z.string(),
  id: z.string(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: Role,
  image: ImageView,
  createdAt: z.string(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** `GET /user/profile`'s `data`. */
export const ProfileView = z.object({
  user: SessionUser.extend({ products: z.array(AuctionView), winnings: z.array(WinningItem) }),
  statistics: ProfileStatistics,
  recentActivity: z.array(RecentActivity),
});
export type ProfileView = z.infer<typeof ProfileView>;
