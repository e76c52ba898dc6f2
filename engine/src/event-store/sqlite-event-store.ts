import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import {
  DuplicateEventIdError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from './event-store';
import { CaughtUp } from './caught-up';
import { HandlerCall } from './handler-call';
import type { SnapshotStore, StoredSnapshot } from './snapshot-store';
import {
  type AppendConflict,
  EVENTS_SCHEMA,
  type EncodedAppend,
  type Settled,
  type SnapshotRow,
  SNAPSHOTS_SCHEMA,
  SqliteLogWriter,
  configureLogConnection,
  packGroup,
} from './sqlite-log-writer.mjs';

export { EVENTS_SCHEMA };

export interface SqliteEventStoreOptions {
  /** Database file (created when missing), or `:memory:` for a private in-memory store. */
  readonly filename: string;
  /** How often an idle subscription looks for events appended by other connections; default 200. */
  readonly pollIntervalMs?: number;
  /** How long a write waits for another connection's lock before it fails; default 5000. */
  readonly busyTimeoutMs?: number;
  /**
   * Whether a file's appends are written by a thread of their own (default), so that the fsync
   * and the inserts overlap with deciding the next commands. `:memory:` is always written inline.
   */
  readonly writerThread?: boolean;
}

/** Transactions committed for appends, and the appends they carried (diagnostics). */
export interface GroupCommitStats {
  readonly commits: number;
  readonly appends: number;
}

interface EventRow {
  readonly position: number;
  readonly id: string;
  readonly streamId: string;
  readonly revision: number;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  readonly recordedAt: string;
}

/** An append waiting for the next group commit. */
interface QueuedAppend extends EncodedAppend {
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/** A snapshot waiting to be written with the next group. */
interface QueuedSnapshot extends SnapshotRow {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Writes one group in one transaction: on this thread, or on the writer thread. */
interface GroupWriter {
  write(group: readonly EncodedAppend[], snapshots: readonly SnapshotRow[]): Promise<Settled[]>;
  close(): Promise<void>;
}

const COLUMNS = `position, event_id AS id, stream_id AS streamId, revision, type, data, metadata,
  recorded_at AS recordedAt`;

const DEFAULT_BATCH_SIZE = 500;
/** Events per group on the writer thread (see `scheduleGroup`). */
const MAX_THREAD_GROUP_EVENTS = 500;
const NO_LIMIT = -1;

/**
 * The embedded event store: one SQLite file in WAL mode, with group commit across streams (one
 * transaction and one fsync per group, written on a thread of its own); every caller is answered
 * after the commit, and a conflict fails only its own append. See README.md here.
 */
export class SqliteEventStore implements EventStore, SnapshotStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly subscriptions = new Set<PollingSubscription>();
  private readonly appendedListeners = new Set<(position: number) => void>();
  private readonly tailOfStream: Database.Statement<[string], { revision: number }>;
  private readonly streamRange: Database.Statement<[string, number, number], EventRow>;
  private readonly eventsAfter: Database.Statement<[number, number], EventRow>;
  private readonly eventsOfTypeAfter: Database.Statement<[string, number, number], EventRow>;
  private readonly lastPosition: Database.Statement<[], { position: number | null }>;
  private readonly readTransaction: Database.Transaction<
    (afterPosition: number, limit: number, eventTypes: readonly string[]) => EventRow[]
  >;
  private readonly writer: GroupWriter;
  private queue: QueuedAppend[] = [];
  private snapshotQueue: QueuedSnapshot[] = [];
  private readonly snapshotOf: Database.Statement<[string], StoredSnapshot>;
  private queuedEvents = 0;
  private readonly maxGroupEvents: number;
  private groupScheduled = false;
  private inFlight: Promise<void> | undefined;
  private closed = false;
  private commits = 0;
  private appends = 0;

  static open(options: SqliteEventStoreOptions): SqliteEventStore {
    return new SqliteEventStore(options);
  }

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.db = new Database(options.filename);
    configureLogConnection(this.db, busyTimeoutMs);
    this.db.exec(EVENTS_SCHEMA);
    this.db.exec(SNAPSHOTS_SCHEMA);
    const inMemory = options.filename === ':memory:' || options.filename === '';
    const threaded = !inMemory && options.writerThread !== false;
    this.writer = threaded
      ? new ThreadWriter(options.filename, busyTimeoutMs)
      : inlineWriter(new SqliteLogWriter(this.db));
    // On a thread, groups of a bounded size form a pipeline: the commands answered by one group
    // are decided while the next is written. Inline, nothing overlaps, so a group takes all.
    this.maxGroupEvents = threaded ? MAX_THREAD_GROUP_EVENTS : Number.POSITIVE_INFINITY;

    this.tailOfStream = this.db.prepare(
      'SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
    );
    this.streamRange = this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision BETWEEN ? AND ?
       ORDER BY revision`,
    );
    this.eventsAfter = this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
    );
    this.eventsOfTypeAfter = this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE type = ? AND position > ? ORDER BY position LIMIT ?`,
    );
    this.lastPosition = this.db.prepare('SELECT MAX(position) AS position FROM events');
    this.snapshotOf = this.db.prepare(
      'SELECT revision, version, payload FROM snapshots WHERE stream_id = ?',
    );
    this.readTransaction = this.db.transaction((afterPosition, limit, eventTypes) =>
      this.readOfTypes(afterPosition, limit, eventTypes),
    );
  }

  append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      if (this.closed) throw new Error('The event store is closed');
      const encoded = events.map(({ id, type, data, metadata, dataJson, metadataJson }) => ({
        id,
        type,
        data: dataJson ?? toJson(data),
        metadata: metadataJson ?? toJson(metadata),
      }));
      this.queue.push({ streamId, events: encoded, expected, resolve, reject });
      this.queuedEvents += encoded.length;
      this.scheduleGroup();
    });
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    return attempt(() =>
      this.streamRange
        .all(streamId, options.fromRevision ?? 0, options.toRevision ?? Number.MAX_SAFE_INTEGER)
        .map(toRecordedEvent),
    );
  }

  streamRevision(streamId: string): Promise<number | undefined> {
    return attempt(() => this.tailOfStream.get(streamId)?.revision);
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return attempt(() => this.readAllNow(options));
  }

  subscribe(options: SubscribeOptions): Subscription {
    const { eventTypes } = options;
    const subscription = new PollingSubscription(
      options,
      (afterPosition, maxCount) => this.readAllNow({ afterPosition, maxCount, eventTypes }),
      this.pollIntervalMs,
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  headPosition(): Promise<number | undefined> {
    return attempt(() => this.lastPosition.get()?.position ?? undefined);
  }

  /** Told the highest position of each group this store commits (see the port). */
  onAppended(listener: (position: number) => void): () => void {
    this.appendedListeners.add(listener);
    return () => this.appendedListeners.delete(listener);
  }

  /**
   * Another connection (a node of the cluster) committed up to `position`: every subscription
   * still behind it reads now. The poll stays the safety net for a word that never comes.
   */
  appendedElsewhere(position: number): void {
    for (const subscription of this.subscriptions) {
      if ((subscription.position() ?? 0) < position) subscription.wake();
    }
  }

  /** The actor snapshot kept for `streamId` (see `auction/snapshot.ts`), if any. */
  loadSnapshot(streamId: string): Promise<StoredSnapshot | undefined> {
    return attempt(() => this.snapshotOf.get(streamId));
  }

  /**
   * Keeps an actor's snapshot in the log's file (table `snapshots`, one row per stream), unless a
   * later one of the same version is there. Written with the next group's transaction.
   */
  saveSnapshot(streamId: string, snapshot: StoredSnapshot): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) throw new Error('The event store is closed');
      const { revision, version, payload } = snapshot;
      this.snapshotQueue.push({ streamId, revision, version, payload, resolve, reject });
      this.scheduleGroup();
    });
  }

  groupCommits(): GroupCommitStats {
    return { commits: this.commits, appends: this.appends };
  }

  /** A pragma's current value on this store's connection, e.g. `journal_mode` (diagnostics). */
  pragma(name: string): unknown {
    return this.db.pragma(name, { simple: true });
  }

  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      // Appends already accepted are written (or fail) before the file closes.
      while (this.inFlight || this.queue.length > 0 || this.snapshotQueue.length > 0)
        await (this.inFlight ?? this.commitGroup());
      await this.writer.close();
    }
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.db.open) this.db.close();
  }

  /** One group at a time: what arrives while it is written waits for the next. */
  private scheduleGroup(): void {
    if (this.inFlight || (this.queue.length === 0 && this.snapshotQueue.length === 0)) return;
    // A full group goes at once; otherwise one macrotask of delay lets every actor that flushes
    // in this turn join it.
    if (this.queuedEvents >= this.maxGroupEvents) void this.commitGroup();
    else if (!this.groupScheduled) {
      this.groupScheduled = true;
      setImmediate(() => void this.commitGroup());
    }
  }

  private commitGroup(): Promise<void> {
    this.groupScheduled = false;
    if (this.inFlight) return this.inFlight;
    if (this.queue.length === 0 && this.snapshotQueue.length === 0) return Promise.resolve();
    const group = this.takeGroup();
    const snapshots = this.snapshotQueue;
    this.snapshotQueue = [];
    const written = this.writer.write(group, snapshots.map(snapshotRow)).then(
      (settled) => {
        this.answer(group, settled);
        for (const snapshot of snapshots) snapshot.resolve();
      },
      (error: unknown) => {
        for (const append of group) append.reject(error);
        for (const snapshot of snapshots) snapshot.reject(error);
      },
    );
    this.inFlight = written.finally(() => {
      this.inFlight = undefined;
      // What queued while this group was written had its chance to join: it goes at once, and
      // the callers just answered decide their next commands while it is written.
      if (this.queue.length > 0 || this.snapshotQueue.length > 0) void this.commitGroup();
    });
    return this.inFlight;
  }

  /** The queue's first appends, up to `maxGroupEvents` events (at least one append). */
  private takeGroup(): QueuedAppend[] {
    let events = 0;
    let count = 0;
    for (const append of this.queue) {
      if (count > 0 && events + append.events.length > this.maxGroupEvents) break;
      events += append.events.length;
      count += 1;
    }
    const group = count === this.queue.length ? this.queue : this.queue.slice(0, count);
    this.queue = count === this.queue.length ? [] : this.queue.slice(count);
    this.queuedEvents -= events;
    return group;
  }

  private answer(group: readonly QueuedAppend[], settled: readonly Settled[]): void {
    if (group.length === 0) return;
    this.commits += 1;
    this.appends += group.length;
    let highest: number | undefined;
    group.forEach((append, index) => {
      const outcome = settled[index];
      if (!outcome || !outcome.ok || append.events.length === 0) return;
      highest = Math.max(highest ?? 0, outcome.result.position);
    });
    // Told before the callers are answered: a cluster's word of the position leaves first.
    if (highest !== undefined) this.appended(highest);
    group.forEach((append, index) => {
      const outcome = settled[index];
      if (!outcome) return append.reject(new Error('The event log writer lost an append'));
      if (!outcome.ok) return append.reject(conflictError(outcome.conflict));
      append.resolve(outcome.result);
    });
    if (highest !== undefined) for (const subscription of this.subscriptions) subscription.wake();
  }

  private appended(position: number): void {
    for (const listener of this.appendedListeners) {
      try {
        listener(position);
      } catch {
        // A listener's failure is its own: the commit and its answers go on.
      }
    }
  }

  private readAllNow(options: ReadAllOptions): RecordedEvent[] {
    const afterPosition = options.afterPosition ?? 0;
    const limit = options.maxCount ?? NO_LIMIT;
    const { eventTypes } = options;
    if (limit === 0) return [];
    const rows =
      eventTypes === undefined
        ? this.eventsAfter.all(afterPosition, limit)
        : eventTypes.length > 1
          ? this.readTransaction(afterPosition, limit, eventTypes)
          : this.readOfTypes(afterPosition, limit, eventTypes);
    return rows.map(toRecordedEvent);
  }

  private readOfTypes(
    afterPosition: number,
    limit: number,
    eventTypes: readonly string[],
  ): EventRow[] {
    const [onlyType, ...otherTypes] = eventTypes;
    if (onlyType === undefined) return [];
    if (otherTypes.length === 0) return this.eventsOfTypeAfter.all(onlyType, afterPosition, limit);
    const rows = [...new Set(eventTypes)]
      .flatMap((type) => this.eventsOfTypeAfter.all(type, afterPosition, limit))
      .sort((a, b) => a.position - b.position);
    return limit === NO_LIMIT ? rows : rows.slice(0, limit);
  }
}

