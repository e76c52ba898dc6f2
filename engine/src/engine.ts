import {
  type AuctionCommand,
  type CommandMetadata,
  DomainError,
  type UserEvent,
  rejection,
} from '@auction/contracts';
import { recordAccountEvent } from './account/account-events';
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

/** What readers may do with the event log: everything but write to it. */
export type EventLog = Omit<EventStore, 'append' | 'close'>;

export interface EngineOptions extends RegistryOptions {
  /**
   * Where auction commands go: by default an in-process registry of actors built from these
   * options; in a cluster, the router that carries each to its auction's owner.
   */
  readonly router?: CommandRouter;
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
  private closed = false;

  constructor(options: EngineOptions) {
    this.store = options.store;
    this.auctions = options.router ?? new AuctionActorRegistry(options);
  }

  /** Auction and bid commands, ordered by one actor per auction (on its owner's node). */
  send(command: AuctionCommand): Promise<CommandOutcome> {
    return this.auctions.send(command);
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

  private write<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new DomainError(rejection('UNAVAILABLE')));
    const running = work();
    this.writing.add(running);
    void running.finally(() => this.writing.delete(running)).catch(() => undefined);
    return running;
  }
}
