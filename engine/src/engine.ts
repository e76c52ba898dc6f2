import {
  type AuctionCommand,
  type CommandMetadata,
  DomainError,
  SYSTEM_ACTOR,
  type UserEvent,
  rejection,
  userStream,
} from '@auction/contracts';
import { AccountClosures } from './account/account-closures';
import { recordAccountEvent } from './account/account-events';
import { AuctionActor, type Snapshot } from './auction/actor';
import { AuctionActorRegistry, type RegistryOptions } from './auction/actor-registry';
import {
  type CreateCategoryCommand,
  type CreateCategoryOutcome,
  createCategory,
  seedFixedCategories,
} from './category/categories';
import type { CommandOutcome } from './command-bus/command-bus';
import type { CommandRouter } from './command-bus/command-router';
import type { EventStore } from './event-store/event-store';
import { type SnapshotStore, isSnapshotStore } from './event-store/snapshot-store';
import { type WatchCommand, type WatchOutcome, Watchlists } from './watchlist/watchlist';

/**
 * A retraction for an account's deletion skips the bidders' retraction rules, so it is taken only
 * from an account whose deletion this process has begun (`closeAccount`, or the closures it
 * follows), never from anyone else.
 */
const forDeletionOnly = (command: AuctionCommand, closures: AccountClosures) =>
  command.type === 'RetractBid' &&
  command.data.reason === 'account-deleted' &&
  !closures.isClosed(command.metadata.actorId)
    ? rejection('FORBIDDEN')
    : undefined;

/**
 * A router that shows the committed state of the actors it runs here: the registry, and the
 * cluster router for the auctions this node owns.
 */
interface HoldsActors {
  snapshotOf(auctionId: string): Snapshot | undefined;
}

const holdsActors = (router: CommandRouter): router is CommandRouter & HoldsActors =>
  typeof (router as Partial<HoldsActors>).snapshotOf === 'function';

/** What readers may do with the event log: everything but write to it. */
export type EventLog = Omit<EventStore, 'append' | 'close'>;

export interface EngineOptions extends RegistryOptions {
  /**
   * Where auction commands go: by default an in-process registry of actors built from these
   * options; in a cluster, the router that carries each to its auction's owner.
   */
  readonly router?: CommandRouter;
  /**
   * The accounts whose deletion has begun, whose commands that add are refused. Give the same
   * object to the `router`'s registry (`refuse`) so its actors check it when they decide; by
   * default a set of this process's own closures, which the default registry checks.
   */
  readonly closures?: AccountClosures;
  /** Users whose folded watch sets this process keeps (`Watchlists`); default 10,000. */
  readonly watchSets?: number;
}

/**
 * The write side's one door: auction and bid commands, categories with their name reservations,
 * and account lifecycle events all reach the event store through here, and nowhere else.
 */
export class Engine implements CommandRouter {
  private readonly store: EventStore;
  private readonly auctions: CommandRouter;
  private readonly writing = new Set<Promise<unknown>>();
  private readonly accountWrites = new Map<string, Promise<number>>();
  /** Each user's commands sent and not yet answered, so a closure can wait for them. */
  private readonly sending = new Map<string, Set<Promise<CommandOutcome>>>();
  private readonly closures: AccountClosures;
  private readonly watchlists: Watchlists;
  private readonly snapshots: SnapshotStore | undefined;
  private closed = false;

  constructor(options: EngineOptions) {
    this.store = options.store;
    this.closures = options.closures ?? new AccountClosures({ store: options.store });
    this.auctions =
      options.router ??
      new AuctionActorRegistry({ ...options, refuse: options.refuse ?? this.closures.refuse });
    this.snapshots =
      options.snapshots === false
        ? undefined
        : (options.snapshots ?? (isSnapshotStore(options.store) ? options.store : undefined));
    this.watchlists = new Watchlists(options.store, this.snapshots, options.watchSets);
  }

  /**
   * An auction's committed state and revision, for reads that cannot wait for the read models
   * (the API's auction page while they catch up): the state of its actor when it is in memory
   * here, else read from its snapshot and the events after it, never kept (so a node that does
   * not own the auction never holds a second actor of it). Undefined for an unknown auction.
   */
  async auctionState(auctionId: string): Promise<Snapshot | undefined> {
    const held = holdsActors(this.auctions) ? this.auctions.snapshotOf(auctionId) : undefined;
    const snapshot =
      held && held.revision >= 0
        ? held
        : await AuctionActor.read(this.store, auctionId, this.snapshots);
    return snapshot.revision < 0 ? undefined : snapshot;
  }

  /** Whether the user watches the auction now, from their watchlist stream (see `Watchlists`). */
  isWatching(userId: string, auctionId: string): Promise<boolean> {
    return this.watchlists.isWatching(userId, auctionId);
  }