const snapshotRow = ({ streamId, revision, version, payload }: SnapshotRow): SnapshotRow => ({
  streamId,
  revision,
  version,
  payload,
});

const inlineWriter = (writer: SqliteLogWriter): GroupWriter => ({
  write: (group, snapshots) => attempt(() => writer.write(group, snapshots)),
  close: () => Promise.resolve(),
});

type WriterReply =
  | { readonly settled: Settled[] }
  | { readonly failed: { readonly message: string; readonly code?: string } }
  | { readonly closed: true };

/**
 * The writer thread (`sqlite-log-writer.worker.mjs`), started with the first append. It holds the
 * process open only while a group is being written. If it dies, the group in flight fails (its
 * appends may or may not have committed, as after any lost reply) and the next append starts a new
 * one.
 */
class ThreadWriter implements GroupWriter {
  private worker: Worker | undefined;
  private pending:
    { resolve: (reply: WriterReply) => void; reject: (error: unknown) => void } | undefined;

  constructor(
    private readonly filename: string,
    private readonly busyTimeoutMs: number,
  ) {}

  async write(
    group: readonly EncodedAppend[],
    snapshots: readonly SnapshotRow[],
  ): Promise<Settled[]> {
    const reply = await this.request({ group: packGroup(group), snapshots });
    if ('settled' in reply) return reply.settled;
    if ('failed' in reply) throw writerError(reply.failed);
    throw new Error('The event log writer stopped');
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await this.request({ close: true });
    this.worker = undefined;
    await worker.terminate();
  }

