import {
  AuctionSocketEvent,
  AuctionStateEvent,
  type AuctionView,
  BidNotification,
  type ClientToServerEvents,
  type ServerToClientEvents,
  auctionStateEventName,
  socketEventNames,
  type SocketAck,
} from '@auction/contracts';
import { type Socket, io } from 'socket.io-client';

/** Spec §9: reconnection on, at most 5 attempts, 1-5 s apart, 20 s time-out. */
export const SOCKET_OPTIONS = {
  withCredentials: true,
  reconnection: true,
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  timeout: 20_000,
} as const;
const MAX_FAILURES = 5;

/**
 * This tab's end of the contract: it hears `ServerToClientEvents` and emits `ClientToServerEvents`.
 * The listeners below still parse each payload (a server of another version may send otherwise).
 */
type AuctionSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const auctionEventNames = [...new Set(Object.values(socketEventNames))];

type AuctionListener = (event: AuctionSocketEvent) => void;
type StateListener = (auction: AuctionView) => void;
type NotificationListener = (notification: BidNotification) => void;

interface Watch {
  auctionId: string;
  /** The last revision applied; events at or below it are stale. */
  revision: number;
  listener: AuctionListener;
  /** The whole auction at a revision, which the server sends instead of a long replay. */
  onState: StateListener;
  /** The revision a watch request is on its way for (a gap asks once per revision). */
  asked: number | null;
}

/**
 * The state of the tab's link to the server, as pages show it: `idle` before the first socket,
 * `connected`, `reconnecting` (lost, or not yet reached after a failure: the spec's tries are
 * running), `paused` (the tries are spent and the socket dropped: nothing is heard until
 * `reconnectSocket`, which the browser coming back online or the tab becoming visible also calls).
 */
export type SocketLink = 'idle' | 'connected' | 'reconnecting' | 'paused';

let socket: AuctionSocket | null = null;
let failures = 0;
let watch: Watch | null = null;
const notificationListeners = new Set<NotificationListener>();
let link: SocketLink = 'idle';
const linkListeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();
/** The link failed or dropped since the last connect: the next connect is a reconnect. */
let lost = false;
let wakeUpsInstalled = false;

const setLink = (next: SocketLink) => {
  if (link === next) return;
  link = next;
  linkListeners.forEach((listener) => listener());
};

const askForEventsAfter = (current: Watch) => {
  const revision = current.revision;
  current.asked = revision;
  socket?.emit(
    'auction:watch',
    { auctionId: current.auctionId, afterRevision: revision },
    (ack: SocketAck) => {
      if (current.asked === revision) current.asked = null;
      if (!ack.ok) console.warn('auction:watch refused', ack.error);
    },
  );
};

// Events arrive in revision order; a repeat is dropped and a gap asks the server for the tail.
const receiveAuctionEvent = (payload: unknown) => {
  const parsed = AuctionSocketEvent.safeParse(payload);
  const current = watch;
  if (!parsed.success || !current || parsed.data.productId !== current.auctionId) return;
  const event = parsed.data;
  if (event.revision <= current.revision) return;
  if (event.revision > current.revision + 1) {
    if (current.asked !== current.revision) askForEventsAfter(current);
    return;
  }
  current.revision = event.revision;
  current.listener(event);
};

// The auction at a revision: it replaces the copy, and the events after it follow.
const receiveAuctionState = (payload: unknown) => {
  const parsed = AuctionStateEvent.safeParse(payload);
  const current = watch;
  if (!parsed.success || !current || parsed.data.productId !== current.auctionId) return;
  if (parsed.data.revision <= current.revision) return;
  current.revision = parsed.data.revision;
  current.onState(parsed.data.auction);
};

const receiveNotification = (payload: unknown) => {
  const parsed = BidNotification.safeParse(payload);
  if (parsed.success) notificationListeners.forEach((listener) => listener(parsed.data));
};

/**
 * The one socket of this tab: connected lazily, on first use, with the session cookie. Each socket
 * keeps the spec's reconnection settings; when they are spent it is dropped (`paused`) and a new
 * one, with a fresh set of tries, is made by `reconnectSocket`.
 */
