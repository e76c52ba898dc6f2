import type { PositionFeed } from '@auction/engine';
import {
  type LeaseOptions,
  type ReadStore,
  type Write,
  allProjections,
  notificationCursors,
} from '@auction/projections';
import type { ReadModels } from '../../app-deps';
import type { Config } from '../../config/config';
import { Readiness } from '../../http/middleware/readiness';
import { RealtimeLink } from '../../realtime/realtime-link';
import type { StoreConfig, Stores } from '../open-stores';
import type { WriteSide } from '../write-side';
import { inlineRunner } from './inline-runner';
import { ProjectionThread } from './projection-thread';

type Log = (message: string, error?: unknown) => void;
type Committed = (name: string, writes: readonly Write[], position: number) => void;

/**
 * In a cluster each projection runs on one node at a time; the others follow its checkpoint. The
 * process id keeps a restarted node from taking over its predecessor's batch in flight.
 */
export const leaseFor = (config: Config, followPollMs: number): LeaseOptions | undefined =>
  config.KAFKA_BROKERS ? { holder: `${config.NODE_ID}:${process.pid}`, followPollMs } : undefined;

/**
 * The projections' own thread; none when they run on the request thread (PROJECTIONS_THREAD=inline,
 * or `inProcess`: a test seam must reach the read store they write through). It is made before the
 * stores open and calls `head` and `onCommitted` only once started, when both can answer.
 */
export const projectionThread = (
  config: Config,
  inProcess: boolean,
  settings: {
    readonly lease: LeaseOptions | undefined;
    readonly pollMs: number;
    readonly log: Log;
  },
  reports: { readonly head: () => Promise<number | undefined>; readonly onCommitted: Committed },
): ProjectionThread | undefined => {
  if (config.PROJECTIONS_THREAD === 'inline' || inProcess) return undefined;
  const { lease, pollMs, log } = settings;
  return new ProjectionThread({
    data: {
      stores: storeSettings(config),
      ...(lease ? { lease, clusterLogPollMs: pollMs } : {}),
    },
    names: allProjections.map((projection) => projection.name),
    head: reports.head,
    onCommitted: reports.onCommitted,
    onError: (error, name) => log(`Projection ${name}:`, error),
    log,
    stopTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  });
};

/** The settings the projections' thread opens its stores with (plain data, for `workerData`). */
const storeSettings = (config: Config): StoreConfig => ({
  DATA_DIR: config.DATA_DIR,
  EVENTSTORE_CONNECTION_STRING: config.EVENTSTORE_CONNECTION_STRING,
  MONGODB_URL: config.MONGODB_URL,
  MONGODB_DB: config.MONGODB_DB,
  STORE_CONNECT_TIMEOUT_MS: config.STORE_CONNECT_TIMEOUT_MS,
  MONGODB_STATEMENTS_PER_COMMAND: config.MONGODB_STATEMENTS_PER_COMMAND,
  KAFKA_BROKERS: config.KAFKA_BROKERS,
});

export interface ReadSide {
  /** The log's head at start: the read models are ready once they have applied this much. */
  readonly startHead: number;
  readonly runner: ReadModels;
  readonly readiness: Readiness;
  /** Where committed news reaches the realtime clients of every node. */
  readonly realtime: RealtimeLink;
  /** Told of every batch committed (the thread's reports reach it too). */
  readonly onCommitted: Committed;
  /** Starts the projections (in the background, once the server listens). */
  readonly start: () => Promise<void>;
  /** Stops forwarding this node's appends to the thread. */
  readonly stopForwarding: (() => void) | undefined;
}

/**
 * The read side on the open stores: the read store made ready for requests, the runner (the
 * thread, or one in process) wired to the cluster's positions and to realtime, and the readiness
 * that gates requests until the runner has caught up. The projections start later (`start`).
 */
export const openReadSide = async (
  thread: ProjectionThread | undefined,
  stores: Stores,
  write: Pick<WriteSide, 'cluster' | 'positions'>,
  options: {
    readonly projectionStore: ((store: ReadStore) => ReadStore) | undefined;
    readonly readinessWaitMs: number | undefined;
    readonly lease: LeaseOptions | undefined;
    readonly log: Log;
  },
): Promise<ReadSide> => {
  const startHead = await prepareReadModels(stores);
  const realtime = new RealtimeLink(write.cluster, options.log);
  const onCommitted = tellCommits(write.positions, realtime, startHead);
  const { runner, start, stopForwarding } = connectReadModels(thread, stores, {
    ...options,
    positions: write.positions,
    startHead,
    onCommitted,
  });
  const readiness = new Readiness(runner, startHead, options.readinessWaitMs);
  return { startHead, runner, readiness, realtime, onCommitted, start, stopForwarding };
};

/** Readies the read store for requests and returns the log's head as it is now. */
const prepareReadModels = async (stores: Stores): Promise<number> => {
  await notificationCursors(stores.read).init();
  // Before listening, so that a request never meets a missing collection (the runner's `start`
  // makes them too, but it runs in the background).
  await stores.read.ensureCollections(
    allProjections.flatMap((projection) => projection.collections),
  );
  return (await stores.events.headPosition()) ?? 0;
};

/**
 * What a committed batch is told to: its checkpoint to the nodes that follow the projection, its
 * news to realtime. What the catch-up re-creates from history is not news: the other nodes are
 * not told of it.
 */
const tellCommits =
  (positions: PositionFeed | undefined, realtime: RealtimeLink, startHead: number): Committed =>
  (name, writes, position) => {
    positions?.checkpointCommitted(name, position);
    const news = writes.filter((write) => write.kind !== 'put' || write.doc._position > startHead);
    if (news.length > 0) realtime.projectionCommitted(name, news);
  };

interface ConnectedReadModels {
  readonly runner: ReadModels;
  /** Starts the projections (in the background, once the server listens). */
  readonly start: () => Promise<void>;
  /** Stops forwarding this node's appends to the thread. */
  readonly stopForwarding: (() => void) | undefined;
}

/**
 * The runner the server reads through: the thread, or a runner in process. The thread reads the
 * log on its own connection, so it is told of every append made here and, in a cluster, of those
 * other nodes tell; either runner hears the checkpoints other nodes tell.
 */
const connectReadModels = (
  thread: ProjectionThread | undefined,
  stores: Stores,
  options: {
    readonly positions: PositionFeed | undefined;
    readonly startHead: number;
    readonly projectionStore: ((store: ReadStore) => ReadStore) | undefined;
    readonly onCommitted: Committed;
    readonly lease: LeaseOptions | undefined;
    readonly log: Log;
  },
): ConnectedReadModels => {
  const { positions, startHead } = options;
  let runner: ReadModels;
  let tellAppended: ((position: number) => void) | undefined;
  if (thread) {
    runner = thread;
    tellAppended = (position) => thread.appended(position);
  } else {
    runner = inlineRunner(stores, options);
  }
  const stopForwarding = tellAppended && stores.events.onAppended?.(tellAppended);
  positions?.onLog((position) => tellAppended?.(position));
  positions?.onCheckpoint((name, position) => runner.followedCheckpoint(name, position));
  const start = thread ? () => thread.start(startHead) : () => runner.start();
  return { runner, start, stopForwarding };
};
