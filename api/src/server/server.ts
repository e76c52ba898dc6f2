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
 * In a cluster with pushed positions (`PositionFeed`): the safety-net poll of the shared log and of
 * followed checkpoints. The push is at most once; a lost word delays a reader by at most this,
 * well inside READ_WAIT_MS (2 s), and the slower poll spares the shared read store.
 */
export const CLUSTER_POLL_MS = 250;
/** The same polls without the push: what bounded a cross-node read before it. */
export const POLL_ONLY_MS = 50;

/**
 * The whole product in one process, on the stores the configuration picks. It listens as soon as
 * the stores are open, so a long log never keeps it dark: the projections catch up and the
 * schedulers close overdue auctions in the background (reads answer 503 until the read models
 * reach the log's head at start; writes are taken at once). Phases: api/README.md.
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