const ensureSocket = (): AuctionSocket => {
  if (socket) return socket;
  installWakeUps();
  if (link === 'paused') setLink('reconnecting');
  const created: AuctionSocket = io(SOCKET_OPTIONS);
  socket = created;
  failures = 0;
  created.on('connect', () => {
    failures = 0;
    setLink('connected');
    // Rejoin the watched auction's room from the last revision applied; the user's own rooms
    // are joined by the server on every handshake.
    if (watch) askForEventsAfter(watch);
    if (lost) {
      lost = false;
      reconnectListeners.forEach((listener) => listener());
    }
  });
  created.on('connect_error', () => {
    lost = true;
    failures += 1;
    if (failures >= MAX_FAILURES) {
      dropSocket();
      setLink('paused');
    } else setLink('reconnecting');
  });
  created.on('disconnect', (reason) => {
    lost = true;
    // The client's own disconnect (a new session's cookie) connects again at once.
    if (reason !== 'io client disconnect') setLink('reconnecting');
    if (reason === 'io server disconnect') created.connect();
  });
  for (const name of auctionEventNames) created.on(name, receiveAuctionEvent);
  created.on(auctionStateEventName, receiveAuctionState);
  created.on('bidNotification', receiveNotification);
  return created;
};

const dropSocket = () => {
  socket?.removeAllListeners();
  socket?.disconnect();
  socket = null;
};

/**
 * Follows one auction from `revision` on: the server replays what came after it (or, from far
 * behind, sends the auction as it stands to `onState`), then streams each new event; `listener`
 * sees every later revision once, in order. Returns the stop function.
 */
export const watchAuction = (
  auctionId: string,
  revision: number,
  listener: AuctionListener,
  onState: StateListener,
): (() => void) => {
  const previous = watch;
  const current: Watch = { auctionId, revision, listener, onState, asked: null };
  watch = current;
  const live = ensureSocket();
  if (previous && previous.auctionId !== auctionId)
    live.emit('auction:unwatch', { auctionId: previous.auctionId });
  if (live.connected) askForEventsAfter(current);
  return () => {
    if (watch !== current) return;
    watch = null;
    socket?.emit('auction:unwatch', { auctionId });
  };
};

/** Moves the watch forward after a refetch showed a newer revision than the socket has applied. */
export const advanceWatch = (auctionId: string, revision: number): void => {
  if (watch?.auctionId === auctionId && revision > watch.revision) watch.revision = revision;
};

/** Listens for the user's `bidNotification` events; returns the function that stops listening. */
export const onBidNotification = (listener: NotificationListener): (() => void) => {
  ensureSocket();
  notificationListeners.add(listener);
  return () => notificationListeners.delete(listener);
};

/**
 * Tries again after the tries were spent (`paused`): a new socket with the spec's settings, which
 * rejoins the watched auction and tells `onSocketReconnect` listeners when it connects. Does
 * nothing while a socket is connected or still trying, or before any socket was wanted.
 */
export const reconnectSocket = (): void => {
  if (socket || link !== 'paused') return;
  ensureSocket();
};

// The browser coming back online, or the user coming back to the tab, tries again by itself.
const installWakeUps = () => {
  if (wakeUpsInstalled || typeof window === 'undefined') return;
  wakeUpsInstalled = true;
  window.addEventListener('online', reconnectSocket);
  if (typeof document !== 'undefined')
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') reconnectSocket();
    });
};

/** The link as it stands (for `useSyncExternalStore`, with `onSocketLinkChange`). */
export const socketLink = (): SocketLink => link;

/** Runs `listener` whenever the link's state changes; returns the function that stops it. */
export const onSocketLinkChange = (listener: () => void): (() => void) => {
  linkListeners.add(listener);
  return () => linkListeners.delete(listener);
};

/**
 * Runs `listener` each time the socket connects again after it was lost or failed (automatically
 * or through `reconnectSocket`): what a page shows may have changed meanwhile, so it fetches it
 * again. Returns the function that stops listening.
 */
export const onSocketReconnect = (listener: () => void): (() => void) => {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
};

/** After login or logout the handshake must carry the new cookie: reconnect if connected. */
export const renewSocketSession = (): void => {
  if (!socket) return;
  socket.disconnect();
  socket.connect();
};
