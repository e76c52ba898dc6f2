import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store/event-store';

export interface AppendCall {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
}

/**
 * A real store with a hook around each append, to hold an append in flight or make it fail
 * before or after it commits, and a count of the events each stream read returned. Every other
 * call goes straight through.
 */
export class InstrumentedStore implements EventStore {
  readonly appends: AppendCall[] = [];
  /** Each `readStream`: the stream and how many events it returned (what reads cost). */
  readonly streamReads: { readonly streamId: string; readonly events: number }[] = [];
  /** Runs before the real append; throwing fails the append with nothing written. */
  before: ((call: AppendCall) => Promise<void> | void) | undefined;
  /** Runs after the real append committed; throwing makes a committed append look failed. */
  after: ((call: AppendCall) => Promise<void> | void) | undefined;

  constructor(readonly inner: EventStore) {}

  async append(
    streamId: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const call = { streamId, events, expected };
    this.appends.push(call);
    await this.before?.(call);
    const result = await this.inner.append(streamId, events, expected);
    await this.after?.(call);
    return result;
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    const events = await this.inner.readStream(streamId, options);
    this.streamReads.push({ streamId, events: events.length });
    return events;
  }
  streamRevision(streamId: string): Promise<number | undefined> {
    return this.inner.streamRevision(streamId);
  }
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }
  subscribe(options: SubscribeOptions): Subscription {
    return this.inner.subscribe(options);
  }
  headPosition(): Promise<number | undefined> {
    return this.inner.headPosition();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A promise with its resolve exposed: `gate.open()` lets whatever awaits `gate.promise` go on. */
export const gate = () => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
};
