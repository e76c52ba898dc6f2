import type { Server } from 'node:http';
import { type Clock, systemClock } from '@auction/engine';
import type { ReadStore } from '@auction/projections';
import type { AppDeps } from '../app-deps';
import type { Config } from '../config/config';
import { dueSchedulers, startBackground } from './background';
import { serveHttp } from './http-server';
import { type Stores, openStores } from './open-stores';
import { leaseFor, openReadSide, projectionThread } from './read-side/read-models';
import { shutDown } from './shutdown';
import { openWriteSide } from './write-side';

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly deps: AppDeps;
  /**
   * Resolves once the read models have caught up with the log as it stood at start (the server
   * serves before that; see `startServer`).
   */
  readonly caughtUp: Promise<void>;
  /**
   * Stops taking requests, drains commands in flight, stops the background work, closes stores;
   * within SHUTDOWN_TIMEOUT_MS, past which what is left is cut short (see `shutDown`, `shutdown.ts`).
   */
  close(): Promise<void>;
}

const defaultLog = (message: string, error?: unknown) => console.error(message, error ?? '');

export interface StartOptions {
  readonly clock?: Clock;
  readonly log?: (message: string, error?: unknown) => void;
  /**
   * Test seam: the projections start applying the log only once this resolves, so a test can
   * watch the server while its read models are behind.
   */
  readonly holdProjections?: Promise<void>;
  /** How long a request that needs the read models waits for them at start; default 2 s. */
  readonly readinessWaitMs?: number;
  /**
   * Test seam: wraps the read store the projections write through, so that a test can make their
   * batch slow or hang.
   */
  readonly projectionStore?: (store: ReadStore) => ReadStore;
  /**
   * Test seam: `false` runs a node of a cluster without telling or hearing positions, polling the
   * shared log and the followed checkpoints every `POLL_ONLY_MS` as it did before the push, so
   * that a test can measure what the push saves. Default true.
   */
  readonly positionPush?: boolean;
}

/**
 * In a cluster, with positions pushed (`PositionFeed`): how often a node still reads the shared
 * log for other nodes' appends, and a followed projection's checkpoint while a read waits on it.
 * The push is at most once, so the poll stays, as the safety net: a word lost (a node's broadcast
 * consumer rebalancing, a failed send) delays a reader by at most this much, well inside
 * READ_WAIT_MS (2 s), so the read is still answered fresh. Five times longer than the poll alone
 * needed (`POLL_ONLY_MS`): a waiting read no longer asks the read store for a checkpoint 20 times a
 * second per projection and node, load that lands on the read store every node shares.
 */
export const CLUSTER_POLL_MS = 250;
/** The same polls without the push: what bounded a cross-node read before it. */
export const POLL_ONLY_MS = 50;

/**
 * The whole product in one process, on the stores the configuration picks (`openStores`):
 * embedded under DATA_DIR by default, EventStoreDB and MongoDB when configured. Resolves once it
 * listens, which is as soon as the stores are open, the fixed categories seeded and the read
 * models' collections exist: however long the log, it is never dark for minutes.
 *
 * In the background, after it listens: the projections catch up from their checkpoints (reads
 * wait for them, briefly, then answer 503 until they reach the log's head as it was at start;
 * writes need only the log and are taken at once; `GET /health` reports the lag), and the closing
 * scheduler reads the auctions' lifecycle and closes those that ended while the server was down
 * (the decider refuses a bid at or after an auction's end meanwhile, so nothing waits for it).
 */
export const startServer = async (
  config: Config,
  options: StartOptions = {},
): Promise<RunningServer> => {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? defaultLog;
  const push = options.positionPush !== false;
  const pollMs = push ? CLUSTER_POLL_MS : POLL_ONLY_MS;
  const lease = leaseFor(config, pollMs);
  const inProcess = options.projectionStore !== undefined || options.holdProjections !== undefined;
  // Made now so that it loads while the stores open; it reports only once started, after listening.
  const thread = projectionThread(
    config,
    inProcess,
    { lease, pollMs, log },
    {
      head: () => stores.events.headPosition(),
      onCommitted: (name, writes, position) => read.onCommitted(name, writes, position),
    },
  );
  thread?.warm();
  let stores: Stores;
  try {
    stores = await openStores(config, clock, { clusterLogPollMs: pollMs });
  } catch (error) {
    await thread?.stop();
    throw error;
  }
  const write = await openWriteSide(config, stores, { clock, log, push }, async () => {
    await thread?.stop();
    await stores.close();
  });
  const read = await openReadSide(thread, stores, write, {
    projectionStore: options.projectionStore,
    readinessWaitMs: options.readinessWaitMs,
    lease,
    log,
  });
  const schedulers = dueSchedulers(stores.events, write.engine, clock, log);
  const http = await serveHttp(config, { stores, write, read, clock, log });

  let closing: Promise<void> | undefined;
  const cancelledImages = startBackground(
    { deps: http.deps, read, write, schedulers, holdProjections: options.holdProjections, log },
    () => closing !== undefined,
  );
  const parts = { stores, write, read, http, schedulers, cancelledImages };
  const close = () => (closing ??= shutDown(parts, config.SHUTDOWN_TIMEOUT_MS, log));
  const { deps, server, port, host } = http;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    deps,
    caughtUp: read.readiness.whenReady,
    close,
  };
};
