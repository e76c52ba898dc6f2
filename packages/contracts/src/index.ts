export {
  Cents,
  Dollars,
  MAX_CENTS,
  centsToDollars,
  dollarsToCents,
  formatCents,
  formatWholeCents,
  hasAtMostTwoDecimals,
} from './money';
export {
  type TextKind,
  normaliseText,
  hiddenCharacterIn,
  hiddenCharactersMessage,
  visibleText,
} from './text';
export { IsoTime, toIsoTime, isoToMs, DAY_MS } from './time';
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
  ONE_DOLLAR_CENTS,
  bidIncrements,
  defaultIncrementRule,
  incrementAt,
  legacyIncrementRule,
  minimumRaise,
} from './increments';
export { fixedCategories } from './categories';
export { type PriceFacts, type ReserveStatus, reserveStatus, buyNowOnOffer } from './reserve';
export type { AuctionStatus } from './auction-status';
export {
  errorCatalog,
  errorCodes,
  rejection,
  bidTooLow,
  buyNowPriceChanged,
  httpStatusOf,
  DomainError,
  type ErrorCode,
  type Rejection,
} from './errors';
export {
  ImageRef,
  SoftClose,
  AuctionTitle,
  AuctionDescription,
  CancellationReason,
  RetractionReason,
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
  auctionEventTypes,
  type AuctionEventType,
} from './events/auction-events';
export {
  CategoryName,
  CategoryDescription,
  CategoryCreated,
  CategoryNameReserved,
  CategoryEvent,
} from './events/category-events';
export { EventMetadata, SaltHex, Sha256Hex } from './events/metadata';
export { type StoredEvent, asAuctionEvent } from './events/as-auction-event';
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
  type AuctionCommandType,
} from './commands/auction-commands';
export {
  PublicUser,
  ImageView,
  BidView,
  RetractionView,
  AuctionStatusView,
  AuctionView,
  CategoryView,
  ProfileStatistics,
  RecentActivity,
  HistoryType,
  HistoryStatus,
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
  type Ranked,
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
  AuditStatus,
  AuditState,
  ChainBreak,
  AuditChainCheck,
  AuditTruncationCheck,
  AuditDifference,
  AuditReadModelCheck,
  AuditVerification,
  AuditParams,
  AuditPoint,
  auditOperations,
} from './http/audit';
export {
  API_BASE,
  READ_MODELS_BEHIND_HEADER,
  type Method,
  type Operation,
  operationTable,
  pathOf,
} from './http/operation';
export { operations, serviceOperations } from './http/operations';
export {
  BIDS_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_CURSOR_LENGTH,
  INVALID_CURSOR,
  INVALID_LIMIT,
  NextCursor,
  PageQuery,
  pageFields,
} from './http/paging';
export { DECIMALS } from './http/input';
export {
  Email,
  LoginFields,
  SignupFields,
  passwordsMatch,
  LoginBody,
  SignupBody,
  GoogleLoginBody,
  authOperations,
} from './http/auth';
export {
  startingPriceMessages,
  CreateAuctionBody,
  type EndChange,
  EditAuctionBody,
  AuctionIdParams,
  AuctionIdQuery,
  AuctionFilters,
  CreateCategoryBody,
  auctionOperations,
} from './http/auctions';
export {
  AMOUNT_REQUIRED,
  BidAmount,
  PlaceBidBody,
  EditBidBody,
  BuyNowBody,
  BidParams,
  bidOperations,
} from './http/bids';
export { HistoryQuery, userOperations } from './http/users';
export {
  AccountRegistered,
  AccountDeletionRequested,
  AccountDeleted,
  UserEvent,
} from './events/user-events';
export {
  AuctionWatched,
  AuctionUnwatched,
  WatchlistEvent,
  watchlistEventTypes,
} from './events/watchlist-events';
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
