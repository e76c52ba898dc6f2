import type { PublicUser } from '@auction/contracts';
import { z } from 'zod';
import type { ClusterChannel } from '../realtime/realtime-link';
import type { Account, NewAccount, Role } from './account';
import type { AccountStore } from './account-store';

/** The broadcast channel the nodes tell each other of changed accounts on (`auction.broadcast`). */
const CHANNEL = 'accounts';
/** Accounts kept per node (a few hundred bytes each). */
const ENTRIES = 10_000;

const Changed = z.union([z.object({ userId: z.string() }), z.object({ all: z.literal(true) })]);
type Changed = z.infer<typeof Changed>;

interface Entry {
  readonly account: Account;
  /** When the read that found it started: it is read again `maxAgeMs` after. */
  readonly readAt: number;
}

export interface AccountCacheOptions {
  /** The other nodes, told of every account changed here; theirs reach this node the same way. */
  readonly cluster?: ClusterChannel | undefined;
  /**
   * How long an account read from the store may be served from memory (`SESSION_CACHE_MS`): the
   * bound on how long a change this node was not told of (by the CLI, or a lost broadcast) goes
   * unseen here. 0: read from the store every time.
   */
  readonly maxAgeMs: number;
  /** Accounts kept, the least recently used forgotten first; default 10,000. */
  readonly maxEntries?: number;
  readonly now?: () => number;
  readonly log?: (message: string, error?: unknown) => void;
}

/**
 * A node's signed-in accounts in memory, in front of a store whose `byId` is a round trip
 * (MongoDB): the session middleware looks the account up on every request.
 * - `byId` answers from memory an account read less than `maxAgeMs` ago. An unknown id is not
 *   kept (it is read again each time), and neither is a read that was in flight when a change
 *   arrived (it may predate the change).
 * - Every change through this store (`linkGoogle`, `setRole`, `erase`) drops the account here and
 *   is broadcast on the cluster's `accounts` channel, which drops it on every other node. The
 *   broadcast is at most once and not waited for: `maxAgeMs` bounds what a node that missed it
 *   serves. An erased account needs no more: the erase ends its sessions on every node first
 *   (`CachedSessionStore.destroyUser` waits for the nodes' confirmations), and without a session
 *   no request looks the account up.
 * - A role set with `npm run admin` is written by another process, which tells no node: it takes
 *   effect within `maxAgeMs`.
 * Everything else passes through.
 */
export class CachedAccountStore implements AccountStore {
  private readonly entries = new Map<string, Entry>();
  /** Moves on every change: a read that started before one is not kept. */
  private generation = 0;
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly log: (message: string, error?: unknown) => void;
  private readonly cluster: ClusterChannel | undefined;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    /** The store every miss and every write goes to. */
    readonly store: AccountStore,
    options: AccountCacheOptions,
  ) {
    this.maxAgeMs = options.maxAgeMs;
    this.maxEntries = options.maxEntries ?? ENTRIES;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => undefined);
    this.cluster = options.cluster;
    this.unsubscribe = this.cluster?.onBroadcast((message) => {
      if (message.channel !== CHANNEL) return;
      const parsed = Changed.safeParse(message.data);
      if (parsed.success) this.forget(parsed.data);
    });
  }

  /** How many accounts are in memory (tests, checks). */
  get size(): number {
    return this.entries.size;
  }

  async byId(id: string): Promise<Account | undefined> {
    const now = this.now();
    const entry = this.entries.get(id);
    if (entry) {
      this.entries.delete(id);
      if (now - entry.readAt < this.maxAgeMs) {
        // Most recently used last: the first entry is the one to forget.
        this.entries.set(id, entry);
        return entry.account;
      }
    }
    const generation = this.generation;
    const account = await this.store.byId(id);
    if (account && this.maxAgeMs > 0 && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.set(id, { account, readAt: now });
    }
    return account;
  }

  create(account: NewAccount): Promise<Account> {
    return this.store.create(account);
  }

  byEmail(email: string): Promise<Account | undefined> {
    return this.store.byEmail(email);
  }

  byGoogleSubject(subject: string): Promise<Account | undefined> {
    return this.store.byGoogleSubject(subject);
  }

  async linkGoogle(id: string, subject: string): Promise<void> {
    try {
      await this.store.linkGoogle(id, subject);
    } finally {
      this.changed({ userId: id });
    }
  }

  async setRole(email: string, role: Role): Promise<boolean> {
    try {
      return await this.store.setRole(email, role);
    } finally {
      // Keyed by e-mail, which the cache does not index: rare enough (an operator's) to drop all.
      this.changed({ all: true });
    }
  }

  async erase(id: string): Promise<void> {
    try {
      await this.store.erase(id);
    } finally {
      this.changed({ userId: id });
    }
  }

  lookup(ids: readonly string[]): Promise<Map<string, PublicUser>> {
    return this.store.lookup(ids);
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  /** Stops listening to the other nodes (before the cluster closes); the store stays open. */
  stop(): void {
    this.unsubscribe?.();
  }

  close(): Promise<void> {
    this.stop();
    this.entries.clear();
    return this.store.close();
  }

  private changed(change: Changed): void {
    this.forget(change);
    this.cluster
      ?.broadcast({ channel: CHANNEL, data: change })
      .catch((error: unknown) =>
        this.log('Could not tell the other nodes of a changed account', error),
      );
  }

  private forget(change: Changed): void {
    this.generation += 1;
    if ('all' in change) this.entries.clear();
    else this.entries.delete(change.userId);
  }
}
