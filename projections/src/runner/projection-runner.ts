import type { BulkLoad, CollectionSpec, ReadStore, Write } from '../read-store/read-store';
import type { RecordedEvent, Projection } from './projection';
import { DocumentCache } from './document-cache';
import { BatchUnitOfWork } from './unit-of-work';
import { WrittenIds } from './written-ids';

/** The part of the event store the projections read (the engine's store fits it). */
export interface EventSource {
  subscribe(options: {
    readonly afterPosition?: number;
    readonly batchSize?: number;
    readonly onEvents: (events: readonly RecordedEvent[]) => void | Promise<void>;
    readonly onError?: (error: unknown) => void;
  }): { readonly caughtUp: Promise<void>; close(): Promise<void> };
  headPosition(): Promise<number | undefined>;
}

export interface ProjectionStatus {
  readonly name: string;
  /**
   * `running`: this node applies it. `following`: another node does (it holds the projection's
   * lease), and this one reads its checkpoint. Without a lease every projection is `running`.
   */
  readonly role: 'running' | 'following';
  /** Last global position applied (0 before any); a followed projection's stored checkpoint. */
  readonly position: number;
  /** Events in the log after it. */
  readonly behind: number;
  /** Milliseconds since this node last committed a batch of it; undefined while following. */
  readonly sinceLastBatchMs: number | undefined;
  readonly error: string | undefined;
}

/**
 * Runs each projection on one node of several that share a read store: the node holding the
 * projection's lease (`ReadStore.acquireLease`, named after the projection) applies it, the others
 * follow its checkpoint. The nodes' clocks must agree within a small fraction of `ttlMs`.
 */
export interface LeaseOptions {
  /** This node, unique among the nodes (e.g. host, pid and a random suffix). */
  readonly holder: string;
  /** How long a lease lasts unless renewed: a stopped node's projections move after it. Default 10 s. */
  readonly ttlMs?: number;
  /** How often leases are renewed, and free ones taken. Default a third of `ttlMs`. */
  readonly renewMs?: number;
  /**
   * How often `waitFor` reads a followed projection's checkpoint. Default 50 ms. Where the holder's
   * checkpoints are pushed (`followedCheckpoint`), this is only the safety net and may be longer.
   */
  readonly followPollMs?: number;
}

export interface RunnerOptions {
  readonly source: EventSource;
  readonly store: ReadStore;
  readonly projections: readonly Projection[];
  /** Largest batch a live subscription delivers (default 500). */
  readonly batchSize?: number;
  /**
   * Events per batch while projections catch up from far behind (at start, after a rebuild, when
   * a lease moves here): the log is read and parsed once for all of them, in batches this large,
   * each applied in memory and committed in bulk (default 10,000).
   */
  readonly catchUpBatchSize?: number;
  /**
   * A catch-up of at least this many events into empty collections, without a lease, is a bulk
   * load where the store offers one (`ReadStore.beginBulkLoad`); default 5,000 (below it, dropping
   * and building the indexes again costs more than it saves).
   */
  readonly bulkLoadEvents?: number;
  /** Wait before resubscribing after a failed batch. */
  readonly retryMs?: number;
  /**
   * Documents each projection keeps from batch to batch (`DocumentCache`), so that a hot one is
   * not read from the store again. Default 2,000; 0 turns the cache off.
   */
  readonly documentCacheSize?: number;
  readonly onError?: (error: unknown, projection: string) => void;
  /**
   * Told of every batch a projection committed, with its writes (for pushing new documents out)
   * and its new checkpoint (for telling the nodes that follow it).
   */
  readonly onCommitted?: (projection: string, writes: readonly Write[], position: number) => void;
  /**
   * Told each projection's position whenever it is set: a batch applied, a checkpoint read at a
   * (re)subscription, a followed checkpoint learnt, a rebuild's 0. A runner on another thread
   * mirrors them for `reached` and `waitFor` there (api's `ProjectionThread`).
   */
  readonly onPosition?: (projection: string, position: number) => void;
  /** Share the projections with other nodes; without it this runner applies every projection. */
  readonly lease?: LeaseOptions;
}

interface Waiter {
  readonly position: number;
  readonly resolve: () => void;
}