  private request(message: unknown): Promise<WriterReply> {
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      worker.ref();
      worker.postMessage(message);
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sqlite-log-writer.worker.mjs', import.meta.url), {
      workerData: { filename: this.filename, busyTimeoutMs: this.busyTimeoutMs },
    });
    worker.unref();
    worker.on('message', (reply: WriterReply) => {
      worker.unref();
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve(reply);
    });
    const stopped = (error: unknown) => {
      if (this.worker === worker) this.worker = undefined;
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(error);
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`The event log writer exited (${code})`)));
    return worker;
  }
}

const conflictError = (conflict: AppendConflict): Error =>
  conflict.kind === 'wrong-revision'
    ? new WrongExpectedRevisionError(conflict.streamId, conflict.expected, conflict.actual)
    : new DuplicateEventIdError(conflict.eventId);

const writerError = (failed: { message: string; code?: string }): Error =>
  Object.assign(new Error(failed.message), failed.code ? { code: failed.code } : {});

/**
 * Catch-up subscription over pages read after the last delivered position: woken by appends made
 * through the same store, and by a timer for appends made through other connections.
 */
class PollingSubscription implements Subscription {
  private readonly latch = new CaughtUp();
  readonly caughtUp = this.latch.promise;
  private lastPosition: number | undefined;
  private closed = false;
  private woken = false;
  private stopWaiting: (() => void) | undefined;
  private readonly done: Promise<void>;
  private readonly handler = new HandlerCall();

