import {
  type EventSource,
  type LeaseOptions,
  ProjectionRunner,
  type ReadStore,
  type Write,
  allProjections,
} from '@auction/projections';
import type { ReadModels } from '../../app-deps';
import type { Stores } from '../open-stores';

/**
 * The projections' runner on the request thread (PROJECTIONS_THREAD=inline, or a test seam that
 * wraps the read store they write through), reading through turns of the event loop so that the
 * server keeps answering during a long catch-up.
 */
export const inlineRunner = (
  stores: Stores,
  options: {
    readonly projectionStore: ((store: ReadStore) => ReadStore) | undefined;
    readonly onCommitted: (name: string, writes: readonly Write[], position: number) => void;
    readonly lease: LeaseOptions | undefined;
    readonly log: (message: string, error?: unknown) => void;
  },
): ReadModels => {
  const turn = turns();
  const { projectionStore, onCommitted, lease, log } = options;
  return new ProjectionRunner({
    source: yieldingSource(stores.events, turn),
    store: (projectionStore ?? ((store: ReadStore) => store))(yieldingReads(stores.read, turn)),
    projections: allProjections,
    onError: (error, name) => log(`Projection ${name}:`, error),
    onCommitted,
    ...(lease ? { lease } : {}),
  });
};

/**
 * How long the projections may hold the event loop before a read of theirs lets others in. On
 * their own thread (the default) they need no turns.
 */
const TURN_MS = 20;

/**
 * Undefined at once, or a promise of a turn of the event loop when the last such turn is more
 * than `TURN_MS` ago. A catch-up over embedded stores never waits for I/O (the log and the read
 * models answer synchronously, so every await resolves at once): without these turns the server
 * would not answer a request until the catch-up ends. Nothing to await in the usual case, so the
 * projections' every read does not pay for a promise and a hop through the microtask queue.
 */
const turns = () => {
  let last = performance.now();
  return (): Promise<void> | undefined => {
    if (performance.now() - last < TURN_MS) return undefined;
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      last = performance.now();
    });
  };
};

/** `work` after a turn of the event loop when one is due; a throw becomes a rejection. */
const afterTurn = <T>(
  turn: () => Promise<void> | undefined,
  work: () => Promise<T>,
): Promise<T> => {
  const waiting = turn();
  if (waiting) return waiting.then(work);
  try {
    return work();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};

/** The log as the projections read it: a turn of the event loop before each batch when due. */
const yieldingSource = (
  source: EventSource,
  turn: () => Promise<void> | undefined,
): EventSource => ({
  headPosition: () => source.headPosition(),
  subscribe: (options) =>
    source.subscribe({
      ...options,
      onEvents: (events) => afterTurn(turn, () => Promise.resolve(options.onEvents(events))),
    }),
});

const READS: ReadonlySet<PropertyKey> = new Set(['get', 'getMany', 'find', 'count', 'commit']);

/**
 * The read store as the projections use it: its reads give the event loop a turn now and then.
 * Each method is wrapped once, not at every access.
 */
const yieldingReads = (store: ReadStore, turn: () => Promise<void> | undefined): ReadStore => {
  const methods = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      const known = methods.get(property);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...a: unknown[]) => unknown).bind(target);
      const wrapped = READS.has(property)
        ? (...args: unknown[]) => afterTurn(turn, () => method(...args) as Promise<unknown>)
        : method;
      methods.set(property, wrapped);
      return wrapped;
    },
  });
};
