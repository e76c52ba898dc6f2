import { randomUUID } from 'node:crypto';
import type { BroadcastChannel } from '@auction/engine';
import session from 'express-session';
import { z } from 'zod';
import type { UserSessionStore } from './session-store';

/** The broadcast channel the nodes tell each other of changed sessions on (`auction.broadcast`). */
const CHANNEL = 'sessions';
/** Sessions kept per node: each entry is the stored JSON (a few hundred bytes). */
const ENTRIES = 10_000;
/**
 * How long a change waits for the other nodes to confirm they dropped it before it answers
 * anyway (a node that died without a word, a broadcast lost).
 */
const CONFIRM_MS = 1_000;
/** How often a node says it is there; one silent for three times as long is no longer waited for. */
const PRESENCE_MS = 5_000;

/** Which sessions to drop. */
const Change = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('session'), sessionId: z.string() }),
  z.object({ kind: z.literal('user'), userId: z.string() }),
  z.object({ kind: z.literal('all') }),
]);
type Change = z.infer<typeof Change>;

/** What the nodes' caches say to each other on the `sessions` channel. */
const Message = z.union([
  // A change to drop, and who asks for a confirmation of it.
  z.object({ change: Change, from: z.string(), id: z.number() }),
  // "I dropped your change `id`".
  z.object({ confirms: z.number(), to: z.string(), from: z.string() }),
  // "I am here": sent at start and every PRESENCE_MS; `new` asks the nodes that never heard of
  // the sender to answer with their own.
  z.object({ here: z.string(), new: z.boolean() }),
]);
type Message = z.infer<typeof Message>;

type Callback = (error?: unknown) => void;

interface Entry {
  /**
   * The session as the store gave it (its `Date`s too: connect-mongo's `touch` reads
   * `lastModified` as one): each request gets its own structured clone to change.
   */
  readonly data: session.SessionData;
  readonly userId: string | undefined;
  /** When the read that found it started: it is read again `maxAgeMs` after. */
  readonly readAt: number;
  /** Its cookie's expiry: from then on the store is asked again (and says it is gone). */
  readonly expiresAt: number;
}

export interface SessionCacheOptions {
  /**
   * The other nodes, told of every session changed or ended here; their changes reach this
   * node the same way. None on one process, where the cache is exact.
   */
  readonly cluster?: BroadcastChannel | undefined;
  /**
   * How long a session read from the store may be served from memory (`SESSION_CACHE_MS`): the
   * bound on how long a node that missed a broadcast (at most once) keeps serving a session ended
   * elsewhere. 0: read from the store on every request.
   */
  readonly maxAgeMs: number;
  /** Sessions kept, the least recently used forgotten first; default 10,000. */
  readonly maxEntries?: number;
  /** How long a change waits for the other nodes to confirm it; default 1 s. */
  readonly confirmMs?: number;
  /** How often this node tells the others it is there; default 5 s. */
  readonly presenceMs?: number;
  readonly now?: () => number;
  readonly log?: (message: string, error?: unknown) => void;
}

/**
 * A node's sessions in memory, in front of the shared store, so a request costs no round trip.
 * Every change is broadcast, and its callback waits until every known node confirms it dropped the
 * session: so a request to any node after a logout's answer is anonymous (Kafka's acknowledgement
 * alone was measured not to be enough; see ../README.md). `maxAgeMs` bounds a missed change.
 */
export class CachedSessionStore extends session.Store implements UserSessionStore {
  private readonly entries = new Map<string, Entry>();
  /** Moves on every invalidation: a read that started before one is not kept. */
  private generation = 0;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly confirmMs: number;
  private readonly now: () => number;
  private readonly log: (message: string, error?: unknown) => void;
  private readonly cluster: BroadcastChannel | undefined;
  private readonly unsubscribe: (() => void) | undefined;
  private readonly presence: NodeJS.Timeout | undefined;
  /** This store's name on the channel (one per process and store). */
  private readonly me = randomUUID();
  /** The other nodes heard from, and when. */
  private readonly peers = new Map<string, number>();
  private readonly presenceMs: number;
  /** This node's changes waiting for confirmations, by id: the nodes still to confirm. */
  private readonly awaiting = new Map<number, { peers: Set<string>; done: () => void }>();
  private nextId = 0;

  constructor(
    /** The shared store every read and write goes to. */
    readonly store: UserSessionStore,
    options: SessionCacheOptions,
  ) {
    super();
    this.maxAgeMs = options.maxAgeMs;
    this.maxEntries = options.maxEntries ?? ENTRIES;
    this.confirmMs = options.confirmMs ?? CONFIRM_MS;
    this.presenceMs = options.presenceMs ?? PRESENCE_MS;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
    this.cluster = options.cluster;
    this.unsubscribe = this.cluster?.onBroadcast((message) => {
      if (message.channel !== CHANNEL) return;
      const parsed = Message.safeParse(message.data);
      if (parsed.success) this.received(parsed.data);
    });
    if (this.cluster) {
      this.tell({ here: this.me, new: true });
      this.presence = setInterval(() => this.tell({ here: this.me, new: false }), this.presenceMs);
      this.presence.unref();
    }
  }

  /** How many sessions are in memory (tests, checks). */
  get size(): number {
    return this.entries.size;
  }