interface Running {
  readonly projection: Projection;
  position: number;
  lastBatchAt: number | undefined;
  error: string | undefined;
  subscription: { readonly caughtUp: Promise<void>; close(): Promise<void> } | undefined;
  /** The subscription a lost lease closed, until its batch in flight has finished. */
  closing: Promise<void> | undefined;
  retry: NodeJS.Timeout | undefined;
  waiters: Waiter[];
  /** Whether this node applies it: always without a lease, else while it holds the lease. */
  held: boolean;
  /**
   * Counts subscriptions (and lost leases): a batch or an error from a subscription that is no
   * longer the current one is not acted on.
   */
  generation: number;
  /** Fires when the lease runs out unless a renewal pushed it back. */
  expiry: NodeJS.Timeout | undefined;
  /** Its documents from batch to batch, while this node is its one writer. */
  readonly cache: DocumentCache;
  /** A lease round is in flight: the next tick leaves this projection to it. */
  renewing: boolean;
  /** Reads the checkpoint again for waiters on a followed projection. */
  poll: NodeJS.Timeout | undefined;
}

type Lease = Required<LeaseOptions>;

const DEFAULT_TTL_MS = 10_000;
const DEFAULT_CATCH_UP_BATCH = 10_000;
/** Documents each projection keeps between batches (`RunnerOptions.documentCacheSize`). */
const DEFAULT_DOCUMENT_CACHE = 2000;
const DEFAULT_FOLLOW_POLL_MS = 50;
/** The smallest catch-up into empty collections that is a bulk load (`bulkLoadEvents`). */
const DEFAULT_BULK_LOAD_EVENTS = 5000;
/** How long a catch-up applies events before it lets the event loop take a turn. */
const CATCH_UP_TURN_MS = 20;

const leaseDefaults = (options: LeaseOptions): Lease => {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  return {
    holder: options.holder,
    ttlMs,
    renewMs: options.renewMs ?? ttlMs / 3,
    followPollMs: options.followPollMs ?? DEFAULT_FOLLOW_POLL_MS,
  };
};

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * The answer, or a failure once `ms` have passed without one: a store call that hangs must not
 * keep a lease round in flight for ever. A late answer is ignored.
 */
const within = async <T>(answer: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  answer.catch(() => undefined);
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
};

/** The writes with those to the guard collections last, each group in its own order. */
const guardsLast = (writes: Write[], guards: readonly string[]): Write[] =>
  guards.length === 0
    ? writes
    : [
        ...writes.filter((write) => !guards.includes(write.collection)),
        ...writes.filter((write) => guards.includes(write.collection)),
      ];

/** A projection in a shared catch-up (`catchUpTogether`), as of the generation it joined at. */
interface CatchUpMember {
  readonly r: Running;
  readonly generation: number;
  /** Its collections were empty (and no other node writes them): see `WrittenIds`. */
  readonly empty: boolean;
  written?: WrittenIds;
}

/** Without those whose lease was lost, or that another catch-up or subscription took over. */
const current = (members: ReadonlySet<CatchUpMember>): CatchUpMember[] =>
  [...members].filter(({ r, generation }) => generation === r.generation);

/** How a catch-up applies its large batches. */
export interface CatchUpOptions {
  /**
   * Given only when the projection's collections were empty when the catch-up began and nothing
   * else writes them meanwhile; told of every document written (see `WrittenIds`).
   */
  readonly written?: WrittenIds;
  /** Gives the event loop a turn after this long applying events (the batch may be large). */
  readonly turnMs?: number;
  /** The projection's documents from earlier batches; takes this batch's once it commits. */
  readonly cache?: DocumentCache;
}

/** Applies a batch to one projection and commits it with the batch's last position. */
export const applyBatch = async (
  store: ReadStore,
  specs: ReadonlyMap<string, CollectionSpec>,
  projection: Projection,
  events: readonly RecordedEvent[],
  { written, turnMs, cache }: CatchUpOptions = {},
): Promise<readonly Write[]> => {
  const last = events[events.length - 1];
  if (!last) return [];
  const uow = new BatchUnitOfWork(store, specs, written, cache);
  let turnAt = turnMs === undefined ? Infinity : performance.now() + turnMs;
  for (const event of events) {
    uow.begin(event.position);
    await projection.handle(event, uow);
    if (turnMs !== undefined && performance.now() >= turnAt) {
      // Documents the uow knows are read from memory without a turn of their own: the server
      // answers requests while a long catch-up runs.
      await new Promise((resolve) => setImmediate(resolve));
      turnAt = performance.now() + turnMs;
    }
  }
  const writes = guardsLast(uow.writes(), projection.guards ?? []);
  await store.commit(projection.name, writes, last.position);
  cache?.committed(writes);
  return writes;
};