  /** Auction and bid commands, ordered by one actor per auction (on its owner's node). */
  send(command: AuctionCommand): Promise<CommandOutcome> {
    const refused = this.closures.refuse(command) ?? forDeletionOnly(command, this.closures);
    if (refused)
      return Promise.resolve({ ok: false, auctionId: command.data.auctionId, rejection: refused });
    const outcome = this.auctions.send(command);
    const userId = command.metadata.actorId;
    if (userId !== SYSTEM_ACTOR) this.track(userId, outcome);
    return outcome;
  }

  /**
   * Begins an account's deletion: from now on its commands that add a bid or an auction are
   * refused, the ones already sent are answered, and `AccountDeletionRequested` is in the log (once
   * per account). A bid another node decides before it hears is undone by `AccountClosures`.
   */
  async closeAccount(userId: string, metadata: CommandMetadata): Promise<void> {
    const wasClosed = this.closures.isClosed(userId);
    this.closures.close(userId);
    try {
      await Promise.allSettled([...(this.sending.get(userId) ?? [])]);
      const recorded = (await this.store.readStream(userStream(userId))).some(
        (event) => event.type === 'AccountDeletionRequested',
      );
      if (!recorded)
        await this.recordAccountEvent(
          { type: 'AccountDeletionRequested', data: { userId, at: metadata.at } },
          metadata,
        );
    } catch (error) {
      if (!wasClosed) this.closures.reopen(userId);
      throw error;
    }
  }

  owns(auctionId: string): boolean {
    return this.auctions.owns(auctionId);
  }

  onOwnershipChange(listener: () => void): () => void {
    return this.auctions.onOwnershipChange(listener);
  }

  /**
   * Creates a category whose name no other category's name looks like: neither the trimmed,
   * case-folded name nor its confusable skeletons (`category/category-name-key.ts`) is reserved.
   */
  createCategory(command: CreateCategoryCommand): Promise<CreateCategoryOutcome> {
    return this.write(() => createCategory(this.store, command));
  }

  /** Records an account's registration or deletion on `user-{id}`; returns its global position. */
  recordAccountEvent(event: UserEvent, metadata: CommandMetadata): Promise<number> {
    const userId = event.data.userId;
    return this.write(() => {
      // One user's events are appended one at a time here; another node's show up as conflicts.
      const previous = this.accountWrites.get(userId) ?? Promise.resolve(0);
      const next = previous
        .catch(() => 0)
        .then(() => recordAccountEvent(this.store, event, metadata));
      this.accountWrites.set(userId, next);
      void next
        .finally(() => {
          if (this.accountWrites.get(userId) === next) this.accountWrites.delete(userId);
        })
        .catch(() => undefined);
      return next;
    });
  }

  /**
   * Watches or unwatches an auction for a user (`watchlist-{userId}`, one user's writes one at a
   * time here); idempotent. A closed account's is refused (`ACCOUNT_DELETED`).
   */
  watch(command: WatchCommand, metadata: CommandMetadata): Promise<WatchOutcome> {
    if (this.closures.isClosed(command.userId))
      return Promise.reject(new DomainError(rejection('ACCOUNT_DELETED')));
    return this.write(() => {
      const key = `watchlist:${command.userId}`;
      const previous = this.accountWrites.get(key) ?? Promise.resolve(0);
      const next = previous.catch(() => 0).then(() => this.watchlists.record(command, metadata));
      const settled = next.then(() => 0);
      this.accountWrites.set(key, settled);
      void settled
        .finally(() => {
          if (this.accountWrites.get(key) === settled) this.accountWrites.delete(key);
        })
        .catch(() => undefined);
      return next;
    });
  }

  /**
   * Creates the fixed categories that are missing and reserves the name keys of any category that
   * lacks them (one made before the keys existed); safe at every start.
   */
  seedFixedCategories(at: string): Promise<void> {
    return this.write(() => seedFixedCategories(this.store, at));
  }

  /** Stops taking commands and waits for every write in flight. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.writing);
    await this.auctions.close();
  }

  private track(userId: string, outcome: Promise<CommandOutcome>): void {
    let mine = this.sending.get(userId);
    if (!mine) this.sending.set(userId, (mine = new Set()));
    mine.add(outcome);
    const done = () => {
      mine.delete(outcome);
      if (mine.size === 0 && this.sending.get(userId) === mine) this.sending.delete(userId);
    };
    outcome.then(done, done);
  }

  private write<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new DomainError(rejection('UNAVAILABLE')));
    const running = work();
    this.writing.add(running);
    void running.finally(() => this.writing.delete(running)).catch(() => undefined);
    return running;
  }
}