  override get(
    sid: string,
    callback: (error: unknown, session?: session.SessionData | null) => void,
  ): void {
    const now = this.now();
    const entry = this.entries.get(sid);
    if (entry) {
      this.entries.delete(sid);
      if (now - entry.readAt < this.maxAgeMs && now < entry.expiresAt) {
        // Most recently used last: the first entry is the one to forget.
        this.entries.set(sid, entry);
        callback(null, structuredClone(entry.data));
        return;
      }
    }
    const generation = this.generation;
    this.store.get(sid, (error, data) => {
      if (!error && data && this.maxAgeMs > 0 && generation === this.generation)
        this.remember(sid, data, now);
      callback(error, data);
    });
  }

  override set(sid: string, sess: session.SessionData, callback?: Callback): void {
    this.store.set(sid, sess, (error) => {
      void this.changed({ kind: 'session', sessionId: sid }).then(() => callback?.(error));
    });
  }

  override touch(sid: string, sess: session.SessionData, callback?: Callback): void {
    if (this.store.touch) this.store.touch(sid, sess, callback);
    else callback?.();
  }

  override destroy(sid: string, callback?: Callback): void {
    this.store.destroy(sid, (error) => {
      void this.changed({ kind: 'session', sessionId: sid }).then(() => callback?.(error));
    });
  }

  override length(callback: (error: unknown, length?: number) => void): void {
    if (this.store.length) this.store.length(callback);
    else callback(new Error('The session store cannot count its sessions'));
  }

  override clear(callback?: Callback): void {
    if (!this.store.clear) {
      callback?.(new Error('The session store cannot be cleared'));
      return;
    }
    this.store.clear((error) => {
      void this.changed({ kind: 'all' }).then(() => callback?.(error));
    });
  }

  async destroyUser(userId: string): Promise<number> {
    try {
      return await this.store.destroyUser(userId);
    } finally {
      await this.changed({ kind: 'user', userId });
    }
  }

  countForUser(userId: string): Promise<number> {
    return this.store.countForUser(userId);
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  /** Stops talking to the other nodes (before the cluster closes); the store stays open. */
  stop(): void {
    this.unsubscribe?.();
    clearInterval(this.presence);
    // Nothing is waited for any more: the confirmations would not be heard.
    this.peers.clear();
    for (const { done } of this.awaiting.values()) done();
  }

  /** Stops talking to the other nodes and closes the store. */
  close(): Promise<void> {
    this.stop();
    this.entries.clear();
    return this.store.close();
  }

  private remember(sid: string, data: session.SessionData, readAt: number): void {
    const expires = (data.cookie as { expires?: unknown } | undefined)?.expires;
    const expiresAt =
      expires instanceof Date || typeof expires === 'string'
        ? new Date(expires).getTime()
        : Number.POSITIVE_INFINITY;
    if (!(expiresAt > readAt)) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const userId = data.passport?.user;
    this.entries.set(sid, {
      data: structuredClone(data),
      userId: typeof userId === 'string' ? userId : undefined,
      readAt,
      expiresAt,
    });
  }

  /**
   * Drops the change here, then tells the other nodes; resolves once each node heard from lately
   * confirmed it, or after `confirmMs`.
   */
  private async changed(change: Change): Promise<void> {
    this.invalidate(change);
    if (!this.cluster) return;
    const now = this.now();
    const peers = new Set<string>();
    for (const [peer, heardAt] of this.peers)
      if (now - heardAt <= 3 * this.presenceMs) peers.add(peer);
      else this.peers.delete(peer);
    const id = (this.nextId += 1);
    let timer: NodeJS.Timeout | undefined;
    const confirmed = new Promise<boolean>((resolve) => {
      if (peers.size === 0) return resolve(true);
      this.awaiting.set(id, { peers, done: () => resolve(true) });
      timer = setTimeout(() => resolve(false), this.confirmMs);
      timer.unref();
    });
    this.tell({ change, from: this.me, id });
    const inTime = await confirmed;
    clearTimeout(timer);
    this.awaiting.delete(id);
    if (!inTime)
      this.log(
        `${peers.size} node(s) did not confirm a changed session (${change.kind}) within ${this.confirmMs} ms; answering anyway, they read it again within ${this.maxAgeMs} ms`,
      );
  }

  private received(message: Message): void {
    if ('change' in message) {
      this.invalidate(message.change);
      this.heard(message.from);
      this.tell({ confirms: message.id, to: message.from, from: this.me });
    } else if ('confirms' in message) {
      if (message.to !== this.me) return;
      this.heard(message.from);
      const waiting = this.awaiting.get(message.confirms);
      if (waiting?.peers.delete(message.from) && waiting.peers.size === 0) waiting.done();
    } else if (message.here !== this.me) {
      const known = this.peers.has(message.here);
      this.heard(message.here);
      if (message.new && !known) this.tell({ here: this.me, new: false });
    }
  }

  private heard(peer: string): void {
    this.peers.set(peer, this.now());
  }

  private tell(message: Message): void {
    this.cluster
      ?.broadcast({ channel: CHANNEL, data: message })
      .catch((error: unknown) =>
        this.log('Could not tell the other nodes of a changed session', error),
      );
  }

  private invalidate(change: Change): void {
    this.generation += 1;
    switch (change.kind) {
      case 'session':
        this.entries.delete(change.sessionId);
        break;
      case 'user':
        for (const [sid, entry] of this.entries)
          if (entry.userId === change.userId) this.entries.delete(sid);
        break;
      case 'all':
        this.entries.clear();
        break;
    }
  }
}
