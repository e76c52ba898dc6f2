import { type Server as HttpServer, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AuctionSocketEvent,
  type AuctionView,
  type BidNotification,
  type SocketAck,
  auctionStateEventName,
  socketEventNames,
} from '@auction/contracts';
import { Server, type Socket as ServerSocket } from 'socket.io';
import type * as SocketIoClient from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as SocketOwner from './socket';

/**
 * The options each socket was made with. Its backoff is then shortened to 20-50 ms, so a test
 * spends the spec's five tries at once instead of waiting 1 to 5 s between them; the number of
 * tries and everything else stay as the owner set them.
 */
const made = vi.hoisted((): unknown[] => []);
vi.mock('socket.io-client', async (importOriginal) => {
  const real = await importOriginal<typeof SocketIoClient>();
  const io = ((options: Parameters<typeof real.io>[0]) => {
    made.push(options);
    const socket = real.io(options);
    socket.io.reconnectionDelay(20).reconnectionDelayMax(50);
    return socket;
  }) as typeof real.io;
  return { ...real, io };
});

/**
 * The tab's socket owner (`./socket`) over the real socket.io-client, against a real Socket.IO
 * server on an ephemeral port of 127.0.0.1 that plays the gateway's part: it records each
 * `auction:watch` and `auction:unwatch`, answers with `{ok: true}`, and sends what a test tells it.
 * The owner connects to the page's origin (`io()` without a URL), so `location` is that server.
 */

type Owner = typeof SocketOwner;
interface WatchRequest {
  readonly auctionId: string;
  readonly afterRevision?: number;
}

const AUCTION = 'a1';
const AT = '2030-01-02T03:04:05.678Z';

/** The server's `auctionUpdated` at `revision` (an event without a bid, as AuctionEndingSoon). */
const updated = (revision: number, productId = AUCTION): AuctionSocketEvent => ({
  productId,
  revision,
  type: 'AuctionEndingSoon',
  bid: null,
  currentBid: 100,
  status: 'Live',
  at: AT,
});
const UPDATED = socketEventNames.AuctionEndingSoon;

const person = (id: string) => ({ _id: id, firstName: 'F', lastName: 'L', image: null });
const auctionAt = (revision: number): AuctionView => ({
  _id: AUCTION,
  title: 'A lamp',
  description: 'Brass',
  category: { _id: 'c1', name: 'Antiques' },
  startingPrice: 100,
  currentBid: 150,
  image: null,
  images: null,
  seller: person('seller'),
  auctionEndTime: AT,
  increments: 'one-dollar',
  softClose: null,
  extended: false,
  reserve: 'none',
  buyNowPrice: null,
  boughtNow: false,
  leadingBidId: null,
  status: 'Live',
  bids: [],
  bidsNextCursor: null,
  bidCount: 0,
  retractions: [],
  createdAt: AT,
  winner: null,
  finalPrice: null,
  closedAt: null,
  revision,
});

let http: HttpServer;
let io: Server;
let owner: Owner;
/** Every watch the server received, in order. */
let watches: WatchRequest[];
let unwatches: WatchRequest[];
/** Sockets connected now. */
let connected: ServerSocket[];
/** Runs before a watch is answered: what the server sends first (a replay), or a hold on the ack. */
let onWatch: (socket: ServerSocket, request: WatchRequest) => Promise<void> | void;
/** What the listeners heard. */
let heard: number[];
let heardFrom: string[];
let states: AuctionView[];

const stopSoon: (() => void)[] = [];

