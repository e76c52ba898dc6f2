import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import type {
  AllStreamRecordedEvent,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  ExpectedRevision as EsdbExpectedRevision,
  Filter,
  JSONType,
  Position,
  ReadPosition,
  RecordedEvent as EsdbRecordedEvent,
} from '@eventstore/db-client';
import {
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

export interface EventStoreDbEventStoreOptions {
  /** E.g. `esdb://localhost:2113?tls=false`. */
  readonly connectionString: string;
  /** How long `connect` and `ping` wait for each answer; default 5000. */
  readonly timeoutMs?: number;
}

/** The oldest server this adapter runs on: the first to tell a subscription it has caught up. */
export const MINIMUM_SERVER_VERSION = '23.10';

const DEFAULT_TIMEOUT_MS = 5000;
const READ_BUFFER = 500;
const HEAD_PAGE_SIZE = 32;
const DEFAULT_BATCH_SIZE = 500;

/**
 * The distributed event store on EventStoreDB 23.10 or later. System events (`$` types or `$`
 * streams) are not visible through this port. Reads of the log and subscriptions are filtered on
 * the server, by event type when they name types.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly where: string;
  private readonly timeoutMs: number;
  private readonly subscriptions = new Set<EsdbSubscription>();

  /**
   * Connects and checks, within `timeoutMs` for each answer, that the server is reachable, serves
   * reads of the log and is at least {@link MINIMUM_SERVER_VERSION}. Errors name the connection
   * string without its credentials.
   */
  static async connect(options: EventStoreDbEventStoreOptions): Promise<EventStoreDbEventStore> {
    const store = new EventStoreDbEventStore(options);
    try {
      requireSupportedServer(await store.answer(ServerVersion.of(store.client)), store.where);
      await store.ping();
      return store;
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  private constructor(options: EventStoreDbEventStoreOptions) {
    this.where = withoutCredentials(options.connectionString);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      this.client = EventStoreDBClient.connectionString(options.connectionString);
    } catch {
      // The client's message repeats the whole connection string, password included.
      throw new Error(`Invalid EventStoreDB connection string: ${this.where}`);
    }
  }

  /** Resolves once the server has answered a read of the log's end within `timeoutMs`. */
  async ping(): Promise<void> {
    const read = this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 });
    const answered = new Promise<void>((resolve, reject) => {
      read.on('error', reject).on('end', resolve).resume();
    });
    await this.answer(answered, () => void read.cancel());
  }

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    if (events.length === 0) return this.check(streamId, expected);
    try {
      const result = await this.client.appendToStream(
        streamId,
        events.map(({ id, type, data, metadata }) =>
          jsonEvent({ id, type, data: data as JSONType, metadata }),
        ),
        { expectedRevision: toEsdbExpected(expected) },
      );
      const nextRevision = toSafeNumber(result.nextExpectedRevision, 'revision');
      const commit = result.position?.commit;
      const position =
        commit !== undefined && commit >= 0n
          ? toSafeNumber(commit, 'position')
          : await this.positionAt(streamId, nextRevision);
      return { nextRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(
          streamId,
          expected,
          typeof actual === 'bigint' ? toSafeNumber(actual, 'revision') : 'no_stream',
        );
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const fromRevision = options.fromRevision ?? 0;
    const toRevision = options.toRevision ?? Number.MAX_SAFE_INTEGER;
    if (toRevision < fromRevision) return [];
    return this.readStreamEvents(streamId, {
      fromRevision: BigInt(fromRevision),
      maxCount: toRevision - fromRevision + 1,
      direction: FORWARDS,
    });
  }

  async streamRevision(streamId: string): Promise<number | undefined> {
    return (await this.lastOfStream(streamId))?.revision;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Infinity;
    const { afterPosition, eventTypes } = options;
    const end = await this.endOfLog();
    if (limit <= 0 || end === undefined || (afterPosition ?? -1) >= end) return [];
    const reader = new FilteredLog(this.client, { afterPosition, eventTypes, end }, READ_BUFFER);
    try {
      const found: RecordedEvent[] = [];
      for (;;) {
        for (const event of reader.take(limit - found.length)) found.push(event);
        if (found.length >= limit || reader.caughtUp) return found;
        await reader.wait();
      }
    } finally {
      await reader.close();
    }
  }

  subscribe(options: SubscribeOptions): Subscription {
    const subscription = new EsdbSubscription(
      this.client,
      () => this.endOfLog(),
      options,
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number | undefined> {
    let before: ReadPosition = END;
    for (;;) {
      const page = await this.readAllBackwards(before, HEAD_PAGE_SIZE);
      const head = page.find(isUserEvent);
      if (head !== undefined) return positionOf(head.position);
      const last = page[page.length - 1];
      if (last === undefined || page.length < HEAD_PAGE_SIZE) return undefined;
      before = last.position;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
  }

  /** `work`'s result, or a clear error when it fails or does not settle within `timeoutMs`. */
  private async answer<T>(work: Promise<T>, abandon?: () => void): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandon?.();
        reject(
          new Error(`EventStoreDB at ${this.where} did not answer within ${this.timeoutMs} ms`),
        );
      }, this.timeoutMs);
    });
    const failure = work.catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`EventStoreDB at ${this.where} failed: ${reason}`, { cause: error });
    });
    try {
      return await Promise.race([failure, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async check(streamId: string, expected: ExpectedRevision): Promise<AppendResult> {
    const last = await this.lastOfStream(streamId);
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' ? last === undefined : last?.revision === expected);
    if (!matches) {
      throw new WrongExpectedRevisionError(streamId, expected, last?.revision ?? 'no_stream');
    }
    return { nextRevision: last?.revision ?? -1, position: last?.position ?? -1 };
  }

  private async positionAt(streamId: string, revision: number): Promise<number> {
    const [event] = await this.readStreamEvents(streamId, {
      fromRevision: BigInt(revision),
      maxCount: 1,
      direction: FORWARDS,
    });
    if (event === undefined) throw new Error(`${streamId}@${revision} is missing after an append`);
    return event.position;
  }

  private async lastOfStream(streamId: string): Promise<RecordedEvent | undefined> {
    const [last] = await this.readStreamEvents(streamId, {
      fromRevision: END,
      maxCount: 1,
      direction: BACKWARDS,
    });
    return last;
  }

  private async readStreamEvents(
    streamId: string,
    options: {
      fromRevision: bigint | typeof END;
      maxCount: number;
      direction: typeof FORWARDS | typeof BACKWARDS;
    },
  ): Promise<RecordedEvent[]> {
    const events: EsdbRecordedEvent[] = [];
    try {
      for await (const { event } of this.client.readStream(streamId, options)) {
        if (event !== undefined) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events.map((event) => {
      if (event.position === undefined) {
        throw new Error(`EventStoreDB read ${streamId} without positions`);
      }
      return toRecordedEvent(event, positionOf(event.position));
    });
  }

  /** Position of the log's last record, system ones included. */
  private async endOfLog(): Promise<number | undefined> {
    const [last] = await this.readAllBackwards(END, 1);
    return last === undefined ? undefined : positionOf(last.position);
  }

  /** Reads to the end, as every read here does: `dispose` waits forever for a read left early. */
  private async readAllBackwards(
    before: ReadPosition,
    maxCount: number,
  ): Promise<AllStreamRecordedEvent[]> {
    const events: AllStreamRecordedEvent[] = [];
    for await (const { event } of this.client.readAll({
      fromPosition: before,
      direction: BACKWARDS,
      maxCount,
    })) {
      if (event !== undefined) events.push(event);
    }
    return events;
  }
}

/** The client keeps the server-features call it makes to learn the server's version protected. */
class ServerVersion extends EventStoreDBClient {
  static async of(client: ServerVersion): Promise<string> {
    return (await client.capabilities).serverVersion;
  }
}

/**
 * A `subscribeToAll` filtered on the server, read in order. `caughtUp` turns true once every event
 * up to `end` (the log's end before it started) has been taken: at an event at or after `end`, or
 * once the events that came before the server's caught-up message have been taken.
 */
class FilteredLog {
  private readonly stream: AllStreamSubscription;
  private readonly end: number | undefined;
  private after: number;
  private passedEnd: boolean;
  private bufferedBeforeCaughtUp: number | undefined;
  private problem: Error | undefined;
  private closed = false;
  private wake: (() => void) | undefined;

  constructor(
    client: EventStoreDBClient,
    from: {
      readonly afterPosition: number | undefined;
      readonly eventTypes: readonly string[] | undefined;
      readonly end: number | undefined;
    },
    highWaterMark: number,
  ) {
    this.after = from.afterPosition ?? -1;
    this.end = from.end;
    this.passedEnd = from.end === undefined || this.after >= from.end;
    this.stream = client.subscribeToAll(
      { fromPosition: toReadPosition(from.afterPosition), filter: serverFilter(from.eventTypes) },
      { highWaterMark },
    );
    this.stream.on('readable', () => this.notify());
    this.stream.on('caughtUp', () => {
      this.bufferedBeforeCaughtUp ??= this.stream.readableLength;
      this.notify();
    });
    this.stream.on('error', (error) => this.fail(error));
    this.stream.on('end', () => this.fail(new Error('The EventStoreDB subscription ended')));
  }

  get caughtUp(): boolean {
    return this.passedEnd || this.bufferedBeforeCaughtUp === 0;
  }

  /** Up to `max` of the user events that have arrived, in order. */
  take(max: number): RecordedEvent[] {
    const events: RecordedEvent[] = [];
    while (events.length < max) {
      const resolved = this.stream.read() as AllStreamResolvedEvent | null;
      if (resolved === null) break;
      if (this.bufferedBeforeCaughtUp !== undefined && this.bufferedBeforeCaughtUp > 0) {
        this.bufferedBeforeCaughtUp -= 1;
      }
      const { event } = resolved;
      if (event === undefined) continue;
      const position = positionOf(event.position);
      if (this.end !== undefined && position >= this.end) this.passedEnd = true;
      if (position <= this.after || !isUserEvent(event)) continue;
      this.after = position;
      events.push(toRecordedEvent(event, position));
    }
    return events;
  }

  /** Resolves when more may be taken, `caughtUp` may have changed or it was closed. */
  async wait(): Promise<void> {
    if (this.problem === undefined && !this.closed && this.stream.readableLength === 0) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    if (this.problem !== undefined) throw this.problem;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.notify();
    // Fails only when the subscription never started, which 'error' has reported already.
    await this.stream.unsubscribe().catch(() => undefined);
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.problem ??= error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

/** Delivers a {@link FilteredLog} in batches of what has arrived. */
class EsdbSubscription implements Subscription {
  private readonly latch = new CaughtUp();
  readonly caughtUp = this.latch.promise;
  private lastPosition: number | undefined;
  private closed = false;
  private log: FilteredLog | undefined;
  private readonly done: Promise<void>;
  private readonly handler = new HandlerCall();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly endOfLog: () => Promise<number | undefined>,
    private readonly options: SubscribeOptions,
    private readonly onStop: () => void,
  ) {
    this.lastPosition = options.afterPosition;
    this.done = this.run();
  }

  position(): number | undefined {
    return this.lastPosition;
  }

  async close(): Promise<void> {
    this.closed = true;
    const inHandler = this.handler.inHandler;
    await this.log?.close();
    if (inHandler) return;
    await this.done;
  }

  private async run(): Promise<void> {
    const { afterPosition, eventTypes, batchSize = DEFAULT_BATCH_SIZE } = this.options;
    try {
      const end = await this.endOfLog();
      if (this.closed) return;
      const log = new FilteredLog(this.client, { afterPosition, eventTypes, end }, batchSize);
      this.log = log;
      while (!this.closed) {
        const batch = log.take(batchSize);
        const last = batch[batch.length - 1];
        if (last !== undefined) {
          await this.handler.run(() => this.options.onEvents(batch));
          this.lastPosition = last.position;
        }
        if (log.caughtUp) this.latch.resolve();
        if (last === undefined) await log.wait();
      }
    } catch (error) {
      if (!this.closed) {
        this.closed = true;
        this.latch.reject(error);
        this.options.onError?.(error);
      }
    } finally {
      this.latch.stopped();
      await this.log?.close();
      this.onStop();
    }
  }
}

/**
 * A position or revision from EventStoreDB as a number. Throws beyond `Number.MAX_SAFE_INTEGER`,
 * where a number can no longer tell neighbouring positions apart.
 */
export function toSafeNumber(value: bigint, what: 'position' | 'revision'): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(
      `EventStoreDB ${what} ${value} is beyond Number.MAX_SAFE_INTEGER (2^53 - 1): this adapter cannot represent it`,
    );
  }
  return Number(value);
}

/** The connection string without the `user:password@` the client would take from it. */
export function withoutCredentials(connectionString: string): string {
  return connectionString.trim().replace(/^([^:]+:\/\/)[^:]+:[^@]+@/, '$1');
}

/**
 * Throws unless `version`, as the client reports it (`24.10.0`, or `unknown` when the server does
 * not say), is {@link MINIMUM_SERVER_VERSION} or later.
 */
export function requireSupportedServer(version: string, where: string): void {
  const [major = NaN, minor = NaN] = version.split('.').map(Number);
  const [minMajor = 0, minMinor = 0] = MINIMUM_SERVER_VERSION.split('.').map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return;
  const found =
    version === 'unknown'
      ? 'does not report its version (EventStoreDB before 21.10, or not EventStoreDB)'
      : `reports version ${version}`;
  throw new Error(
    `EventStoreDB at ${where} ${found}; this adapter needs ${MINIMUM_SERVER_VERSION} or later`,
  );
}

// An event's position is its own log record's (prepare): events of one legacy transaction share a
// commit position, never a prepare one. gRPC appends commit each event at its prepare position and
// report the last event's as the append's commit position.
function positionOf(position: Position): number {
  return toSafeNumber(position.prepare, 'position');
}

function toReadPosition(after: number | undefined): ReadPosition {
  return after === undefined ? START : { commit: BigInt(after), prepare: BigInt(after) };
}

function serverFilter(eventTypes: readonly string[] | undefined): Filter {
  return eventTypes === undefined
    ? excludeSystemEvents()
    : eventTypeFilter({ regex: `^(?:${eventTypes.map(escapeRegex).join('|')})$` });
}

function toEsdbExpected(expected: ExpectedRevision): EsdbExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
}

function isUserEvent(event: AllStreamRecordedEvent): boolean {
  return !event.type.startsWith('$') && !event.streamId.startsWith('$');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function toRecordedEvent(event: EsdbRecordedEvent, position: number): RecordedEvent {
  return {
    id: event.id,
    streamId: event.streamId,
    revision: toSafeNumber(event.revision, 'revision'),
    position,
    type: event.type,
    data: event.data,
    metadata: event.metadata ?? null,
    recordedAt: event.created.toISOString(),
  };
}
