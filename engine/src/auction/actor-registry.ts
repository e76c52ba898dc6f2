import { type AuctionCommand, DomainError, categoryStream, rejection } from '@auction/contracts';
import { type Clock, systemClock } from '../clock';
import type { CommandOutcome } from '../command-bus/command-bus';
import type { CommandRouter } from '../command-bus/command-router';
import type { EventStore } from '../event-store/event-store';
import { type ActorOptions, AuctionActor, type Snapshot } from './actor';
import { type SnapshotStore, isSnapshotStore } from '../event-store/snapshot-store';

export interface RegistryOptions extends ActorOptions {
  readonly store: EventStore;
  readonly clock?: Clock;
  /** An actor with nothing to do for this long is dropped (it reloads from the store on demand). */
  readonly idleMs?: number;
  /** Whether a category exists; by default, whether its stream exists in the store. */
  readonly categoryExists?: (categoryId: string) => Promise<boolean>;
  /**
   * Where actors leave a snapshot when dropped (idle, handed off, closed) and load from it next
   * time, reading only the events after it. By default the event store, when it keeps snapshots
   * (the SQLite store does); `false`: always fold the whole stream.
   */
  readonly snapshots?: SnapshotStore | false;
}

/**
 * The in-process command router: one actor per auction, loaded on demand and dropped when idle,
 * so one auction's commands are ordered by exactly one actor per process; a second process on the
 * same store shows up as expected-revision conflicts. In a cluster it runs the owned auctions.
 */
export class AuctionActorRegistry implements CommandRouter {
  private readonly actors = new Map<string, AuctionActor>();
  private readonly loading = new Map<string, Promise<AuctionActor>>();
  private readonly clock: Clock;
  private readonly idleMs: number;
  private readonly categoryExists: (categoryId: string) => Promise<boolean>;
  private readonly snapshots: SnapshotStore | undefined;
  private readonly saving = new Set<Promise<void>>();
  private sweepTimer: unknown;
  private closed = false;

  constructor(private readonly options: RegistryOptions) {
    this.clock = options.clock ?? systemClock;
    this.idleMs = options.idleMs ?? 5 * 60_000;
    this.categoryExists =
      options.categoryExists ??
      (async (id) => (await options.store.streamRevision(categoryStream(id))) !== undefined);
    this.snapshots =
      options.snapshots === false
        ? undefined
        : (options.snapshots ?? (isSnapshotStore(options.store) ? options.store : undefined));
    this.armSweep();
  }

  send(command: AuctionCommand): Promise<CommandOutcome> {
    // The common case, an actor in memory, without the async function's extra promise.
    if (!this.closed && command.type !== 'CreateAuction') {
      const cached = this.actors.get(command.data.auctionId);
      if (cached && !cached.broken) {
        cached.lastUsed = this.clock.now();
        return cached.send(command);
      }
    }
    return this.sendLoading(command);
  }

  private async sendLoading(command: AuctionCommand): Promise<CommandOutcome> {
    if (this.closed) throw new DomainError(rejection('UNAVAILABLE'));
    const auctionId = command.data.auctionId;
    if (command.type === 'CreateAuction' && !(await this.categoryExists(command.data.categoryId))) {
      return { ok: false, auctionId, rejection: rejection('CATEGORY_NOT_FOUND') };
    }
    const cached = this.actors.get(auctionId);
    const actor = cached && !cached.broken ? cached : await this.load(auctionId);
    actor.lastUsed = this.clock.now();
    return actor.send(command);
  }

  /** Every auction's actor runs here. */
  owns(): boolean {
    return true;
  }

  /** What one process owns never changes. */
  onOwnershipChange(): () => void {
    return () => undefined;
  }

  /**
   * Drops the actors of the auctions `which` selects once their commands in flight are committed
   * (a handoff: another node owns them now and loads them from the store); returns how many.
   */
  async drop(which: (auctionId: string) => boolean): Promise<number> {
    const leaving = [...this.actors].filter(([id]) => which(id));
    await Promise.all(leaving.map(([, actor]) => actor.whenIdle()));
    for (const [id, actor] of leaving) {
      if (this.actors.get(id) !== actor) continue;
      this.actors.delete(id);
      this.saveSnapshot(actor);
    }
    return leaving.length;
  }

  /** The committed snapshot of the auction's actor, if it is in memory (diagnostics and tests). */
  snapshotOf(auctionId: string): Snapshot | undefined {
    return this.actors.get(auctionId)?.snapshot;
  }

  /** The number of actors in memory. */
  get size(): number {
    return this.actors.size;
  }

  /** Drops every idle actor unused for `idleMs`; returns how many were dropped. */
  evictIdle(): number {
    const cutoff = this.clock.now() - this.idleMs;
    let evicted = 0;
    for (const [id, actor] of this.actors) {
      if (actor.idle && (actor.broken || actor.lastUsed <= cutoff)) {
        this.actors.delete(id);
        this.saveSnapshot(actor);
        evicted++;
      }
    }
    return evicted;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clock.clearTimeout(this.sweepTimer);
    await Promise.allSettled(this.loading.values());
    await Promise.all([...this.actors.values()].map((actor) => actor.whenIdle()));
    // A restart then loads each auction from its snapshot and the few events after it.
    for (const actor of this.actors.values()) this.saveSnapshot(actor);
    await Promise.all(this.saving);
  }

  /** Whether snapshots are being written (diagnostics and tests): resolves when they are. */
  snapshotsSaved(): Promise<void> {
    return Promise.all(this.saving).then(() => undefined);
  }

  /**
   * Leaves a snapshot of a dropped actor's committed state. Best effort: one that fails to be
   * written only means the next load reads more of the stream.
   */
  private saveSnapshot(actor: AuctionActor): void {
    const snapshots = this.snapshots;
    const stored = snapshots && actor.toStoredSnapshot();
    if (!snapshots || !stored) return;
    const saving = snapshots.saveSnapshot(actor.streamId, stored).then(
      () => actor.snapshotSaved(stored.revision),
      () => undefined,
    );
    this.saving.add(saving);
    void saving.finally(() => this.saving.delete(saving));
  }

  private async load(auctionId: string): Promise<AuctionActor> {
    let loading = this.loading.get(auctionId);
    if (!loading) {
      loading = AuctionActor.load(this.options.store, auctionId, this.options, this.snapshots)
        .then((actor) => {
          actor.lastUsed = this.clock.now();
          this.actors.set(auctionId, actor);
          return actor;
        })
        .catch((error: unknown) => {
          const wrapped = new DomainError(rejection('UNAVAILABLE'));
          wrapped.cause = error;
          throw wrapped;
        })
        .finally(() => this.loading.delete(auctionId));
      this.loading.set(auctionId, loading);
    }
    return loading;
  }

  private armSweep(): void {
    this.sweepTimer = this.clock.setTimeout(
      () => {
        if (this.closed) return;
        this.evictIdle();
        this.armSweep();
      },
      Math.max(1000, this.idleMs / 2),
    );
  }
}