/** Starts the stand-in gateway on `port` (0: any free one) and resolves with the port. */
const serve = async (port: number): Promise<number> => {
  http = createServer();
  io = new Server(http);
  io.on('connection', (socket) => {
    connected.push(socket);
    socket.on('disconnect', () => connected.splice(connected.indexOf(socket), 1));
    socket.on('auction:watch', async (request: WatchRequest, ack: (answer: SocketAck) => void) => {
      watches.push(request);
      await onWatch(socket, request);
      ack({ ok: true });
    });
    socket.on('auction:unwatch', (request: WatchRequest) => unwatches.push(request));
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return (http.address() as AddressInfo).port;
};

beforeEach(async () => {
  watches = [];
  unwatches = [];
  connected = [];
  heard = [];
  heardFrom = [];
  states = [];
  onWatch = () => undefined;
  const port = await serve(0);
  vi.stubGlobal('location', new URL(`http://127.0.0.1:${port}/`));
  // A fresh owner each test: no socket, no watch.
  vi.resetModules();
  owner = await import('./socket');
});

afterEach(async () => {
  for (const stop of stopSoon.splice(0)) stop();
  vi.unstubAllGlobals();
  await io.close();
});

/** Watches AUCTION from `revision`, recording what the listeners hear. */
const watchFrom = (revision: number): (() => void) => {
  const stop = owner.watchAuction(
    AUCTION,
    revision,
    (event) => {
      heard.push(event.revision);
      heardFrom.push(event.productId);
    },
    (auction) => states.push(auction),
  );
  stopSoon.push(stop);
  return stop;
};

/** Sends to every connected socket (there is one: the tab's). */
const send = (name: string, payload: unknown) => {
  for (const socket of connected) socket.emit(name, payload);
};

/**
 * Sends `marker` (the next revision) after whatever was sent before and waits until it is heard:
 * events on one connection arrive in order, so everything before it has been handled.
 */
const settle = async (marker: number) => {
  send(UPDATED, updated(marker));
  await vi.waitFor(() => expect(heard).toContain(marker));
};

describe('the socket owner', () => {
  it('connects lazily and watches from the revision it was given', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toEqual([{ auctionId: AUCTION, afterRevision: 5 }]));
    expect(connected).toHaveLength(1);
  });

  it('passes on the next revisions in order', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    send(UPDATED, updated(6));
    send(socketEventNames.BidPlaced, updated(7));
    await settle(8);
    expect(heard).toEqual([6, 7, 8]);
  });

  it('drops an event at or below the revision it has applied', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    send(UPDATED, updated(5));
    send(UPDATED, updated(3));
    send(UPDATED, updated(6));
    send(UPDATED, updated(6));
    await settle(7);
    expect(heard).toEqual([6, 7]);
    expect(watches).toHaveLength(1);
  });

  it('ignores another auction’s events and payloads that do not parse', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    send(UPDATED, updated(6, 'other'));
    send(UPDATED, { ...updated(6), revision: 'six' });
    send(UPDATED, { ...updated(6), status: 'Open' });
    await settle(6);
    expect(heard).toEqual([6]);
    expect(heardFrom).toEqual([AUCTION]);
  });

  it('on a gap, watches again from the last revision applied, once, and takes the replay', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    onWatch = async (socket, request) => {
      await held;
      for (let revision = (request.afterRevision ?? 0) + 1; revision <= 9; revision++)
        socket.emit(UPDATED, updated(revision));
    };
    send(UPDATED, updated(6));
    send(UPDATED, updated(8)); // 7 is missing
    send(UPDATED, updated(9)); // still missing 7: the watch already asked is on its way
    await vi.waitFor(() => expect(watches).toHaveLength(2));
    expect(watches[1]).toEqual({ auctionId: AUCTION, afterRevision: 6 });
    expect(heard).toEqual([6]);
    release();
    await vi.waitFor(() => expect(heard).toEqual([6, 7, 8, 9]));
    await settle(10);
    expect(heard).toEqual([6, 7, 8, 9, 10]);
    expect(watches).toHaveLength(2);
  });

  it('after a gap was answered, a later gap asks again', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    send(UPDATED, updated(7));
    await vi.waitFor(() => expect(watches).toHaveLength(2));
    // The server answered without sending 6: the same gap asks once more.
    send(UPDATED, updated(7));
    await vi.waitFor(() => expect(watches).toHaveLength(3));
    expect(watches.slice(1)).toEqual([
      { auctionId: AUCTION, afterRevision: 5 },
      { auctionId: AUCTION, afterRevision: 5 },
    ]);
    expect(heard).toEqual([]);
  });

  it('auction:state replaces the copy, and the events after its revision follow', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    send(auctionStateEventName, { productId: AUCTION, revision: 20, auction: auctionAt(20) });
    send(UPDATED, updated(20));
    await settle(21);
    expect(states).toEqual([auctionAt(20)]);
    expect(heard).toEqual([21]);
  });

  it('ignores an auction:state at or below the applied revision, or of another auction', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    send(auctionStateEventName, { productId: AUCTION, revision: 5, auction: auctionAt(5) });
    send(auctionStateEventName, { productId: 'other', revision: 30, auction: auctionAt(30) });
    send(auctionStateEventName, { productId: AUCTION, revision: 30 });
    await settle(6);
    expect(states).toEqual([]);
  });

  it('advanceWatch moves the watch past revisions a refetch already showed', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    owner.advanceWatch(AUCTION, 8);
    owner.advanceWatch(AUCTION, 7); // never back
    owner.advanceWatch('other', 50);
    send(UPDATED, updated(8));
    await settle(9);
    expect(heard).toEqual([9]);
  });

  it('when the server drops the socket, reconnects and watches from the last revision applied', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    await settle(6);
    connected[0]?.disconnect(true);
    await vi.waitFor(() => expect(watches).toHaveLength(2));
    expect(watches[1]).toEqual({ auctionId: AUCTION, afterRevision: 6 });
    await settle(7);
    expect(heard).toEqual([6, 7]);
  });

  it('when the connection is lost, reconnects and watches from the last revision applied', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    await settle(6);
    connected[0]?.conn.close();
    await vi.waitFor(() => expect(watches).toHaveLength(2), { timeout: 5000 });
    expect(watches[1]).toEqual({ auctionId: AUCTION, afterRevision: 6 });
  });

  it('renewSocketSession reconnects (a new cookie) and watches again from there', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    await settle(6);
    owner.renewSocketSession();
    await vi.waitFor(() => expect(watches).toHaveLength(2));
    expect(watches[1]).toEqual({ auctionId: AUCTION, afterRevision: 6 });
  });

  it('stop unwatches and hears nothing more; a new watch replaces the old one', async () => {
    const stop = watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    stop();
    await vi.waitFor(() => expect(unwatches).toEqual([{ auctionId: AUCTION }]));
    send(UPDATED, updated(6));

    owner.watchAuction(
      'a2',
      0,
      (event) => heard.push(event.revision + 1000),
      () => undefined,
    );
    await vi.waitFor(() => expect(watches).toHaveLength(2));
    expect(watches[1]).toEqual({ auctionId: 'a2', afterRevision: 0 });
    send(UPDATED, updated(1, 'a2'));
    await vi.waitFor(() => expect(heard).toEqual([1001]));

    watchFrom(9);
    await vi.waitFor(() =>
      expect(unwatches).toEqual([{ auctionId: AUCTION }, { auctionId: 'a2' }]),
    );
    expect(watches[2]).toEqual({ auctionId: AUCTION, afterRevision: 9 });
    stop(); // an old stop changes nothing: the new watch goes on
    await settle(10);
    expect(heard).toEqual([1001, 10]);
  });

  it('passes on the user’s notifications that parse, until the listener stops', async () => {
    const notifications: BidNotification[] = [];
    const stop = owner.onBidNotification((notification) => notifications.push(notification));
    stopSoon.push(() => void stop());
    await vi.waitFor(() => expect(connected).toHaveLength(1));
    const notification = {
      _id: 'n1',
      message: 'You have been outbid',
      timestamp: AT,
      auctionId: AUCTION,
      isRead: false,
    };
    send('bidNotification', { ...notification, isRead: 'no' });
    send('bidNotification', notification);
    await vi.waitFor(() => expect(notifications).toEqual([notification]));
    stop();
    // Another listener hears the next one; the stopped one, called in the same turn, does not.
    const later: string[] = [];
    const stopLater = owner.onBidNotification(({ _id }) => later.push(_id));
    stopSoon.push(() => void stopLater());
    send('bidNotification', { ...notification, _id: 'n2' });
    await vi.waitFor(() => expect(later).toContain('n2'));
    expect(notifications).toEqual([notification]);
  });
});

