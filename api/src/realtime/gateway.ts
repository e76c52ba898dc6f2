import type { Server as HttpServer } from 'node:http';
import {
  AccountDeleted,
  asAuctionEvent,
  type AuctionEvent,
  type AuctionSocketEvent,
  type AuctionSocketEventName,
  type AuctionStateEvent,
  type BidNotification,
  type PublicUser,
  ClientNewBid,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketAck,
  type SocketAckCallback,
  UnwatchAuction,
  WatchAuction,
  auctionStateEventName,
  auctionStream,
  categoryStream,
  errorCatalog,
  deletedUser,
} from '@auction/contracts';
import {
  type AuctionState,
  type RecordedEvent,
  type Subscription,
  evolve,
  initialState,
} from '@auction/engine';
import { type Doc, type Write, notificationsCollections } from '@auction/projections';
import type { RequestHandler } from 'express';
import { Server, type Socket } from 'socket.io';
import type { Account } from '../accounts/account';
import type { AppDeps } from '../app-deps';
import {
  bidCountAfter,
  isBroadcast,
  socketEventName,
  socketPayload,
  standingBidCount,
  usersOf,
} from './auction-events';
import { auctionView, usersOfView } from './auction-view';
import { withImageUrls } from '../stores/images/image-urls';
import { UserCache } from './user-cache';
import { type WatchLimitSettings, WatchLimits, socketAddress } from './watch-limits';

/** The API's end of the contract: it hears `ClientToServerEvents` and emits `ServerToClientEvents`. */
export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents>;
type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

const reply = (ack: unknown, answer: SocketAck): void => {
  if (typeof ack === 'function') (ack as SocketAckCallback)(answer);
};
const invalid = (ack: unknown, message: string) =>
  reply(ack, { ok: false, error: { code: 'VALIDATION_FAILED', message } });
const limited = (message: string): SocketAck => ({
  ok: false,
  error: { code: 'RATE_LIMITED', message },
});

/** Profile lookups a state may take while new bidders keep arriving, before the watch gives up. */
const STATE_LOOKUPS = 5;
/**
 * A watch whose `afterRevision` is ahead of the gateway waits for it this many times this long
 * (at most a second), then joins all the same.
 */
const AHEAD_WAITS = 50;
const AHEAD_WAIT_MS = 20;
/** Category names kept (they never change); all forgotten at once beyond this. */
const CATEGORY_NAMES = 10_000;

const room = (auctionId: string) => `auction:${auctionId}`;
/** An auction's stream is this prefix and its id (`auctionStream`). */
const AUCTION_STREAM = auctionStream('');
const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** An auction the gateway keeps up to date as its events go by (while watched, and a while after). */
interface Followed {
  /** The auction after `revision`, every event of it up to `broadcastPosition` applied. */
  state: AuctionState;
  revision: number;
  /** The latest events as broadcast (name and payload), oldest first, for replays. */
  readonly recent: {
    revision: number;
    name: AuctionSocketEventName;
    payload: AuctionSocketEvent;
  }[];
  /** Every broadcast event from this revision on is in `recent`. */
  recentFrom: number;
  /** The business time of its `AuctionCreated` (for the state sent to a watcher far behind). */
  readonly createdAt: string;
  /** How many bids stand at `revision`. */
  bidCount: number;
  /** The `auction:state` last built, sent again to every watch far behind at its revision. */
  builtState?: AuctionStateEvent | undefined;
}

export interface GatewayOptions {
  /** Events per followed auction kept for replays; a watcher further behind gets the state. */
  readonly replayBuffer?: number;
  /** Followed auctions kept in all; the least recently used unwatched ones go first. */
  readonly followedAuctions?: number;
  /** Public profiles kept (`UserCache`). */
  readonly users?: number;
  /** Watch limits per socket and address; default from the configuration (`WATCH_*`). */
  readonly limits?: Partial<WatchLimitSettings>;
}

/**
 * Socket.IO on the API's port: auction events from committed events only, in global order, each
 * with its stream revision, so a watcher sees every revision once and in order. Applying an event
 * (state, replay buffer, emit, position) is one synchronous step, so a watch that checks and joins
 * in one turn can neither miss it nor get it twice. See README.md here.
 */
