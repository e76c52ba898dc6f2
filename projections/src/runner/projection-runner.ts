import type { CollectionSpec, ReadStore, Write } from '../read-store/read-store';
import type { ProjectedEvent, Projection } from './projection';
import { BatchUnitOfWork } from './unit-of-work';

/** The part of the event store the projections read (the engine's store fits it). */
export interface EventSource {
  subscribe(options: {
    readonly afterPosition?: number;
    readonly batchSize?: number;
    readonly onEvents: (events: readonly ProjectedEvent[]) => void | Promise<void>;
    readonly onError?: (error: unknown) => void;
  }): { readonly caughtUp: Promise<void>; close(): Promise<void> };
  headPosition(): Promise<number | undefined>;
}

export interface ProjectionStatus {
  readonly name: string;
  /** Last global position applied (0 before any). */
  readonly position: number;
  /** Events in the log after it. */
  readonly behind: number;
  /** Milliseconds since its last batch committed, if any. */
  readonly sinceLastBatchMs: number | undefined;
  readonly error: string | undefined;
}

export interface RunnerOptions {
  readonly source: EventSource;
  readonly store: ReadStore;
  readonly projections: readonly Projection[];
  readonly batchSize?: number;
  /** Wait before resubscribing after a failed batch. */
  readonly retryMs?: number;
  readonly onError?: (error: unknown, projection: string) => void;
  /** Told of every batch a projection committed, with its writes (for pushing new documents out). */
  readonly onCommitted?: (projection: string, writes: readonly Write[]) => void;
}

interface Running {
  readonly projection: Projection;
  position: number;
  lastBatchAt: number | undefined;
  error: string | undefined;
  subscription: { readonly caughtUp: Promise<void>; close(): Promise<void> } | undefined;
  retry: NodeJS.Timeout | undefined;
  waiters: { position: number; resolve: () => void }[];
}

/** Applies a batch to one projection and commits it with the batch's last position. */
export const applyBatch = async (
  store: ReadStore,
  specs: ReadonlyMap<string, CollectionSpec>,
  projection: Projection,
  events: readonly ProjectedEvent[],
): Promise<readonly Write[]> => {
  const last = events[events.length - 1];
  if (!last) return [];
  const uow = new BatchUnitOfWork(store, specs);
  for (const event of events) {
    uow.begin(event.position);
    await projection.handle(event, uow);
  }
  const writes = uow.writes();
  await store.commit(projection.name, writes, last.position);
  return writes;
};

/**
 * Keeps every projection up to date: one catch-up subscription each, from its checkpoint; each
 * delivered batch is applied through a unit of work and committed with the new checkpoint.
 */
export class ProjectionRunner {
  private readonly running = new Map<string, Running>();
  private readonly specs = new Map<string, CollectionSpec>();
  private stopped = false;

  constructor(private readonly options: RunnerOptions) {
    for (const projection of options.projections) {
      for (const spec of projection.collections) this.specs.set(spec.name, spec);
      this.running.set(projection.name, {
        projection,
        position: 0,
        lastBatchAt: undefined,
        error: undefined,
        subscription: undefined,
        retry: undefined,
        waiters: [],
      });
    }
  }

  /** Subscribes every projection from its checkpoint; resolves once all have caught up. */
  async start(): Promise<void> {
    await this.options.store.ensureCollections([...this.specs.values()]);
    await Promise.all([...this.running.values()].map((r) => this.subscribe(r)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const r of this.running.values()) {
      clearTimeout(r.retry);
      await r.subscription?.close();
      r.subscription = undefined;
    }
  }

  /** Empties a projection and builds it again from position 0; resolves when it has caught up. */
  async rebuild(name: string): Promise<void> {
    const r = this.running.get(name);
    if (!r)
      throw new Error(`Unknown projection ${name}; known: ${[...this.running.keys()].join(', ')}`);
    clearTimeout(r.retry);
    await r.subscription?.close();
    r.subscription = undefined;
    await this.options.store.reset(
      name,
      r.projection.collections.map((c) => c.name),
    );
    r.position = 0;
    await this.subscribe(r);
  }

  async status(): Promise<ProjectionStatus[]> {
    const head = (await this.options.source.headPosition()) ?? 0;
    const now = Date.now();
    return [...this.running.values()].map((r) => ({
      name: r.projection.name,
      position: r.position,
      behind: Math.max(0, head - r.position),
      sinceLastBatchMs: r.lastBatchAt === undefined ? undefined : now - r.lastBatchAt,
      error: r.error,
    }));
  }

  /**
   * Read-your-writes: resolves once the named projections (all by default) have applied every
   * event up to `position`; rejects after `timeoutMs`.
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
      const timer = setTimeout(
        () =>
          reject(
            new Error(`Projections did not reach position ${position} within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
      timer.unref();
      for (const r of pending) {
        r.waiters.push({
          position,
          resolve: () => {
            if (--left === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        });
      }
    });
  }

  private async subscribe(r: Running): Promise<void> {
    if (this.stopped) return;
    const checkpoint = await this.options.store.checkpoint(r.projection.name);
    r.position = checkpoint ?? 0;
    const subscription = this.options.source.subscribe({
      ...(checkpoint === undefined ? {} : { afterPosition: checkpoint }),
      batchSize: this.options.batchSize ?? 500,
      onEvents: (events) => this.apply(r, events),
      onError: (error) => this.failed(r, error),
    });
    r.subscription = subscription;
    await subscription.caughtUp.catch(() => undefined);
  }

  private async apply(r: Running, events: readonly ProjectedEvent[]): Promise<void> {
    const last = events[events.length - 1];
    if (!last) return;
    const writes = await applyBatch(this.options.store, this.specs, r.projection, events);
    r.position = last.position;
    this.options.onCommitted?.(r.projection.name, writes);
    r.lastBatchAt = Date.now();
    r.error = undefined;
    if (r.waiters.length > 0) {
      const due = r.waiters.filter((w) => w.position <= r.position);
      r.waiters = r.waiters.filter((w) => w.position > r.position);
      for (const w of due) w.resolve();
    }
  }

  private failed(r: Running, error: unknown): void {
    r.error = error instanceof Error ? error.message : String(error);
    r.subscription = undefined;
    this.options.onError?.(error, r.projection.name);
    if (this.stopped) return;
    r.retry = setTimeout(() => void this.subscribe(r), this.options.retryMs ?? 1000);
    r.retry.unref();
  }
}