/** The server goes away for longer than the spec's tries (five; their backoff shortened, above). */
describe('the socket owner when the server is away', () => {
  /** The states the link went through, from now on. */
  let links: SocketOwner.SocketLink[];
  let reconnects: number;
  let port: number;

  beforeEach(() => {
    made.length = 0;
    vi.stubGlobal('window', new EventTarget());
    vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
    links = [];
    reconnects = 0;
    port = Number(location.port);
    stopSoon.push(owner.onSocketLinkChange(() => links.push(owner.socketLink())));
    stopSoon.push(owner.onSocketReconnect(() => reconnects++));
  });

  /** The server stops; the test waits (advancing the faked backoff) until the tries are spent. */
  const serverAwayUntilPaused = async () => {
    await io.close();
    await vi.waitFor(() => expect(owner.socketLink()).toBe('paused'), {
      timeout: 10_000,
      interval: 50,
    });
    expect(links).toContain('reconnecting');
  };

  /** Longer than the shortened tries would take many times over. */
  const timePasses = () => new Promise((resolve) => setTimeout(resolve, 1000));

  it('says reconnecting while it tries, then paused, and tries no more by itself', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    expect(owner.socketLink()).toBe('connected');
    await serverAwayUntilPaused();
    await serve(port);
    await timePasses();
    expect(owner.socketLink()).toBe('paused');
    expect(connected).toHaveLength(0);
    expect(reconnects).toBe(0);
  });

  it.each([
    ['the browser comes back online', () => window.dispatchEvent(new Event('online'))],
    ['the tab becomes visible', () => document.dispatchEvent(new Event('visibilitychange'))],
    ['Reconnect is pressed', () => owner.reconnectSocket()],
  ])(
    'when %s, tries again: rewatches from the last revision applied and tells the page to refetch',
    async (_, wake) => {
      watchFrom(5);
      await vi.waitFor(() => expect(watches).toHaveLength(1));
      await settle(6);
      await serverAwayUntilPaused();
      await serve(port);
      wake();
      await vi.waitFor(() => expect(owner.socketLink()).toBe('connected'), { interval: 50 });
      await vi.waitFor(() => expect(watches).toHaveLength(2));
      expect(watches[1]).toEqual({ auctionId: AUCTION, afterRevision: 6 });
      expect(reconnects).toBe(1);
      await settle(7);
      expect(heard).toEqual([6, 7]);
    },
  );

  it('tries again with the spec’s settings each time: a second outage pauses it again', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    await serverAwayUntilPaused();
    owner.reconnectSocket(); // still away: a new set of tries, spent in turn
    expect(owner.socketLink()).toBe('reconnecting');
    await vi.waitFor(() => expect(owner.socketLink()).toBe('paused'), {
      timeout: 10_000,
      interval: 50,
    });
    await serve(port);
    owner.reconnectSocket();
    await vi.waitFor(() => expect(watches).toHaveLength(2), { interval: 50 });
    expect(reconnects).toBe(1);
    // Three sockets, each with the spec's settings.
    expect(made).toEqual([owner.SOCKET_OPTIONS, owner.SOCKET_OPTIONS, owner.SOCKET_OPTIONS]);
  });

  it('a connection lost and found again within the tries rewatches and tells the page to refetch', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    await io.close();
    await vi.waitFor(() => expect(owner.socketLink()).toBe('reconnecting'), { interval: 50 });
    await serve(port);
    await vi.waitFor(() => expect(owner.socketLink()).toBe('connected'), {
      timeout: 10_000,
      interval: 50,
    });
    await vi.waitFor(() => expect(watches).toHaveLength(2));
    expect(reconnects).toBe(1);
    expect(links).not.toContain('paused');
  });

  it('the first connect is not a reconnect, and a page going online while connected changes nothing', async () => {
    watchFrom(5);
    await vi.waitFor(() => expect(watches).toHaveLength(1));
    window.dispatchEvent(new Event('online'));
    owner.reconnectSocket();
    await settle(6);
    expect(reconnects).toBe(0);
    expect(connected).toHaveLength(1);
    expect(watches).toHaveLength(1);
  });
});
