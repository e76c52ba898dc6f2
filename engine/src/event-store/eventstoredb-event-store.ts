import { AsyncLocalStorage } from 'node:async_hooks';
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

export interface EventStoreDbEventStoreOptions {
  /** E.g. `esdb://localhost:2113?tls=false`. */
  readonly connectionString: string;
}

const PAGE_SIZE = 500;
const DEFAULT_BATCH_SIZE = 500;

/**
 * The distributed event store on EventStoreDB 22.6 or later (which reports positions on stream
 * reads). System events (`$` types or `$` streams) are not visible through this port.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EsdbSubscription>();

  static open(options: EventStoreDbEventStoreOptions): EventStoreDbEventStore {
    return new EventStoreDbEventStore(options);
  }

  constructor(options: EventStoreDbEventStoreOptions) {
    this.client = EventStoreDBClient.connectionString(options.connectionString);
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
      const nextRevision = Number(result.nextExpectedRevision);
      const commit = result.position?.commit;
      const position =
        commit !== undefined && commit >= 0n
          ? Number(commit)
          : await this.positionAt(streamId, nextRevision);
      return { nextRevision, position };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(
          streamId,
          expected,
          typeof actual === 'bigint' ? Number(actual) : 'no_stream',
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
    const wanted = typeFilter(options.eventTypes);
    const found: RecordedEvent[] = [];
    let after = options.afterPosition;
    while (found.length < limit) {
      const page = await this.readAllPage(after);
      for (const event of page.events) {
        if (found.length < limit && wanted(event.type)) found.push(event);
      }
      if (page.lastPosition === undefined) break;
      after = page.lastPosition;
    }
    return found;
  }

  subscribe(options: SubscribeOptions): Subscription {
    const subscription = new EsdbSubscription(this.client, options, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  async headPosition(): Promise<number | undefined> {
    let before: ReadPosition = END;
    for (;;) {
      let count = 0;
      for await (const { event } of this.client.readAll({
        fromPosition: before,
        direction: BACKWARDS,
        maxCount: PAGE_SIZE,
      })) {
        count += 1;
        if (event === undefined) continue;
        if (isUserEvent(event)) return positionOf(event.position);
        before = event.position;
      }
      if (count < PAGE_SIZE) return undefined;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    await this.client.dispose();
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
    const events: RecordedEvent[] = [];
    try {
      for await (const { event } of this.client.readStream(streamId, options)) {
        if (event === undefined) continue;
        if (event.position === undefined) {
          throw new Error('EventStoreDB reports no positions on stream reads before version 22.6');
        }
        events.push(toRecordedEvent(event, positionOf(event.position)));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /** One page of `$all` after a position: its user events, and where the next page starts. */
  private async readAllPage(
    after: number | undefined,
  ): Promise<{ events: RecordedEvent[]; lastPosition: number | undefined }> {
    const events: RecordedEvent[] = [];
    let lastPosition: number | undefined;
    let count = 0;
    for await (const resolved of this.client.readAll({
      fromPosition: after === undefined ? START : { commit: BigInt(after), prepare: BigInt(after) },
      direction: FORWARDS,
      maxCount: PAGE_SIZE + 1,
    })) {
      count += 1;
      const event = resolved.event;
      if (event === undefined) continue;
      const position = positionOf(event.position);
      if (after !== undefined && position <= after) continue;
      lastPosition = position;
      if (isUserEvent(event)) events.push(toRecordedEvent(event, position));
    }
    return { events, lastPosition: count > PAGE_SIZE ? lastPosition : undefined };
  }
}

const delivering = new AsyncLocalStorage<EsdbSubscription>();

/**
 * A `subscribeToAll` from the start position, filtered on the server, delivered in batches of what
 * has arrived. Caught up when the server says so, or once it passed the log's end at subscribe time.
 */
