import {
  AuctionSocketEvent,
  BidNotification,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketAck,
  socketEventNames,
} from '@auction/contracts';
import { type Socket, io } from 'socket.io-client';
import { expect, vi } from 'vitest';
import type { TestUser } from './fixtures';
import type { TestResponse, TestServer } from './test-server';

/** Test support for the realtime gateway: real socket.io-client connections to a test server. */

/** One server → client event as the socket received it. */
export interface Heard {
  readonly event: string;
  readonly payload: unknown;
}

export interface Probe {
  /** A client of the contract, as the browser's: it emits only what a client of ours sends. */
  readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  /** The same socket, untyped: for what no client of ours sends (unknown events, bad payloads). */
  readonly raw: Socket;
  /** Every event the server sent, in arrival order. */
  readonly heard: Heard[];
  /** The reason of each disconnect. */
  readonly disconnects: string[];
}

const ACK_MS = 5000;
const auctionEventNames: ReadonlySet<string> = new Set(Object.values(socketEventNames));
const open: Socket[] = [];

/** Closes every socket opened since the last call (for `afterEach`). */
export const closeProbes = (): void => {
  for (const socket of open.splice(0)) socket.disconnect();
};

/** A socket like a browser tab's, with the given cookie and Origin (none: a Node client). */
export const probe = (
  server: Pick<TestServer, 'url'>,
  options: { cookie?: string; origin?: string } = {},
): Probe => {
  const extraHeaders: Record<string, string> = {};
  if (options.cookie !== undefined) extraHeaders.cookie = options.cookie;
  if (options.origin !== undefined) extraHeaders.origin = options.origin;
  const raw = io(server.url, {
    transports: ['websocket'],
    extraHeaders,
    forceNew: true,
    reconnection: false,
  });
  const socket: Probe['socket'] = raw;
  open.push(raw);
  const heard: Heard[] = [];
  const disconnects: string[] = [];
  socket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
  socket.on('disconnect', (reason) => disconnects.push(reason));
  return { socket, raw, heard, disconnects };
};

/** A connected probe; rejects with the `connect_error`. */
export const connect = async (
  server: Pick<TestServer, 'url'>,
  options: { cookie?: string; origin?: string } = {},
): Promise<Probe> => {
  const p = probe(server, options);
  await new Promise<void>((resolve, reject) => {
    p.socket.once('connect', () => resolve());
    p.socket.once('connect_error', reject);
  });
  return p;
};

/** Emits `event` with `args` (anything: untyped) and an acknowledgement; resolves with the answer. */
export const ask = (p: Probe, event: string, ...args: unknown[]): Promise<SocketAck> =>
  new Promise((resolve, reject) => {
    p.raw
      .timeout(ACK_MS)
      .emit(event, ...args, (error: Error | null, answer: SocketAck) =>
        error ? reject(error) : resolve(answer),
      );
  });

/**
 * `auction:watch`; resolves with the answer and the revisions of this auction that arrived
 * between the emit and the answer (the replay: the gateway joins the room only after it).
 */
export const watch = (
  p: Probe,
  payload: { auctionId: string; afterRevision?: number },
): Promise<{ ack: SocketAck; replayed: number[] }> =>
  new Promise((resolve, reject) => {
    const before = p.heard.length;
    p.socket.timeout(ACK_MS).emit('auction:watch', payload, (error, ack) => {
      if (error) return reject(error);
      const replayed = p.heard
        .slice(before)
        .filter((h) => isAuctionEvent(h, payload.auctionId))
        .map((h) => AuctionSocketEvent.parse(h.payload).revision);
      resolve({ ack, replayed });
    });
  });

const isAuctionEvent = (h: Heard, auctionId: string): boolean =>
  auctionEventNames.has(h.event) &&
  typeof h.payload === 'object' &&
  h.payload !== null &&
  (h.payload as { productId?: unknown }).productId === auctionId;

/** The auction events of one auction the probe heard, each parsed with the contract. */
export const auctionEvents = (
  p: Probe,
  auctionId: string,
): { event: string; payload: AuctionSocketEvent }[] =>
  p.heard
    .filter((h) => isAuctionEvent(h, auctionId))
    .map((h) => ({ event: h.event, payload: AuctionSocketEvent.parse(h.payload) }));

export const revisionsOf = (p: Probe, auctionId: string): number[] =>
  auctionEvents(p, auctionId).map((h) => h.payload.revision);

/** The `bidNotification`s about one auction, each parsed with the contract. */
export const notifications = (p: Probe, auctionId: string): BidNotification[] =>
  p.heard
    .filter((h) => h.event === 'bidNotification')
    .map((h) => BidNotification.parse(h.payload))
    .filter((n) => n.auctionId === auctionId);

/** Logs the user in once more (a new session) and returns the `auction.sid=...` cookie pair. */
export const logIn = async (server: TestServer, user: TestUser): Promise<string> => {
  const res = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith('auction.sid='));
  if (!cookie) throw new Error('login set no session cookie');
  return cookie;
};

/** A request under the session of `cookie` (a fresh client, so only that cookie is sent). */
export const asSession = (
  server: TestServer,
  cookie: string,
  method: string,
  path: string,
  json?: unknown,
): Promise<TestResponse> =>
  server.client().request(method, path, json === undefined ? {} : { json }, { cookie });

export const eventually = (assertion: () => void, timeout = 10_000): Promise<void> =>
  vi.waitFor(assertion, { timeout, interval: 20 });

export const pause = (ms = 250): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** from..to, inclusive (empty when to < from). */
export const range = (from: number, to: number): number[] =>
  to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
