import { AsyncLocalStorage } from 'node:async_hooks';
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

export interface SqliteEventStoreOptions {
  /** Database file (created when missing), or `:memory:` for a private in-memory store. */
  readonly filename: string;
  /** How often an idle subscription looks for events appended by other connections; default 200. */
  readonly pollIntervalMs?: number;
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

interface StoredEventRow {
  readonly streamId: string;
  readonly revision: number;
}

interface StreamTail {
  readonly revision: number;
  readonly position: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    UNIQUE (stream_id, revision)
  );
  CREATE INDEX IF NOT EXISTS events_type_position ON events (type, position);
`;

const COLUMNS = `position, event_id AS id, stream_id AS streamId, revision, type, data, metadata,
  recorded_at AS recordedAt`;

const DEFAULT_BATCH_SIZE = 500;
const NO_LIMIT = -1;

/** The embedded event store: one SQLite file in WAL mode, fsynced on every commit. */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly subscriptions = new Set<PollingSubscription>();
  private readonly tailOfStream: Database.Statement<[string], StreamTail>;
  private readonly insertEvent: Database.Statement<
    [string, string, number, string, string, string, string]
  >;
  private readonly findEvent: Database.Statement<[string], StoredEventRow>;
  private readonly streamRange: Database.Statement<[string, number, number], EventRow>;
  private readonly idsInRange: Database.Statement<
    [string, number, number],
    { id: string; position: number }
  >;
  private readonly eventsAfter: Database.Statement<[number, number], EventRow>;
  private readonly eventsOfTypeAfter: Database.Statement<[string, number, number], EventRow>;
  private readonly lastPosition: Database.Statement<[], { position: number | null }>;
  private readonly appendTransaction: Database.Transaction<
    (streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) => AppendResult
  >;
  private readonly readTransaction: Database.Transaction<
    (afterPosition: number, limit: number, eventTypes: readonly string[]) => EventRow[]
  >;

  static open(options: SqliteEventStoreOptions): SqliteEventStore {
    return new SqliteEventStore(options);
  }

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.db = new Database(options.filename);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    // A hot auction appends in large batches: a bigger page cache keeps the event-id index warm,
    // and rarer checkpoints mean fewer fsyncs of the main file (each commit still fsyncs the WAL).
    this.db.pragma('cache_size = -65536');
    this.db.pragma('wal_autocheckpoint = 10000');
    this.db.exec(SCHEMA);

    this.tailOfStream = this.db.prepare(
      'SELECT revision, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
    );
    this.insertEvent = this.db.prepare(
      `INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.findEvent = this.db.prepare(
      'SELECT stream_id AS streamId, revision FROM events WHERE event_id = ?',
    );
    this.streamRange = this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND revision BETWEEN ? AND ?
       ORDER BY revision`,
    );
    this.idsInRange = this.db.prepare(
      `SELECT event_id AS id, position FROM events WHERE stream_id = ? AND revision BETWEEN ? AND ?
       ORDER BY revision`,
    );
    this.eventsAfter = this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
    );
    this.eventsOfTypeAfter = this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE type = ? AND position > ? ORDER BY position LIMIT ?`,
    );
    this.lastPosition = this.db.prepare('SELECT MAX(position) AS position FROM events');

    this.appendTransaction = this.db.transaction((streamId, events, expected) =>
      this.appendInTransaction(streamId, events, expected),
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
    return attempt(() => this.appendNow(streamId, events, expected));
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

  /** A pragma's current value on this store's connection, e.g. `journal_mode` (diagnostics). */
  pragma(name: string): unknown {
    return this.db.pragma(name, { simple: true });
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    if (this.db.open) this.db.close();
  }

  private appendNow(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): AppendResult {
    let result: AppendResult;
    try {
      result = this.appendTransaction.immediate(streamId, events, expected);
    } catch (error) {
      if (!isEventIdConflict(error)) throw error;
      const stored = this.storedAppend(streamId, events);
      if (stored !== undefined) return stored;
      throw new DuplicateEventIdError(this.conflictingId(events));
    }
    if (events.length > 0) for (const subscription of this.subscriptions) subscription.wake();
    return result;
  }

  private appendInTransaction(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): AppendResult {
    const tail = this.tailOfStream.get(streamId);
    if (!isExpected(expected, tail)) {
      const stored = this.storedAppend(streamId, events);
      if (stored !== undefined) return stored;
      throw new WrongExpectedRevisionError(streamId, expected, tail?.revision ?? 'no_stream');
    }
    let revision = tail?.revision ?? -1;
    let position = tail?.position ?? -1;
    const recordedAt = new Date().toISOString();
    for (const event of events) {
      revision += 1;
      position = Number(
        this.insertEvent.run(
          event.id,
          streamId,
          revision,
          event.type,
          toJson(event.data),
          toJson(event.metadata),
          recordedAt,
        ).lastInsertRowid,
      );
    }
    return { nextRevision: revision, position };
  }

  private conflictingId(events: readonly NewEvent[]): string {
    const seen = new Set<string>();
    for (const { id } of events) {
      if (seen.has(id) || this.findEvent.get(id)) return id;
      seen.add(id);
    }
    return events[0]?.id ?? '';
  }

  /** The result of an earlier append of exactly these events, if it happened. */
  private storedAppend(streamId: string, events: readonly NewEvent[]): AppendResult | undefined {
    const first = events[0];
    const stored = first && this.findEvent.get(first.id);
    if (!first || !stored) return undefined;
    if (stored.streamId !== streamId) throw new DuplicateEventIdError(first.id);
    const lastRevision = stored.revision + events.length - 1;
    const rows = this.idsInRange.all(streamId, stored.revision, lastRevision);
    events.forEach((event, index) => {
      if (rows[index]?.id !== event.id) throw new DuplicateEventIdError(event.id);
    });
    return { nextRevision: lastRevision, position: rows[rows.length - 1]?.position ?? -1 };
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

const delivering = new AsyncLocalStorage<PollingSubscription>();

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
    if (delivering.getStore() === this) return;
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
        await delivering.run(this, () => this.options.onEvents(batch));
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

function isExpected(expected: ExpectedRevision, tail: StreamTail | undefined): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return tail === undefined;
  return tail?.revision === expected;
}

function isEventIdConflict(error: unknown): boolean {
  return (
    error instanceof Database.SqliteError &&
    error.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error.message.includes('events.event_id')
  );
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