  constructor(
    private readonly options: SubscribeOptions,
    private readonly read: (afterPosition: number, maxCount: number) => RecordedEvent[],
    private readonly pollIntervalMs: number,
    private readonly onStop: () => void,
  ) {
    this.lastPosition = options.afterPosition;
    this.done = this.run();
  }

  position(): number | undefined {
    return this.lastPosition;
  }

  wake(): void {
    this.woken = true;
    this.stopWaiting?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopWaiting?.();
    if (this.handler.inHandler) return;
    await this.done;
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH_SIZE;
    try {
      await Promise.resolve();
      while (!this.closed) {
        this.woken = false;
        const batch = this.read(this.lastPosition ?? 0, batchSize);
        const last = batch[batch.length - 1];
        if (last === undefined) {
          this.latch.resolve();
          await this.idle();
          continue;
        }
        await this.handler.run(() => this.options.onEvents(batch));
        this.lastPosition = last.position;
      }
    } catch (error) {
      this.closed = true;
      this.latch.reject(error);
      this.options.onError?.(error);
    } finally {
      this.latch.stopped();
      this.onStop();
    }
  }

  private idle(): Promise<void> {
    if (this.woken || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.stopWaiting?.(), this.pollIntervalMs);
      timer.unref();
      this.stopWaiting = () => {
        clearTimeout(timer);
        this.stopWaiting = undefined;
        resolve();
      };
    });
  }
}

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamId: row.streamId,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as unknown,
    recordedAt: row.recordedAt,
  };
}

function attempt<T>(operation: () => T): Promise<T> {
  return new Promise((resolve) => resolve(operation()));
}
