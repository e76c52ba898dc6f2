import { z } from 'zod';
import { Id } from '../ids';
import { AuctionStatusView, AuctionView, BidView, PublicUser } from '../http/views';

/** Client → server: watch one auction; events after `afterRevision` are replayed first. */
export const WatchAuction = z.object({
  auctionId: Id,
  /** The last stream revision the client has applied (-1: replay all); absent: replay nothing. */
  afterRevision: z.number().int().min(-1).optional(),
});
export type WatchAuction = z.infer<typeof WatchAuction>;
export const UnwatchAuction = z.object({ auctionId: Id });
export type UnwatchAuction = z.infer<typeof UnwatchAuction>;
/** The spec's client `newBid` emit: accepted and ignored (state changes only through commands). */
export const ClientNewBid = z.looseObject({});
export type ClientNewBid = z.infer<typeof ClientNewBid>;

/** Every acknowledgement: `{ok: true, ...}` or `{ok: false, error: {code, message}}`. */
export type SocketAck =
  | ({ readonly ok: true } & Readonly<Record<string, unknown>>)
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };
/** The acknowledgement callback a client passes as the last argument of its emit. */
export type SocketAckCallback = (answer: SocketAck) => void;

/** Server → room `auction:{id}`: one auction event, with its stream revision and the current bid. */
export const AuctionSocketEvent = z.object({
  productId: z.string(),
  revision: z.number().int(),
  type: z.string(),
  /** The bid the event is about (newBid, bidUpdated, bidRetracted), else null. */
  bid: BidView.nullable(),
  /** Dollars, after the event. */
  currentBid: z.number(),
  status: AuctionStatusView,
  /** What an auctionUpdated changed (dollars, ISO times, image `{url}`). */
  changes: z.record(z.string(), z.unknown()).optional(),
  winnerId: z.string().nullable().optional(),
  /** AuctionClosed: the winner as views show them (their bid may be on a page not loaded). */
  winner: PublicUser.nullable().optional(),
  finalPrice: z.number().nullable().optional(),
  /** The auction after the event: the leading bid, the reserve's state, Buy It Now on offer. */
  leadingBidId: z.string().nullable().optional(),
  reserve: z.enum(['none', 'not-met', 'met']).optional(),
  buyNowPrice: z.number().nullable().optional(),
  /** How many bids stand after the event (a watcher holds only some of them). */
  bidCount: z.number().int().optional(),
  /** AuctionClosed: sold at the Buy It Now price. */
  boughtNow: z.boolean().optional(),
  at: z.string(),
});
export type AuctionSocketEvent = z.infer<typeof AuctionSocketEvent>;

/**
 * Server → one watcher: the auction as it stands at `revision`, sent instead of a replay to a
 * watch from further behind than the server's replay buffer. The auction events after `revision`
 * follow; the client replaces its copy of the auction with `auction` and goes on from there. Like
 * the detail, `auction.bids` is the first page of the standing bids: its size does not grow with
 * the auction's history, and `GET /auction/bids` pages the rest from `auction.bidsNextCursor`.
 */
export const AuctionStateEvent = z.object({
  productId: z.string(),
  revision: z.number().int(),
  auction: AuctionView,
});
export type AuctionStateEvent = z.infer<typeof AuctionStateEvent>;
export const auctionStateEventName = 'auction:state';

/**
 * Why an `auction:watch` was refused (ack `{ok: false, error: {code: 'RATE_LIMITED', message}}`):
 * the watch changed nothing, the socket keeps what it watched before.
 */
export const watchRefusals = {
  socketRate: 'Too many requests to watch auctions from this page. Please wait a few seconds.',
  addressRate: 'Too many requests to watch auctions from your network. Please wait a few seconds.',
  socketWatching:
    'This page is watching too many auctions at once. Stop watching one to watch another.',
  addressWatching:
    'Too many auctions are being watched from your network at once. Stop watching one to watch another.',
} as const;

/**
 * The `type` of a payload for a revision that changes nothing a watcher sees: a bidder's private
 * raise of their maximum, a seller's edit of the reserve's amount. One shape for all (no bid, no
 * changes), so a payload never tells which it was.
 */
export const quietRevisionType = 'Revision';

/** Server event names per auction event type. */
export const socketEventNames = {
  BidPlaced: 'newBid',
  BidEdited: 'bidUpdated',
  AutomaticBidPlaced: 'bidUpdated',
  // Private: watchers hear only that the auction moved on a revision (`quietRevisionType`).
  BidMaximumRaised: 'auctionUpdated',
  BidRetracted: 'bidRetracted',
  AuctionEdited: 'auctionUpdated',
  AuctionCancelled: 'auctionUpdated',
  AuctionClosed: 'auctionClosed',
  /** Watchlist: nothing to show on the page, but its revision keeps the watcher's order. */
  AuctionEndingSoon: 'auctionUpdated',
} as const;
/** The names the auction events go out under (`newBid`, `bidUpdated`, ...). */
export type AuctionSocketEventName = (typeof socketEventNames)[keyof typeof socketEventNames];

/** Server → room `user:{id}` (every tab of that user): a notification the read model created. */
export const BidNotification = z.object({
  _id: z.string(),
  message: z.string(),
  timestamp: z.string(),
  auctionId: z.string().nullable(),
  isRead: z.boolean(),
});
export type BidNotification = z.infer<typeof BidNotification>;

/** Each auction event name with its listener: every one of them carries an `AuctionSocketEvent`. */
type AuctionEventListeners = {
  readonly [Name in AuctionSocketEventName]: (event: AuctionSocketEvent) => void;
};

/**
 * Everything the server emits, as socket.io's event map (event name → listener): the API's
 * `Server<ClientToServerEvents, ServerToClientEvents>`, the browser's
 * `Socket<ServerToClientEvents, ClientToServerEvents>`. Types only: a client still parses what
 * arrives (a server of another version may send something else).
 */
export interface ServerToClientEvents extends AuctionEventListeners {
  /** To one watcher, instead of a replay from further behind than the server keeps. */
  readonly [auctionStateEventName]: (state: AuctionStateEvent) => void;
  /** To room `user:{id}`. */
  readonly bidNotification: (notification: BidNotification) => void;
}

/**
 * Everything a client of ours emits, each with its acknowledgement. Types only: the server parses
 * every payload (`WatchAuction`, `UnwatchAuction`, `ClientNewBid`), whatever a client sends, and
 * answers an unknown event or a bad payload with `VALIDATION_FAILED` when there is an ack to answer.
 */
export interface ClientToServerEvents {
  readonly 'auction:watch': (watch: WatchAuction, ack: SocketAckCallback) => void;
  readonly 'auction:unwatch': (unwatch: UnwatchAuction, ack?: SocketAckCallback) => void;
  readonly newBid: (bid: ClientNewBid, ack?: SocketAckCallback) => void;
}
