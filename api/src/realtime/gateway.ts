import type { Server as HttpServer } from 'node:http';
import {
  AuctionEvent,
  type BidNotification,
  ClientNewBid,
  type SocketAck,
  UnwatchAuction,
  WatchAuction,
  auctionStream,
  errorCatalog,
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
import { isBroadcast, socketEventName, socketPayload, usersOf } from './auction-events';

type Ack = (answer: SocketAck) => void;

const asAuctionEvent = (recorded: RecordedEvent): AuctionEvent | undefined => {
  if (!recorded.streamId.startsWith('auction-')) return undefined;
  const parsed = AuctionEvent.safeParse({ type: recorded.type, data: recorded.data });
  return parsed.success ? parsed.data : undefined;
};

const reply = (ack: unknown, answer: SocketAck): void => {
  if (typeof ack === 'function') (ack as Ack)(answer);
};
const invalid = (ack: unknown, message: string) =>
  reply(ack, { ok: false, error: { code: 'VALIDATION_FAILED', message } });

const room = (auctionId: string) => `auction:${auctionId}`;
const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

interface Followed {
  state: AuctionState;
  revision: number;
}

/**
 * Socket.IO on the API's port. Auction events go out to `auction:{id}` from committed events only,
 * in global order, each with its stream revision; a watcher replays what it missed from the event
 * store before joining, so it sees every revision once and in order. Notifications the read
 * model creates go to `user:{id}` (every tab).
 */
export class RealtimeGateway {
  readonly io: Server;
  private subscription: Subscription | undefined;
  /** Global position of the last event this gateway has broadcast (or skipped). */
  private broadcastPosition = 0;
  private bootPosition = 0;
  /** The auction whose event is being broadcast: its watchers must not join until it is done. */
  private inFlight: string | undefined;
  /** Global position of the last event of each auction the gateway processed. */
  private readonly lastOfAuction = new Map<string, number>();
  /** Watches in progress per auction: only they need `lastOfAuction`, so it stays small. */
  private readonly watchesInProgress = new Map<string, number>();
  private readonly followed = new Map<string, Followed>();

  constructor(
    private readonly deps: AppDeps,
    httpServer: HttpServer,
    middleware: readonly RequestHandler[],
    allowedOrigins: () => readonly string[],
  ) {
    this.io = new Server(httpServer, {
      serveClient: false,
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

  private connected(socket: Socket): void {
    const req = socket.request as typeof socket.request & { user?: Account; sessionID?: string };
    if (req.user) void socket.join(userRoom(req.user.id));
    if (req.sessionID) void socket.join(sessionRoom(req.sessionID));
    const handle = (event: string, handler: (payload: unknown, ack: unknown) => void) =>
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
   * Replays the events after `afterRevision` up to what has been broadcast, then joins the room in
   * the same turn in which it sees that nothing more of this auction was broadcast meanwhile.
   */
  private async watch(socket: Socket, payload: unknown, ack: unknown): Promise<void> {
    const parsed = WatchAuction.safeParse(payload);
    if (!parsed.success) return invalid(ack, 'auction:watch takes {auctionId, afterRevision?}');
    const { auctionId, afterRevision } = parsed.data;
    const streamId = auctionStream(auctionId);
    this.watchesInProgress.set(auctionId, (this.watchesInProgress.get(auctionId) ?? 0) + 1);
    try {
      let state = initialState;
      let folded = -1;
      // Without afterRevision nothing is replayed: the client starts from what it fetched.
      let sent = afterRevision;
      for (;;) {
        const upTo = this.broadcastPosition;
        const read = await this.deps.events.readStream(streamId, { fromRevision: folded + 1 });
        const due: { event: AuctionEvent; revision: number; state: AuctionState }[] = [];
        for (const recorded of read) {
          if (recorded.position > upTo) break;
          const event = asAuctionEvent(recorded);
          if (!event) continue;
          state = evolve(state, event);
          folded = recorded.revision;
          if (sent !== undefined && recorded.revision > sent && isBroadcast(event)) {
            due.push({ event, revision: recorded.revision, state });
          }
        }
        sent ??= folded;
        if (due.length > 0) {
          const users = await this.deps.accounts.lookup(due.flatMap(({ event }) => usersOf(event)));
          for (const { event, revision, state: after } of due) {
            if (!isBroadcast(event)) continue;
            socket.emit(socketEventName(event), socketPayload(event, revision, after, users));
            sent = revision;
          }
        }
        // Join in the same turn as the check that nothing of this auction went out meanwhile.
        if (this.inFlight === auctionId) {
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        if ((this.lastOfAuction.get(auctionId) ?? 0) <= upTo) {
          if (state.status === 'None') {
            return reply(ack, {
              ok: false,
              error: { code: 'AUCTION_NOT_FOUND', message: errorCatalog.AUCTION_NOT_FOUND.message },
            });
          }
          void socket.join(room(auctionId));
          return reply(ack, { ok: true, revision: folded });
        }
      }
    } catch (error) {
      this.deps.log('auction:watch failed', error);
      reply(ack, {
        ok: false,
        error: { code: 'UNAVAILABLE', message: errorCatalog.UNAVAILABLE.message },
      });
    } finally {
      const left = (this.watchesInProgress.get(auctionId) ?? 1) - 1;
      if (left > 0) this.watchesInProgress.set(auctionId, left);
      else {
        this.watchesInProgress.delete(auctionId);
        this.lastOfAuction.delete(auctionId);
      }
    }
  }

  private async broadcast(events: readonly RecordedEvent[]): Promise<void> {
    for (const recorded of events) {
      const event = asAuctionEvent(recorded);
      if (!event) {
        this.broadcastPosition = recorded.position;
        continue;
      }
      const auctionId = event.data.auctionId;
      this.inFlight = auctionId;
      try {
        await this.broadcastAuctionEvent(event, recorded);
      } finally {
        // A watch that began before this event was broadcast must not join without it.
        if (this.watchesInProgress.has(auctionId))
          this.lastOfAuction.set(auctionId, recorded.position);
        this.broadcastPosition = recorded.position;
        this.inFlight = undefined;
      }
    }
  }

  private async broadcastAuctionEvent(event: AuctionEvent, recorded: RecordedEvent): Promise<void> {
    const auctionId = event.data.auctionId;
    const watchers = this.io.sockets.adapter.rooms.get(room(auctionId))?.size ?? 0;
    if (watchers === 0) {
      this.followed.delete(auctionId);
      return;
    }
    let followed = this.followed.get(auctionId);
    if (!followed || followed.revision !== recorded.revision - 1) {
      followed = { state: initialState, revision: -1 };
      for (const earlier of await this.deps.events.readStream(recorded.streamId, {
        toRevision: recorded.revision - 1,
      })) {
        const e = asAuctionEvent(earlier);
        if (e) followed.state = evolve(followed.state, e);
        followed.revision = earlier.revision;
      }
    }
    followed = { state: evolve(followed.state, event), revision: recorded.revision };
    this.followed.set(auctionId, followed);
    if (!isBroadcast(event)) return;
    const users = await this.deps.accounts.lookup(usersOf(event));
    this.io
      .to(room(auctionId))
      .emit(socketEventName(event), socketPayload(event, recorded.revision, followed.state, users));
  }
}