class EsdbSubscription implements Subscription {
  private readonly latch = new CaughtUp();
  readonly caughtUp = this.latch.promise;
  private isCaughtUp = false;
  private lastPosition: number | undefined;
  private closed = false;
  private stream: AllStreamSubscription | undefined;
  private stopWaiting: (() => void) | undefined;
  private bufferedBeforeCaughtUp: number | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly client: EventStoreDBClient,
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
    this.stopWaiting?.();
    await this.stream?.unsubscribe();
    if (delivering.getStore() === this) return;
    await this.done;
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH_SIZE;
    try {
      const end = await this.endOfLog();
      if (end === undefined || end <= (this.lastPosition ?? -1)) this.markCaughtUp();
      const after = this.lastPosition;
      const stream = this.client.subscribeToAll({
        fromPosition:
          after === undefined ? START : { commit: BigInt(after), prepare: BigInt(after) },
        filter: this.filter((position) => {
          if (end !== undefined && position >= end) this.noteCaughtUp();
        }),
      });
      this.stream = stream;
      stream.on('caughtUp', () => this.noteCaughtUp());
      const failure = new Promise<never>((_, reject) => {
        stream.on('error', reject);
        stream.on('end', () => reject(new Error('The EventStoreDB subscription ended')));
      });
      failure.catch(() => undefined);
      if (this.closed) return;

      while (!this.closed) {
        const batch: RecordedEvent[] = [];
        let passedEnd = false;
        while (batch.length < batchSize) {
          const resolved = stream.read() as AllStreamResolvedEvent | null;
          if (resolved === null) break;
          if (this.bufferedBeforeCaughtUp !== undefined) this.bufferedBeforeCaughtUp -= 1;
          const { event } = resolved;
          if (event === undefined) continue;
          const position = positionOf(event.position);
          if (end !== undefined && position >= end) passedEnd = true;
          if (position <= (this.lastPosition ?? -1) || !isUserEvent(event)) continue;
          batch.push(toRecordedEvent(event, position));
        }
        const last = batch[batch.length - 1];
        if (last !== undefined) {
          await delivering.run(this, () => this.options.onEvents(batch));
          this.lastPosition = last.position;
        }
        if (passedEnd || (this.bufferedBeforeCaughtUp ?? 1) <= 0) this.markCaughtUp();
        if (last === undefined) await Promise.race([this.readable(stream), failure]);
      }
    } catch (error) {
      if (!this.closed) {
        this.closed = true;
        this.latch.reject(error);
        this.options.onError?.(error);
      }
    } finally {
      this.latch.stopped();
      await this.stream?.unsubscribe();
      this.onStop();
    }
  }

  /** The server has sent everything up to now: caught up once the buffered events are delivered. */
  private noteCaughtUp(): void {
    if (this.isCaughtUp || this.bufferedBeforeCaughtUp !== undefined) return;
    this.bufferedBeforeCaughtUp = this.stream?.readableLength ?? 0;
    this.stopWaiting?.();
  }

  private markCaughtUp(): void {
    this.isCaughtUp = true;
    this.latch.resolve();
  }

  private readable(stream: AllStreamSubscription): Promise<void> {
    if (this.closed || stream.readableLength > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = () => {
        stream.off('readable', stop);
        this.stopWaiting = undefined;
        resolve();
      };
      stream.on('readable', stop);
      this.stopWaiting = stop;
    });
  }

  private filter(onCheckpoint: (position: number) => void): Filter {
    const checkpointReached = (_: unknown, position: Position) => {
      onCheckpoint(Number(position.commit));
    };
    const { eventTypes } = this.options;
    return eventTypes === undefined
      ? excludeSystemEvents({ checkpointReached })
      : eventTypeFilter({
          regex: `^(?:${eventTypes.map(escapeRegex).join('|')})$`,
          checkpointReached,
        });
  }

  private async endOfLog(): Promise<number | undefined> {
    for await (const resolved of this.client.readAll({
      fromPosition: END,
      direction: BACKWARDS,
      maxCount: 1,
    })) {
      if (resolved.event !== undefined) return positionOf(resolved.event.position);
    }
    return undefined;
  }
}

// An event's position is its own log record's (prepare): events of one legacy transaction share a
// commit position, never a prepare one. gRPC appends commit each event at its prepare position and
// report the last event's as the append's commit position.
function positionOf(position: Position): number {
  return Number(position.prepare);
}

function toEsdbExpected(expected: ExpectedRevision): EsdbExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  return BigInt(expected);
}

function isUserEvent(event: AllStreamRecordedEvent): boolean {
  return !event.type.startsWith('$') && !event.streamId.startsWith('$');
}

function typeFilter(eventTypes: readonly string[] | undefined): (type: string) => boolean {
  if (eventTypes === undefined) return () => true;
  const types = new Set(eventTypes);
  return (type) => types.has(type);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function toRecordedEvent(event: EsdbRecordedEvent, position: number): RecordedEvent {
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    position,
    type: event.type,
    data: event.data,
    metadata: event.metadata ?? null,
    recordedAt: event.created.toISOString(),
  };
}