export class RealtimeGateway {
  readonly io: RealtimeServer;
  private subscription: Subscription | undefined;
  /** Global position of the last event this gateway has applied (broadcast or skipped). */
  private broadcastPosition = 0;
  private bootPosition = 0;
  private readonly followed = new Map<string, Followed>();
  /** One read of the store per auction to start following it, shared by concurrent watches. */
  private readonly loading = new Map<string, Promise<Followed | undefined>>();
  /** Global position of the last event of each auction being loaded (only they need it). */
  private readonly lastOfAuction = new Map<string, number>();
  private readonly users: UserCache;
  private readonly replayBuffer: number;
  private readonly followedAuctions: number;
  private readonly limits: WatchLimits;
  private readonly categoryNames = new Map<string, string>();

  constructor(
    private readonly deps: AppDeps,
    httpServer: HttpServer,
    middleware: readonly RequestHandler[],
    allowedOrigins: () => readonly string[],
    options: GatewayOptions = {},
  ) {
    this.users = new UserCache(withImageUrls(deps.accounts, deps.imageUrl), options.users);
    this.replayBuffer = Math.max(1, options.replayBuffer ?? 256);
    this.followedAuctions = Math.max(1, options.followedAuctions ?? 1000);
    const { config } = deps;
    this.limits = new WatchLimits({
      perSocket: config.WATCH_LIMIT_PER_SOCKET,
      ratePerSocket: config.WATCH_RATE_PER_SOCKET,
      perAddress: config.WATCH_LIMIT_PER_ADDRESS,
      ratePerAddress: config.WATCH_RATE_PER_ADDRESS,
      ...options.limits,
    });
    this.io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, {
      serveClient: false,
      // Pages of CORS_ORIGINS may poll (long-polling requests are CORS requests; WebSocket is not).
      ...(config.CORS_ORIGINS
        ? {
            cors: { origin: [...config.CORS_ORIGINS], credentials: true, methods: ['GET', 'POST'] },
          }
        : {}),
      allowRequest: (req, callback) => {
        const origin = req.headers.origin;
        callback(null, origin === undefined || allowedOrigins().includes(origin));
      },
    });
    for (const handler of middleware) this.io.engine.use(handler);
    this.io.on('connection', (socket) => this.connected(socket));
  }

  /** Follows the log from its current end; resolves once live. */
  async start(): Promise<void> {
    this.bootPosition = (await this.deps.events.headPosition()) ?? 0;
    this.broadcastPosition = this.bootPosition;
    this.subscription = this.deps.events.subscribe({
      ...(this.bootPosition > 0 ? { afterPosition: this.bootPosition } : {}),
      onEvents: (events) => this.broadcast(events),
      onError: (error) => this.deps.log('Realtime subscription failed', error),
    });
    await this.subscription.caughtUp;
  }

  async close(): Promise<void> {
    this.limits.close();
    await this.subscription?.close();
    await new Promise<void>((resolve) => void this.io.close(() => resolve()));
  }

  /** Ends every socket of a user (account deletion). */
  disconnectUser(userId: string): void {
    this.io.in(userRoom(userId)).disconnectSockets(true);
  }

  /** Ends the sockets opened under one session (logout). */
  disconnectSession(sessionId: string): void {
    this.io.in(sessionRoom(sessionId)).disconnectSockets(true);
  }

  /** Pushes each notification the read model just created to its user's sockets. */
  projectionCommitted(projection: string, writes: readonly Write[]): void {
    if (projection !== 'notifications') return;
    for (const write of writes) {
      if (write.kind !== 'put' || write.collection !== notificationsCollections.items.name)
        continue;
      const doc = write.doc as Doc & {
        userId: string;
        message: string;
        timestamp: string;
        position: number;
        auctionId: string;
      };
      if (doc.position <= this.bootPosition) continue;
      // A user with no socket on this node: nothing to encode (each node emits to its own).
      if (!this.io.sockets.adapter.rooms.get(userRoom(doc.userId))?.size) continue;
      const notification: BidNotification = {
        _id: doc._id,
        message: doc.message,
        timestamp: doc.timestamp,
        auctionId: doc.auctionId,
        isRead: false,
      };
      this.io.to(userRoom(doc.userId)).emit('bidNotification', notification);
    }
  }

  private connected(socket: RealtimeSocket): void {
    const req = socket.request as typeof socket.request & { user?: Account; sessionID?: string };
    if (req.user) void socket.join(userRoom(req.user.id));
    if (req.sessionID) void socket.join(sessionRoom(req.sessionID));
    this.limits.connected(socket, socketAddress(socket, this.deps.config.TRUST_PROXY));
    socket.on('disconnect', () => this.limits.disconnected(socket));
    // Whatever the contract says a client sends, the arguments are untrusted: `unknown` here.
    const handle = (
      event: keyof ClientToServerEvents,
      handler: (payload: unknown, ack: unknown) => void,
    ) =>
      socket.on(event, (...args: unknown[]) => {
        const last = args[args.length - 1];
        const ack = typeof last === 'function' ? last : undefined;
        handler(ack !== undefined && args.length === 1 ? undefined : args[0], ack);
      });
    handle('auction:watch', (payload, ack) => void this.watch(socket, payload, ack));
    handle('auction:unwatch', (payload, ack) => {
      const parsed = UnwatchAuction.safeParse(payload);
      if (!parsed.success) return invalid(ack, 'auctionId must be an auction id');
      void socket.leave(room(parsed.data.auctionId));
      this.limits.release(socket, parsed.data.auctionId);
      reply(ack, { ok: true });
    });
    handle('newBid', (payload, ack) => {
      if (!ClientNewBid.safeParse(payload).success) return invalid(ack, 'newBid takes an object');
      reply(ack, { ok: true, ignored: true });
    });
    socket.onAny((event: string, ...args: unknown[]) => {
      if (['auction:watch', 'auction:unwatch', 'newBid'].includes(event)) return;
      invalid(args[args.length - 1], `Unknown event ${String(event).slice(0, 40)}`);
    });
  }

  /**
   * Within the limits, joins the room after sending what the socket missed after `afterRevision`:
   * the replay buffer's events, or, from further behind, the auction's state at the revision it
   * has reached (`auction:state`), never more than the buffer or the state. A refusal (limits,
   * unknown auction, a failure) leaves the socket as it was.
   */
  private async watch(socket: RealtimeSocket, payload: unknown, ack: unknown): Promise<void> {
    const parsed = WatchAuction.safeParse(payload);
    if (!parsed.success) return invalid(ack, 'auction:watch takes {auctionId, afterRevision?}');
    const { auctionId, afterRevision } = parsed.data;
    const refused = this.limits.admit(socket, auctionId);
    if (refused) return reply(ack, limited(refused));
    let answer: SocketAck;
    try {
      answer = await this.join(socket, auctionId, afterRevision);
    } catch (error) {
      this.deps.log('auction:watch failed', error);
      answer = {
        ok: false,
        error: { code: 'UNAVAILABLE', message: errorCatalog.UNAVAILABLE.message },
      };
    }
    // A failed watch gives its slot back, unless the socket watches the auction all the same.
    if (!answer.ok && !socket.rooms.has(room(auctionId))) this.limits.release(socket, auctionId);
    reply(ack, answer);
  }

  private async join(
    socket: RealtimeSocket,
    auctionId: string,
    afterRevision: number | undefined,
  ): Promise<SocketAck> {
    // The profiles and the category name a state needs, gathered before the turn that sends it.
    const profiles = new Map<string, PublicUser>();
    let categoryName: string | undefined;
    let lookups = 0;
    let aheadWaits = 0;
    for (;;) {
      const followed = this.followed.get(auctionId) ?? (await this.follow(auctionId));
      if (!followed) {
        return {
          ok: false,
          error: { code: 'AUCTION_NOT_FOUND', message: errorCatalog.AUCTION_NOT_FOUND.message },
        };
      }
      // Dropped while this watch waited: follow it again.
      if (this.followed.get(auctionId) !== followed) continue;
      // The socket has a revision this gateway has not applied yet (a bid's 201 can reach the
      // client before its event reaches the gateway): joining now would send it that revision
      // again. Wait, bounded, for the gateway to get there.
      if (
        afterRevision !== undefined &&
        afterRevision > followed.revision &&
        aheadWaits++ < AHEAD_WAITS
      ) {
        await new Promise((resolve) => setTimeout(resolve, AHEAD_WAIT_MS));
        continue;
      }
      const behind = afterRevision !== undefined && afterRevision + 1 < followed.recentFrom;
      const built =
        followed.builtState?.revision === followed.revision ? followed.builtState : undefined;
      const categoryId = followed.state.categoryId ?? '';
      categoryName ??= this.categoryNames.get(categoryId);
      const building = behind && !built;
      const missing = building ? usersOfView(followed.state).filter((id) => !profiles.has(id)) : [];
      if (building && (missing.length > 0 || categoryName === undefined)) {
        if (++lookups > STATE_LOOKUPS) throw new Error(`${auctionId}: its bidders kept changing`);
        const [found, name] = await Promise.all([
          this.users.load(missing),
          categoryName ?? this.categoryName(categoryId),
        ]);
        for (const [id, user] of found) profiles.set(id, user);
        categoryName = name;
        continue;
      }
      // One turn: the slot, the buffer after `afterRevision` or the state, then the room.
      const full = this.limits.hold(socket, auctionId);
      if (full) return limited(full);
      if (behind) {
        const state = built ?? this.buildState(auctionId, followed, profiles, categoryName ?? '');
        socket.emit(auctionStateEventName, state);
      } else if (afterRevision !== undefined) {
        for (const event of followed.recent)
          if (event.revision > afterRevision) socket.emit(event.name, event.payload);
      }
      void socket.join(room(auctionId));
      this.touch(auctionId, followed);
      return { ok: true, revision: followed.revision };
    }
  }

  /**
   * The auction at its followed revision as a watcher far behind gets it: the first page of its
   * bids, so its size does not grow with the auction's. Built once per revision, whoever asks.
   */
  private buildState(
    auctionId: string,
    followed: Followed,
    profiles: ReadonlyMap<string, PublicUser>,
    categoryName: string,
  ): AuctionStateEvent {
    const auction = auctionView(
      followed.state,
      followed.revision,
      { createdAt: followed.createdAt, categoryName },
      this.users.current(profiles),
      this.deps.imageUrl,
    );
    followed.builtState = { productId: auctionId, revision: followed.revision, auction };
    return followed.builtState;
  }

  /** A category's name, read once (a name never changes); '' while the log has none. */
  private async categoryName(categoryId: string): Promise<string> {
    const [created] = categoryId
      ? await this.deps.events.readStream(categoryStream(categoryId), { toRevision: 0 })
      : [];
    const name = (created?.data as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') return '';
    if (this.categoryNames.size >= CATEGORY_NAMES) this.categoryNames.clear();
    this.categoryNames.set(categoryId, name);
    return name;
  }

  /** Starts following an auction (one store read, whoever asks meanwhile); undefined if none. */
  private follow(auctionId: string): Promise<Followed | undefined> {
    let loading = this.loading.get(auctionId);
    if (!loading) {
      loading = this.load(auctionId).finally(() => {
        this.loading.delete(auctionId);
        this.lastOfAuction.delete(auctionId);
      });
      this.loading.set(auctionId, loading);
    }
    return loading;
  }

  /**
   * Folds the stream up to what has been applied (keeping the payloads of its last events for
   * replays), and takes it as followed in the same turn in which it sees that nothing more of this
   * auction was applied meanwhile (else reads on).
   */
  private async load(auctionId: string): Promise<Followed | undefined> {
    const streamId = auctionStream(auctionId);
    let state = initialState;
    let bidCount = 0;
    let folded = -1;
    let createdAt = '';
    const tail: {
      event: AuctionEvent;
      revision: number;
      state: AuctionState;
      bidCount: number;
    }[] = [];
    let tailFrom = 0;
    for (;;) {
      const upTo = this.broadcastPosition;
      const read = await this.deps.events.readStream(streamId, { fromRevision: folded + 1 });
      for (const recorded of read) {
        if (recorded.position > upTo) break;
        const event = asAuctionEvent(recorded);
        if (event) {
          bidCount = bidCountAfter(bidCount, event, state);
          state = evolve(state, event);
          if (event.type === 'AuctionCreated') createdAt = event.data.at;
          if (isBroadcast(event))
            tail.push({ event, revision: recorded.revision, state, bidCount });
          if (tail.length > this.replayBuffer) tailFrom = (tail.shift()?.revision ?? -1) + 1;
        }
        folded = recorded.revision;
      }
      const loaded = await this.users.load(tail.flatMap(({ event }) => usersOf(event)));
      const existing = this.followed.get(auctionId);
      if (existing) return existing;
      if ((this.lastOfAuction.get(auctionId) ?? 0) <= upTo) {
        if (state.status === 'None') return undefined;
        const users = this.users.current(loaded);
        const recent: Followed['recent'] = [];
        for (const { event, revision, state: after, bidCount: count } of tail) {
          if (!isBroadcast(event)) continue;
          const payload = socketPayload(event, revision, after, users, this.deps.imageUrl, count);
          recent.push({ revision, name: socketEventName(event), payload });
        }
        const followed: Followed = {
          state,
          revision: folded,
          recent,
          recentFrom: tailFrom,
          createdAt,
          bidCount,
        };
        this.touch(auctionId, followed);
        return followed;
      }
    }
  }

  /** Most recently used last; beyond the bound the least recently used unwatched ones are dropped. */
  private touch(auctionId: string, followed: Followed): void {
    this.followed.delete(auctionId);
    this.followed.set(auctionId, followed);
    if (this.followed.size <= this.followedAuctions) return;
    for (const id of this.followed.keys()) {
      if (this.followed.size <= this.followedAuctions || id === auctionId) break;
      if (this.watchers(id) === 0) this.followed.delete(id);
    }
  }

  private watchers(auctionId: string): number {
    return this.io.sockets.adapter.rooms.get(room(auctionId))?.size ?? 0;
  }

  /**
   * An event of an auction nobody watches, that is neither followed nor being loaded: applying it
   * would only move the position (what `prepare` and `apply` decide for it), so it is not even
   * validated. Most auctions have no watcher at a given moment, and their events are most of a
   * busy log.
   */
  private unseen(recorded: RecordedEvent): boolean {
    if (!recorded.streamId.startsWith(AUCTION_STREAM)) return false;
    const auctionId = recorded.streamId.slice(AUCTION_STREAM.length);
    return (
      !this.followed.has(auctionId) &&
      !this.loading.has(auctionId) &&
      this.watchers(auctionId) === 0
    );
  }

  private async broadcast(events: readonly RecordedEvent[]): Promise<void> {
    for (const recorded of events) {
      if (this.unseen(recorded)) {
        this.broadcastPosition = recorded.position;
        continue;
      }
      const event = asAuctionEvent(recorded);
      if (!event) {
        if (recorded.type === 'AccountDeleted') this.accountDeleted(recorded);
        this.broadcastPosition = recorded.position;
        continue;
      }
      // `prepare` may wait; `apply` checks again that it has what it needs, else waits again.
      while (!this.apply(event, recorded, await this.prepare(event, recorded)));
    }
  }

  /**
   * What applying the event needs that may take a read: the bidder's profile when the auction is
   * followed (usually cached: no wait), the auction's state when it is watched but not followed.
   */
  private async prepare(
    event: AuctionEvent,
    recorded: RecordedEvent,
  ): Promise<ReadonlyMap<string, PublicUser> | undefined> {
    const auctionId = event.data.auctionId;
    let refolded = false;
    for (;;) {
      const followed = this.followed.get(auctionId);
      if (followed && followed.revision !== recorded.revision - 1) {
        // Never broadcast from a state that missed an event: read it again.
        this.deps.log(`Realtime: ${auctionId} at ${followed.revision}, next ${recorded.revision}`);
        this.followed.delete(auctionId);
        continue;
      }
      if (!followed) {
        // A watched auction is followed; if not (its state was dropped), read it again, once.
        if (this.watchers(auctionId) === 0 || refolded) return undefined;
        await this.refold(auctionId, recorded.revision - 1);
        refolded = true;
        continue;
      }
      if (!isBroadcast(event)) return undefined;
      const ids = usersOf(event);
      return this.users.cached(ids) ?? (await this.users.load(ids));
    }
  }

  /** Follows a watched auction from the store, up to `revision` (its events before this one). */
  private async refold(auctionId: string, revision: number): Promise<void> {
    let state = initialState;
    let folded = -1;
    let createdAt = '';
    for (const recorded of await this.deps.events.readStream(auctionStream(auctionId), {
      toRevision: revision,
    })) {
      const event = asAuctionEvent(recorded);
      if (event) state = evolve(state, event);
      if (event?.type === 'AuctionCreated') createdAt = event.data.at;
      folded = recorded.revision;
    }
    if (folded !== revision) {
      this.deps.log(`Realtime: ${auctionId} read up to ${folded}, expected ${revision}`);
      return;
    }
    if (!this.followed.has(auctionId))
      this.touch(auctionId, {
        state,
        revision,
        recent: [],
        recentFrom: revision + 1,
        createdAt,
        bidCount: standingBidCount(state),
      });
  }

  /**
   * Synchronous: the followed state, the replay buffer, the room and the position move together.
   * False (and nothing changed) when the auction became followed after `prepare` looked and the
   * profiles are not at hand: `prepare` again.
   */
  private apply(
    event: AuctionEvent,
    recorded: RecordedEvent,
    prepared: ReadonlyMap<string, PublicUser> | undefined,
  ): boolean {
    const auctionId = event.data.auctionId;
    const followed = this.followed.get(auctionId);
    if (followed) {
      if (followed.revision !== recorded.revision - 1) return false;
      const users = isBroadcast(event)
        ? (prepared ?? this.users.cached(usersOf(event)))
        : undefined;
      if (isBroadcast(event) && !users) return false;
      followed.bidCount = bidCountAfter(followed.bidCount, event, followed.state);
      followed.state = evolve(followed.state, event);
      followed.revision = recorded.revision;
      if (isBroadcast(event)) {
        const name = socketEventName(event);
        const payload = socketPayload(
          event,
          recorded.revision,
          followed.state,
          users ?? new Map(),
          this.deps.imageUrl,
          followed.bidCount,
        );
        followed.recent.push({ revision: recorded.revision, name, payload });
        if (followed.recent.length > this.replayBuffer) {
          const dropped = followed.recent.shift();
          if (dropped) followed.recentFrom = dropped.revision + 1;
        }
        if (this.watchers(auctionId) > 0) this.io.to(room(auctionId)).emit(name, payload);
      }
    }
    if (this.loading.has(auctionId)) this.lastOfAuction.set(auctionId, recorded.position);
    this.broadcastPosition = recorded.position;
    return true;
  }

  /** From now on the user reads as "Deleted user", in live events and in replays alike. */
  private accountDeleted(recorded: RecordedEvent): void {
    const parsed = AccountDeleted.safeParse({ type: recorded.type, data: recorded.data });
    if (!parsed.success) return;
    const { userId } = parsed.data.data;
    this.users.forget(userId);
    for (const followed of this.followed.values()) {
      followed.builtState = undefined;
      followed.recent.forEach((entry, index) => {
        const { bid, winner } = entry.payload;
        if (bid?.bidder._id !== userId && winner?._id !== userId) return;
        followed.recent[index] = {
          ...entry,
          payload: {
            ...entry.payload,
            ...(bid?.bidder._id === userId ? { bid: { ...bid, bidder: deletedUser(userId) } } : {}),
            ...(winner?._id === userId ? { winner: deletedUser(userId) } : {}),
          },
        };
      });
    }
  }
}