/**
 * Keeps every projection up to date, each batch committed with its checkpoint. With `lease`, a
 * projection runs on the one node holding its lease and the others follow its checkpoint; a node
 * that loses or cannot renew a lease stops that subscription at once (a batch still in flight is
 * made harmless by the store's position guards). See the README's "Leases".
 */
export class ProjectionRunner {
  private readonly running = new Map<string, Running>();
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly lease: Lease | undefined;
  /** Shared catch-up reads in progress (closed by `stop`). */
  private readonly catchUps = new Set<{ close(): Promise<void> }>();
  private renewTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: RunnerOptions) {
    this.lease = options.lease && leaseDefaults(options.lease);
    for (const projection of options.projections) {
      for (const spec of projection.collections) this.specs.set(spec.name, spec);
      this.running.set(projection.name, {
        projection,
        position: 0,
        lastBatchAt: undefined,
        error: undefined,
        subscription: undefined,
        closing: undefined,
        retry: undefined,
        waiters: [],
        held: this.lease === undefined,
        generation: 0,
        expiry: undefined,
        cache: new DocumentCache(options.documentCacheSize ?? DEFAULT_DOCUMENT_CACHE),
        renewing: false,
        poll: undefined,
      });
    }
  }

  /**
   * Subscribes every projection from its checkpoint (with a lease, those whose lease this node
   * takes; it follows the others); resolves once those have caught up.
   */
  async start(): Promise<void> {
    await this.options.store.ensureCollections([...this.specs.values()]);
    const lease = this.lease;
    if (!lease) {
      await this.catchUpAndSubscribe([...this.running.values()]);
      return;
    }
    const taken: Running[] = [];
    const taking = Promise.all(
      [...this.running.values()].map((r) => this.leaseRound(r, lease, taken)),
    );
    // Renewals run during the catch-up too, however long it takes.
    this.renewTimer = setInterval(() => this.tick(lease), lease.renewMs);
    this.renewTimer.unref();
    await taking;
    await this.catchUpAndSubscribe(taken);
  }

  /** Closes the subscriptions, then releases the leases this node holds (best effort). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.renewTimer);
    await Promise.all([...this.catchUps].map((catchUp) => catchUp.close()));
    for (const r of this.running.values()) {
      clearTimeout(r.retry);
      clearTimeout(r.expiry);
      clearTimeout(r.poll);
      r.poll = undefined;
      await r.subscription?.close();
      r.subscription = undefined;
    }
    const lease = this.lease;
    if (!lease) return;
    // Every lease, not only the held ones: a round in flight may have just taken one (and a round
    // that takes one after this releases it itself).
    await Promise.all([...this.running.values()].map((r) => this.release(r, lease)));
  }

  /**
   * Empties one projection, or several, and builds them again from position 0, reading the log
   * once for all of them; resolves when they have caught up.
   */
  async rebuild(names: string | readonly string[]): Promise<void> {
    const chosen = (typeof names === 'string' ? [names] : [...new Set(names)]).map((name) => {
      const r = this.running.get(name);
      if (!r)
        throw new Error(
          `Unknown projection ${name}; known: ${[...this.running.keys()].join(', ')}`,
        );
      if (!r.held) {
        throw new Error(
          `Projection ${name} runs on another node (this node does not hold its lease): rebuild it there`,
        );
      }
      return r;
    });
    for (const r of chosen) {
      clearTimeout(r.retry);
      await r.subscription?.close();
      r.subscription = undefined;
      await this.confirmLease(r);
      await this.options.store.reset(
        r.projection.name,
        r.projection.collections.map((c) => c.name),
      );
      r.cache.clear();
      r.position = 0;
      this.resolveWaiters(r);
    }
    await this.catchUpAndSubscribe(chosen);
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = (await this.options.source.headPosition()) ?? 0;
    const now = Date.now();
    return Promise.all(
      [...this.running.values()].map(async (r): Promise<ProjectionStatus> => {
        if (!r.held) await this.refreshFollowed(r);
        return {
          name: r.projection.name,
          role: r.held ? 'running' : 'following',
          position: r.position,
          behind: Math.max(0, head - r.position),
          sinceLastBatchMs:
            !r.held || r.lastBatchAt === undefined ? undefined : now - r.lastBatchAt,
          error: r.error,
        };
      }),
    );
  }

  /**
   * Whether the named projections (all by default) are known to have applied `position`: this
   * node's own progress, and for a followed projection the checkpoint last read. No I/O.
   */
  reached(position: number, names?: readonly string[]): boolean {
    for (const name of names ?? this.running.keys()) {
      const r = this.running.get(name);
      if (!r) throw new Error(`Unknown projection ${name}`);
      if (r.position < position) return false;
    }
    return true;
  }

  /**
   * Read-your-writes: resolves once the named projections (all by default) have applied every
   * event up to `position`; rejects after `timeoutMs`. A projection another node runs is polled
   * for its checkpoint meanwhile.
   */
  waitFor(position: number, names?: readonly string[], timeoutMs = 5000): Promise<void> {
    const targets = (names ?? [...this.running.keys()]).map((name) => {
      const r = this.running.get(name);
      if (!r) throw new Error(`Unknown projection ${name}`);
      return r;
    });
    const pending = targets.filter((r) => r.position < position);
    if (pending.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      let left = pending.length;
      const waiter: Waiter = {
        position,
        resolve: () => {
          if (--left === 0) {
            clearTimeout(timer);
            resolve();
          }
        },
      };
      const timer = setTimeout(() => {
        // Forgotten, so that nobody polls on behalf of a caller that gave up.
        for (const r of pending) r.waiters = r.waiters.filter((w) => w !== waiter);
        reject(new Error(`Projections did not reach position ${position} within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      for (const r of pending) {
        r.waiters.push(waiter);
        this.pollFollowed(r);
      }
    });
  }

  /**
   * A checkpoint another node committed for a projection it applies (the holder of its lease,
   * telling the cluster): this node's waiters on it up to there resolve now, not at the next poll.
   * Ignored for a projection this node applies itself, an unknown one, or a position it knows.
   */
  followedCheckpoint(name: string, position: number): void {
    const r = this.running.get(name);
    if (!r || r.held || this.stopped || position <= r.position) return;
    r.position = position;
    this.resolveWaiters(r);
  }

  /**
   * Catches the projections up together, then subscribes each from its checkpoint (the few events
   * appended meanwhile, then live). Resolves once every one of them has caught up or failed (a
   * failure is reported and retried alone, as a failed batch is).
   */
  private async catchUpAndSubscribe(group: readonly Running[]): Promise<void> {
    const ready = await this.catchUpTogether(group);
    await Promise.all(
      ready.map((r) =>
        this.subscribe(r).catch((error: unknown) => this.failed(r, r.generation, error)),
      ),
    );
  }

  /**
   * One read of the log, from the lowest checkpoint to today's head, shared by several projections;
   * one that fails or loses its lease leaves the group and the others go on. Returns those that
   * caught up. Over empty collections without a lease, `WrittenIds` spares reads of new documents.
   */
  private async catchUpTogether(group: readonly Running[]): Promise<Running[]> {
    const members = await this.joinCatchUp(group);
    if (members.size === 0) return [];
    const leave = (member: CatchUpMember, error: unknown) => {
      members.delete(member);
      this.failed(member.r, member.generation, error);
    };
    let head: number;
    try {
      head = (await this.options.source.headPosition()) ?? 0;
    } catch (error) {
      for (const member of [...members]) leave(member, error);
      return [];
    }
    const from = Math.min(...[...members].map(({ r }) => r.position));
    for (const member of members) {
      if (member.empty) member.written = WrittenIds.forEvents(head - member.r.position);
    }
    if (from < head) {
      const load = await this.beginBulkLoad(members, head - from);
      try {
        await this.readTogether(members, from, head, leave);
      } finally {
        // Its indexes are built before any member subscribes: live reads expect them. A runner
        // stopping leaves them to the next start's `ensureCollections` rather than hold its stop.
        await load?.end(!this.stopped).catch((error: unknown) => {
          for (const member of current(members)) leave(member, error);
        });
      }
    }
    return current(members).map(({ r }) => r);
  }

  /**
   * A catch-up of many events into empty collections (a rebuild, a lost read store) is a bulk load
   * where the store supports one (`ReadStore.beginBulkLoad`); a failure to begin one only makes
   * the catch-up write as the live path does.
   */
  private async beginBulkLoad(
    members: ReadonlySet<CatchUpMember>,
    events: number,
  ): Promise<BulkLoad | undefined> {
    const store = this.options.store;
    const empty = [...members].filter((member) => member.empty);
    const least = this.options.bulkLoadEvents ?? DEFAULT_BULK_LOAD_EVENTS;
    if (!store.beginBulkLoad || empty.length === 0 || events < least) return undefined;
    try {
      return await store.beginBulkLoad(
        empty.flatMap(({ r }) => r.projection.collections.map((c) => c.name)),
      );
    } catch (error) {
      for (const { r } of empty) this.options.onError?.(error, r.projection.name);
      return undefined;
    }
  }

  /**
   * The group's projections that this node still applies, each at its checkpoint (waiters up to
   * there resolved); one whose checkpoint cannot be read fails alone.
   */
  private async joinCatchUp(group: readonly Running[]): Promise<Set<CatchUpMember>> {
    const members = new Set<CatchUpMember>();
    for (const r of group) {
      if (this.stopped || !r.held) continue;
      const generation = ++r.generation;
      try {
        // A batch the last holder of the lease (maybe this node) has in flight lands first.
        await r.closing;
        const checkpoint = await this.options.store.checkpoint(r.projection.name);
        // With leases another node's batch in flight may still land: only without them is an
        // empty store known to stay empty but for this runner's own writes.
        const empty = this.lease === undefined && (await this.isEmpty(r.projection));
        if (generation !== r.generation || this.stopped) continue;
        r.position = checkpoint ?? 0;
        this.resolveWaiters(r);
        members.add({ r, generation, empty });
      } catch (error) {
        this.failed(r, generation, error);
      }
    }
    return members;
  }

  /**
   * Reads the log after `from` until `head`, handing each batch to the members still current.
   * Ends early once none is left or the runner stops; a failed read makes them all leave.
   */
  private async readTogether(
    members: Set<CatchUpMember>,
    from: number,
    head: number,
    leave: (member: CatchUpMember, error: unknown) => void,
  ): Promise<void> {
    let done = false;
    let settle: (error?: unknown) => void = () => undefined;
    const finished = new Promise<void>((resolve, reject) => {
      settle = (error) =>
        error === undefined
          ? resolve()
          : reject(error instanceof Error ? error : new Error(messageOf(error)));
    });
    const finish = (error?: unknown) => {
      done = true;
      settle(error);
    };
    const read = this.options.source.subscribe({
      ...(from > 0 ? { afterPosition: from } : {}),
      batchSize: this.options.catchUpBatchSize ?? DEFAULT_CATCH_UP_BATCH,
      onEvents: async (events) => {
        const last = events[events.length - 1];
        if (done) return;
        await this.applyToMembers(members, events, leave);
        if (!last || last.position >= head || current(members).length === 0 || this.stopped)
          finish();
      },
      onError: (error) => finish(error ?? new Error('The catch-up read failed')),
    });
    this.catchUps.add(read);
    // Caught up with the log as it is now; or closed (by `stop`), or failed (`onError` says why).
    read.caughtUp.then(
      () => finish(),
      () => finish(),
    );
    try {
      await finished;
    } catch (error) {
      for (const member of current(members)) leave(member, error);
    } finally {
      this.catchUps.delete(read);
      await read.close();
    }
  }

  /** One batch of a shared catch-up, to each member from the first event it has not applied. */
  private async applyToMembers(
    members: Set<CatchUpMember>,
    events: readonly RecordedEvent[],
    leave: (member: CatchUpMember, error: unknown) => void,
  ): Promise<void> {
    for (const member of current(members)) {
      const { r, generation, written } = member;
      const start = events.findIndex((event) => event.position > r.position);
      if (start < 0) continue;
      try {
        await this.apply(r, generation, start === 0 ? events : events.slice(start), {
          written,
          turnMs: CATCH_UP_TURN_MS,
        });
      } catch (error) {
        leave(member, error);
      }
    }
  }

  private async subscribe(r: Running): Promise<void> {
    if (this.stopped || !r.held) return;
    const generation = ++r.generation;
    // A batch the last holder of the lease (maybe this node) has in flight lands first.
    await r.closing;
    const checkpoint = await this.options.store.checkpoint(r.projection.name);
    // The lease was lost, or another subscribe began, while the checkpoint was read.
    if (generation !== r.generation || this.stopped) return;
    r.position = checkpoint ?? 0;
    // Waiters from while another node ran it may be satisfied already.
    this.resolveWaiters(r);
    const subscription = this.options.source.subscribe({
      ...(checkpoint === undefined ? {} : { afterPosition: checkpoint }),
      batchSize: this.options.batchSize ?? 500,
      onEvents: (events) => this.apply(r, generation, events),
      onError: (error) => this.failed(r, generation, error),
    });
    r.subscription = subscription;
    await subscription.caughtUp.catch(() => undefined);
  }

  /** Whether none of the projection's collections holds a document. */
  private async isEmpty(projection: Projection): Promise<boolean> {
    for (const spec of projection.collections) {
      if ((await this.options.store.find(spec.name, { limit: 1 })).length > 0) return false;
    }
    return true;
  }

  private async apply(
    r: Running,
    generation: number,
    events: readonly RecordedEvent[],
    catchUp?: CatchUpOptions,
  ): Promise<void> {
    const last = events[events.length - 1];
    // A batch of a subscription being closed (its lease lost): the next holder applies it.
    if (!last || generation !== r.generation) return;
    const writes = await applyBatch(this.options.store, this.specs, r.projection, events, {
      ...catchUp,
      cache: r.cache,
    });
    r.position = last.position;
    this.options.onCommitted?.(r.projection.name, writes, last.position);
    r.lastBatchAt = Date.now();
    r.error = undefined;
    this.resolveWaiters(r);
  }

  private failed(r: Running, generation: number, error: unknown): void {
    // The batch may have landed in part: what the store holds is no longer what the cache says.
    r.cache.clear();
    r.error = messageOf(error);
    this.options.onError?.(error, r.projection.name);
    if (generation !== r.generation) return;
    r.subscription = undefined;
    if (this.stopped || !r.held) return;
    r.retry = setTimeout(() => this.resubscribe(r), this.options.retryMs ?? 1000);
    r.retry.unref();
  }

  /** Subscribes again after a failure; a failure to do so is retried the same way. */
  private resubscribe(r: Running): void {
    this.subscribe(r).catch((error: unknown) => this.failed(r, r.generation, error));
  }

  /** The projection's position was set: its waiters up to there resolve (`onPosition` is told). */
  private resolveWaiters(r: Running): void {
    this.options.onPosition?.(r.projection.name, r.position);
    if (r.waiters.length === 0) return;
    const due = r.waiters.filter((w) => w.position <= r.position);
    r.waiters = r.waiters.filter((w) => w.position > r.position);
    for (const w of due) w.resolve();
  }

  /**
   * Every `renewMs`: a lease round for each projection whose last round has finished; the
   * projections whose leases were just taken catch up together.
   */
  private tick(lease: Lease): void {
    const taken: Running[] = [];
    void Promise.all([...this.running.values()].map((r) => this.leaseRound(r, lease, taken))).then(
      () => this.catchUpAndSubscribe(taken),
    );
  }

  /**
   * Renews or takes the projection's lease and acts on the answer: a lease just taken makes this
   * node apply it (it joins `taken`, which the caller catches up and subscribes; the round itself
   * never waits for a catch-up, so that a long one never delays renewals); a lease another node
   * holds makes or keeps this node a follower. A failed round is reported and tried again at the
   * next tick; the expiry timer stops the projection if no round succeeds within the ttl.
   */
  private async leaseRound(r: Running, lease: Lease, taken: Running[]): Promise<void> {
    if (r.renewing || this.stopped) return;
    r.renewing = true;
    const asked = Date.now();
    let holds: boolean;
    try {
      holds = await within(
        this.options.store.acquireLease(r.projection.name, lease.holder, lease.ttlMs),
        lease.ttlMs,
        `renewing the lease of projection ${r.projection.name}`,
      );
    } catch (error) {
      this.options.onError?.(error, r.projection.name);
      return;
    } finally {
      r.renewing = false;
    }
    if (this.stopped) {
      if (holds) await this.release(r, lease);
      return;
    }
    if (!holds) {
      this.lose(r, `the lease of projection ${r.projection.name} is held by another node`);
      await this.refreshFollowed(r).catch(() => undefined);
      return;
    }
    // The store dated the lease after `asked`: it cannot expire before this timer fires.
    this.expireAt(r, asked + lease.ttlMs);
    if (!r.held) this.take(r, taken);
  }

  private expireAt(r: Running, time: number): void {
    clearTimeout(r.expiry);
    r.expiry = setTimeout(
      () => this.lose(r, `the lease of projection ${r.projection.name} was not renewed in time`),
      Math.max(0, time - Date.now()),
    );
    r.expiry.unref();
  }

  /** Marks a projection whose lease this node has just taken as applied here. */
  private take(r: Running, taken: Running[]): void {
    r.held = true;
    // Other nodes wrote it meanwhile.
    r.cache.clear();
    clearTimeout(r.poll);
    r.poll = undefined;
    taken.push(r);
  }

  /** Stops applying a projection at once: its lease is lost or may be. Reported through onError. */
  private lose(r: Running, reason: string): void {
    if (!r.held) return;
    r.held = false;
    r.generation++;
    r.cache.clear();
    clearTimeout(r.retry);
    clearTimeout(r.expiry);
    const subscription = r.subscription;
    r.subscription = undefined;
    this.options.onError?.(new Error(`${reason}; following it`), r.projection.name);
    const closing = subscription
      ?.close()
      .catch((error: unknown) => this.options.onError?.(error, r.projection.name))
      .finally(() => {
        if (r.closing === closing) r.closing = undefined;
      });
    r.closing = closing;
    this.pollFollowed(r);
  }

  /**
   * Before a rebuild empties a projection: renews its lease, so that no other node applies it
   * while it is emptied (for a ttl at least). Without a lease there is nothing to check.
   */
  private async confirmLease(r: Running): Promise<void> {
    const lease = this.lease;
    if (!lease) return;
    const asked = Date.now();
    const name = r.projection.name;
    if (await this.options.store.acquireLease(name, lease.holder, lease.ttlMs)) {
      this.expireAt(r, asked + lease.ttlMs);
      return;
    }
    this.lose(r, `the lease of projection ${name} is held by another node`);
    throw new Error(`Projection ${name} runs on another node: rebuild it there`);
  }

  private async release(r: Running, lease: Lease): Promise<void> {
    r.held = false;
    clearTimeout(r.expiry);
    await this.options.store
      .releaseLease(r.projection.name, lease.holder)
      .catch((error: unknown) => this.options.onError?.(error, r.projection.name));
  }

  /**
   * A followed projection's position is its stored checkpoint, or a later one its holder pushed.
   * It never goes back: a rebuild, the one thing that lowers a checkpoint, runs with the nodes
   * stopped (`npm run projections -- rebuild`).
   */
  private async refreshFollowed(r: Running): Promise<void> {
    const checkpoint = await this.options.store.checkpoint(r.projection.name);
    // Taken meanwhile: this node's own batches move its position now.
    if (r.held) return;
    // Never backward: a read that began before the holder's write committed can return less than
    // a checkpoint the holder has pushed since (followedCheckpoint).
    r.position = Math.max(r.position, checkpoint ?? 0);
    this.resolveWaiters(r);
  }

  /** Reads a followed projection's checkpoint every `followPollMs` while someone waits on it. */
  private pollFollowed(r: Running): void {
    const lease = this.lease;
    if (!lease || r.held || this.stopped || r.poll || r.waiters.length === 0) return;
    const poll = setTimeout(() => {
      // A failed read is tried again at the next poll; the waiters' own timeout ends the wait.
      void this.refreshFollowed(r)
        .catch(() => undefined)
        .finally(() => {
          // Unless taking the lease ended this poll (a later loss may have begun another).
          if (r.poll !== poll) return;
          r.poll = undefined;
          this.pollFollowed(r);
        });
    }, lease.followPollMs);
    r.poll = poll;
    poll.unref();
  }
}
