import { watchRefusals } from '@auction/contracts';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Socket } from 'socket.io';

/** The window of the watch rates, in milliseconds. */
export const WATCH_WINDOW_MS = 10_000;

export interface WatchLimitSettings {
  /** Auctions one socket may watch at once. */
  readonly perSocket: number;
  /** Watch requests per socket per window. */
  readonly ratePerSocket: number;
  /** Auctions all the sockets of one address may watch at once, together. */
  readonly perAddress: number;
  /** Watch requests per address (all its sockets) per window. */
  readonly ratePerAddress: number;
}

/** Requests counted in a fixed window. */
interface Window {
  start: number;
  count: number;
}

interface AddressUse {
  readonly rate: Window;
  /** Auctions watched (or being joined) by all the sockets of the address. */
  watching: number;
  sockets: number;
}

interface SocketUse {
  readonly address: AddressUse;
  readonly rate: Window;
  /** Auctions this socket watches or is joining. */
  readonly watching: Set<string>;
}

/** Counts one request; false when it is over `limit` in the current window. */
const take = (window: Window, limit: number, now: number): boolean => {
  if (now - window.start >= WATCH_WINDOW_MS) {
    window.start = now;
    window.count = 0;
  }
  window.count += 1;
  return window.count <= limit;
};

/**
 * The client's address of a socket as the HTTP app sees it (`clientAddress`): behind one trusted
 * proxy the last `X-Forwarded-For` entry, else the peer; an IPv6 client counts as its /56.
 */
export const socketAddress = (socket: Socket, trustProxy: boolean): string => {
  const forwarded = socket.request.headers['x-forwarded-for'];
  const hops = trustProxy && typeof forwarded === 'string' ? forwarded.split(',') : [];
  const address =
    hops.at(-1)?.trim() || socket.request.socket.remoteAddress || socket.handshake.address;
  return ipKeyGenerator(address || 'unknown');
};

/**
 * What one client may ask of the gateway: how many auctions a socket, and all the sockets of an
 * address together, watch at once, and how many watch requests each makes per 10 s window. Counted
 * in this process (each node protects its own work). A refusal changes nothing: the refused watch
 * takes no slot, and a request refused for its socket does not count against its address.
 */
export class WatchLimits {
  private readonly sockets = new Map<string, SocketUse>();
  private readonly addresses = new Map<string, AddressUse>();
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly settings: WatchLimitSettings,
    private readonly now: () => number = Date.now,
  ) {
    // Addresses without sockets are kept until their window ends (a reconnect resets nothing).
    this.sweeper = setInterval(() => this.sweep(), WATCH_WINDOW_MS);
    this.sweeper.unref();
  }

  connected(socket: Socket, address: string): void {
    let use = this.addresses.get(address);
    if (!use) {
      use = { rate: { start: this.now(), count: 0 }, watching: 0, sockets: 0 };
      this.addresses.set(address, use);
    }
    use.sockets += 1;
    this.sockets.set(socket.id, {
      address: use,
      rate: { start: this.now(), count: 0 },
      watching: new Set(),
    });
  }

  disconnected(socket: Socket): void {
    const use = this.sockets.get(socket.id);
    if (!use) return;
    this.sockets.delete(socket.id);
    use.address.sockets -= 1;
    use.address.watching -= use.watching.size;
  }

  /**
   * Counts a watch request of `auctionId` and takes a slot for it unless the socket has one:
   * undefined when admitted, else why not (nothing taken).
   */
  admit(socket: Socket, auctionId: string): string | undefined {
    const use = this.sockets.get(socket.id);
    if (!use) return watchRefusals.socketRate;
    const now = this.now();
    if (!take(use.rate, this.settings.ratePerSocket, now)) return watchRefusals.socketRate;
    if (!take(use.address.rate, this.settings.ratePerAddress, now))
      return watchRefusals.addressRate;
    return this.slot(use, auctionId);
  }

  /**
   * Takes a slot for `auctionId` if the socket has none (a watch that joins after an unwatch
   * released its slot): undefined when it has one now, else why not.
   */
  hold(socket: Socket, auctionId: string): string | undefined {
    const use = this.sockets.get(socket.id);
    return use ? this.slot(use, auctionId) : watchRefusals.socketWatching;
  }

  /** The socket no longer watches `auctionId` (unwatched, or its watch failed). */
  release(socket: Socket, auctionId: string): void {
    const use = this.sockets.get(socket.id);
    if (use?.watching.delete(auctionId)) use.address.watching -= 1;
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private slot(use: SocketUse, auctionId: string): string | undefined {
    if (use.watching.has(auctionId)) return undefined;
    if (use.watching.size >= this.settings.perSocket) return watchRefusals.socketWatching;
    if (use.address.watching >= this.settings.perAddress) return watchRefusals.addressWatching;
    use.watching.add(auctionId);
    use.address.watching += 1;
    return undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [address, use] of this.addresses)
      if (use.sockets === 0 && now - use.rate.start >= WATCH_WINDOW_MS)
        this.addresses.delete(address);
  }
}
