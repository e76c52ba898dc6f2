import type { RecordedEvent } from '@auction/contracts';

export type { RecordedEvent };

/**
 * The event store port. Every adapter (SQLite embedded, EventStoreDB distributed) passes the shared
 * contract suite in `contract.ts`.
 */

/** Revision of a stream's last event (0-based), or what the writer expects of the stream. */
export type ExpectedRevision = number | 'no_stream' | 'any';

/**
 * An event to append. Its `id` makes a retry idempotent: the same ids appended again at the same
 * place with an exact expected revision or `no_stream` are a no-op.
 */
export interface NewEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
  /**
   * `JSON.stringify(data)` and `JSON.stringify(metadata)`, when the caller has written them
   * already (the sealer does, for the hash chain): an adapter that stores JSON text may store
   * these instead of writing them again. When given, they must be exactly those texts.
   */
  readonly dataJson?: string;
  readonly metadataJson?: string;
}

export interface AppendResult {
  /** Revision of the stream's last event after the append. */
  readonly nextRevision: number;
  /** Global position of the last appended event. */
  readonly position: number;
}

export interface ReadStreamOptions {
  /** Inclusive; default 0. */
  readonly fromRevision?: number;
  /** Inclusive; default: the end. */
  readonly toRevision?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Default: from the beginning. */
  readonly afterPosition?: number;
  readonly maxCount?: number;
  /** Only events of these types (the store filters, so a reader of rare events stays cheap). */
  readonly eventTypes?: readonly string[];
}

export interface SubscribeOptions {
  /** Exclusive: deliver events strictly after this position. Default: from the beginning. */
  readonly afterPosition?: number;
  readonly eventTypes?: readonly string[];
  /** Upper bound of a delivered batch. */
  readonly batchSize?: number;
  /**
   * Called with each batch in global order. The next batch is not delivered before the returned
   * promise settles; a rejection stops the subscription and is reported to `onError`.
   */
  readonly onEvents: (events: readonly RecordedEvent[]) => void | Promise<void>;
  readonly onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Resolves once every event appended before this call has been delivered (history caught up). */
  readonly caughtUp: Promise<void>;
  /** Position of the last delivered event (or the start position). */
  position(): number | undefined;
  /**
   * Stops delivering; resolves once the delivery in flight, if any, has returned. Called by the
   * handler itself before its first await, it resolves at once; after an await the handler must
   * not wait for it (it would wait for itself). No async context tells those apart:
   * `AsyncLocalStorage` would put a hook on every promise of the process.
   */
  close(): Promise<void>;
}

export interface EventStore {
  /**
   * Appends atomically: all events or none. Throws `WrongExpectedRevisionError` when the stream's
   * revision is not `expected`. Retrying with an exact revision or `no_stream` events whose ids are
   * already stored at that place in the stream succeeds without writing (idempotent retry). With
   * `any` a retry may write the events again: EventStoreDB only tries to detect it.
   */
  append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult>;
  /** Events of one stream in revision order; an absent stream reads as empty. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Revision of the stream's last event, or `undefined` when the stream does not exist. */
  streamRevision(streamId: string): Promise<number | undefined>;
  /** Events of all streams in global order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Catch-up subscription: history from `afterPosition`, then live, with no gap and no duplicate. */
  subscribe(options: SubscribeOptions): Subscription;
  /** Position of the last event in the log, or `undefined` when the log is empty. */
  headPosition(): Promise<number | undefined>;
  /**
   * Optional: tells `listener` the highest global position of every commit made through this
   * store (not through other connections), right after the commit and before its appends are
   * answered. A cluster publishes it to the other nodes (`cluster/position-feed.ts`). Returns the
   * unsubscribe.
   */
  onAppended?(listener: (position: number) => void): () => void;
  /**
   * Optional, for adapters whose subscriptions poll for other connections' appends: another
   * process committed up to `position`, so the subscriptions behind it read at once instead of at
   * their next poll. Adapters whose server pushes to subscriptions (EventStoreDB) need not have it.
   */
  appendedElsewhere?(position: number): void;
  close(): Promise<void>;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(
      `Wrong expected revision for ${streamId}: expected ${String(expected)}, actual ${String(actual)}`,
    );
    this.name = 'WrongExpectedRevisionError';
  }
}

/** The ids of an append partly match events already stored: a caller bug, never retried. */
export class DuplicateEventIdError extends Error {
  constructor(readonly eventId: string) {
    super(`Event id ${eventId} is already stored elsewhere`);
    this.name = 'DuplicateEventIdError';
  }
}
