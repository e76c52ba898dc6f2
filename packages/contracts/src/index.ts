export {
  MAX_CENTS,
  centsToDollars,
  dollarsToCents,
  formatCents,
  hasAtMostTwoDecimals,
} from './money';
export { IsoTime, toIsoTime, isoToMs } from './time';
export {
  Id,
  SYSTEM_ACTOR,
  auctionStream,
  userStream,
  categoryStream,
  watchlistStream,
  categoryNameStream,
  normaliseCategoryName,
} from './ids';
export { rules } from './rules';
export {
  IncrementRule,
  bidIncrements,
  defaultIncrementRule,
  incrementAt,
  legacyIncrementRule,
  minimumRaise,
} from './increments';
export { fixedCategories } from './categories';
export { type PriceFacts, reserveStatus, buyNowOnOffer } from './reserve';
export { priceProblems } from './prices';
export type { AuctionStatus } from './auction-status';
export {
  type AuctionSummary,
  type FoldedSummary,
  noAuction,
  summaryChange,
  summaryOf,
} from './auction-summary';
export {
  errorCatalog,
  rejection,
  bidTooLow,
  buyNowPriceChanged,
  httpStatusOf,
  DomainError,
  type ErrorCode,
  type Rejection,
} from './errors';
export {
  SoftClose,
  AuctionCreated,
  AuctionEdited,
  AuctionCancelled,
  BidPlaced,
  BidEdited,
  BidMaximumRaised,
  AutomaticBidPlaced,
  BidRetracted,
  AuctionClosed,
  AuctionEndingSoon,
  AuctionEvent,
} from './events/auction-events';
export { CategoryCreated, CategoryNameReserved } from './events/category-events';
export { EventMetadata } from './events/metadata';
export type { RecordedEvent } from './events/recorded-event';
export { asAuctionEvent } from './events/as-auction-event';
export {
  CommandMetadata,
  CreateAuction,
  EditAuction,
  CancelAuction,
  PlaceBid,
  EditBid,
  RetractBid,
  BuyNow,
  CloseAuction,
  AnnounceEndingSoon,
  AuctionCommand,
} from './commands/auction-commands';
export {
  PublicUser,
  BidView,
  RetractionView,
  AuctionView,
  CategoryView,
  ProfileStatistics,
  RecentActivity,
  HistoryType,
  HistoryEntry,
  WinningItem,
  WinningsStatistics,
  NotificationView,
  Role,
  SessionUser,
  ProfileView,
} from './http/views';
export {
  type BidFacts,
  type RetractionFacts,
  RETRACTIONS_SHOWN,
  bidView,
  deletedUser,
  latestRetractions,
  retractionView,
  standingOrder,
} from './http/bid-view';
export { WatchlistState, watchlistOperations } from './http/watchlist';
export {
  AuditEvent,
  AuditState,
  AuditActor,
  AuditChange,
  AuditStep,
  AuditTimeline,
  AuditChainCheck,
  AuditTruncationCheck,
  AuditDifference,
  AuditReadModelCheck,
  AuditVerification,
  AuditParams,
  AuditPoint,
  auditOperations,
} from './http/audit';
export { API_BASE, READ_MODELS_BEHIND_HEADER, type Operation } from './http/operation';
export { operations, serviceOperations } from './http/operations';
export {
  BIDS_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_CURSOR_LENGTH,
  INVALID_CURSOR,
  PageQuery,
} from './http/paging';
export { LoginFields, SignupFields, passwordsMatch, LoginBody, authOperations } from './http/auth';
export {
  CreateAuctionBody,
  type EndChange,
  CreateCategoryBody,
  AuctionSort,
  auctionOperations,
} from './http/auctions';
export { AMOUNT_REQUIRED, BidAmount, bidOperations } from './http/bids';
export { userOperations } from './http/users';
export {
  PRICE_HISTORY_PAGE,
  PriceHistoryEntry,
  priceHistoryOperations,
} from './http/price-history';
export { AccountDeleted, UserEvent } from './events/user-events';
export { WatchlistEvent } from './events/watchlist-events';
export {
  WatchAuction,
  UnwatchAuction,
  ClientNewBid,
  AuctionSocketEvent,
  AuctionStateEvent,
  auctionStateEventName,
  BidNotification,
  quietRevisionType,
  socketEventNames,
  watchRefusals,
  type AuctionSocketEventName,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketAck,
  type SocketAckCallback,
} from './socket/socket';
export { applyAuctionEvent, sortBids, withBidsPage } from './socket/apply-auction-event';
