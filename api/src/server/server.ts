import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AccountClosures,
  AuctionActorRegistry,
  ClosingScheduler,
  type Clock,
  EndingSoonScheduler,
  Engine,
  KafkaCluster,
  PositionFeed,
  saltKeyFrom,
  systemClock,
} from '@auction/engine';
import {
  type EventSource,
  ProjectionRunner,
  type ReadStore,
  type Write,
  allProjections,
  notificationCursors,
} from '@auction/projections';
import type { AppDeps, ClusterHealth, ReadModels } from '../app-deps';
import { createApp } from '../http/app';
import { type Config, publicOrigin } from '../config/config';
import { Readiness } from '../http/middleware/readiness';
import { finishDeletions } from '../http/routes/users/delete-account';
import { RealtimeGateway } from '../realtime/gateway';
import { imageUrlsFor, withImageUrls } from '../stores/images/image-urls';
import { releaseCancelledAuctionImages } from '../followers/image-cleanup';
import { RealtimeLink } from '../realtime/realtime-link';
import { CachedSessionStore } from '../stores/sessions/session-cache';
import { type StoreConfig, type Stores, openStores } from './open-stores';
import { ProjectionThread } from './read-side/projection-thread';

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
   * within SHUTDOWN_TIMEOUT_MS, past which what is left is cut short (see `shutdown`).
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
  // In a cluster each projection runs on one node at a time; the others follow its checkpoint.
  // The process id keeps a restarted node from taking over its predecessor's batch in flight.
  const lease = config.KAFKA_BROKERS
    ? {
        holder: `${config.NODE_ID}:${process.pid}`,
        followPollMs: push ? CLUSTER_POLL_MS : POLL_ONLY_MS,
      }
    : undefined;
  // The projections run on a thread of their own, unless configured inline or a test seam wraps
  // the read store they write through (it must then be in this process).
  const thread =
    config.PROJECTIONS_THREAD === 'inline' ||
    options.projectionStore !== undefined ||
    options.holdProjections !== undefined
      ? undefined
      : new ProjectionThread({
          data: {
            stores: storeSettings(config),
            ...(lease ? { lease, clusterLogPollMs: push ? CLUSTER_POLL_MS : POLL_ONLY_MS } : {}),
          },
          names: allProjections.map((projection) => projection.name),
          head: () => stores.events.headPosition(),
          onCommitted: (name, writes, position) => onCommitted(name, writes, position),
          onError: (error, name) => onError(error, name),
          log,
          stopTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
        });
  // It loads its modules and opens its stores while this thread opens its own.
  thread?.warm();
  let stores: Stores;
  try {
    stores = await openStores(config, clock, {
      clusterLogPollMs: push ? CLUSTER_POLL_MS : POLL_ONLY_MS,
    });
  } catch (error) {
    await thread?.stop();
    throw error;
  }
  const sessionSecret = config.SESSION_SECRET ?? (await stores.keptSessionSecret());
  // Every node shares the session secret, so they seal a command alike (`chain/seal.ts`).
  const saltKey = saltKeyFrom(sessionSecret);
  const closures = new AccountClosures({
    store: stores.events,
    clock,
    onError: (error) => log('Undoing a deleted account’s late bid or auction failed', error),
  });
  const local = new AuctionActorRegistry({
    store: stores.events,
    clock,
    refuse: closures.refuse,
    saltKey,
  });
  let cluster: KafkaCluster | undefined;
  try {
    await closures.load();
    cluster = await startCluster(config, local, log);
  } catch (error) {
    await local.close();
    await thread?.stop();
    await stores.close();
    throw error;
  }
  // The positions each node commits, told to the others, so that nobody waits for a poll: the
  // owner's appends wake the other nodes' subscriptions to the shared log, and a projection's
  // checkpoints end the other nodes' reads waiting on it.
  const positions = cluster && push ? new PositionFeed(cluster, { log }) : undefined;
  const stopTelling =
    positions && stores.events.onAppended?.((position) => positions.logCommitted(position));
  positions?.onLog((position) => stores.events.appendedElsewhere?.(position));
  const engine = new Engine({ store: stores.events, clock, router: cluster ?? local, closures });
  await engine.seedFixedCategories(new Date(clock.now()).toISOString());
  await notificationCursors(stores.read).init();
  // Before listening, so that a request never meets a missing collection (the runner's `start`
  // makes them too, but it runs in the background).
  await stores.read.ensureCollections(
    allProjections.flatMap((projection) => projection.collections),
  );
  // The read models are ready once they have applied this much of the log.
  const startHead = (await stores.events.headPosition()) ?? 0;
  const realtime = new RealtimeLink(cluster, log);
  // Sessions from memory; every change of one reaches the other nodes' memory on the broadcast.
  const sessions = new CachedSessionStore(stores.sessions, {
    cluster,
    maxAgeMs: config.SESSION_CACHE_MS,
    log,
  });
  // What the catch-up re-creates from history is not news: the other nodes are not told of it.
  const onCommitted = (name: string, writes: readonly Write[], position: number) => {
    positions?.checkpointCommitted(name, position);
    const news = writes.filter((write) => write.kind !== 'put' || write.doc._position > startHead);
    if (news.length > 0) realtime.projectionCommitted(name, news);
  };
  const onError = (error: unknown, name: string) => log(`Projection ${name}:`, error);
  let runner: ReadModels;
  let tellAppended: ((position: number) => void) | undefined;
  if (thread) {
    runner = thread;
    // The thread reads the log on its own connection: it is told of every append made here.
    tellAppended = (position) => thread.appended(position);
  } else {
    const turn = turns();
    runner = new ProjectionRunner({
      source: yieldingSource(stores.events, turn),
      store: (options.projectionStore ?? ((store: ReadStore) => store))(
        yieldingReads(stores.read, turn),
      ),
      projections: allProjections,
      onError,
      onCommitted,
      ...(lease ? { lease } : {}),
    });
  }
  const stopForwarding = tellAppended && stores.events.onAppended?.(tellAppended);
  positions?.onLog((position) => tellAppended?.(position));
  positions?.onCheckpoint((name, position) => runner.followedCheckpoint(name, position));
  const readiness = new Readiness(runner, startHead, options.readinessWaitMs);
  const scheduler = new ClosingScheduler({
    store: stores.events,
    bus: engine,
    ownership: engine,
    clock,
    onError: (error, auctionId) => log(`Closing ${auctionId} failed; retrying`, error),
  });
  // The watchlist's "about to end", sent as the closing scheduler sends closes.
  const endingSoon = new EndingSoonScheduler({
    store: stores.events,
    bus: engine,
    ownership: engine,
    clock,
    onError: (error, auctionId) => log(`Ending soon of ${auctionId} failed; retrying`, error),
  });

  let port = config.PORT;
  const imageUrl = imageUrlsFor(config.CORS_ORIGINS, () => publicOrigin(config, port));
  const deps: AppDeps = {
    config,
    get origin() {
      return publicOrigin(config, port);
    },
    events: stores.events,
    read: stores.read,
    engine,
    runner,
    readiness,
    accounts: stores.accounts,
    users: withImageUrls(stores.accounts, imageUrl),
    imageUrl,
    sessions,
    sessionSecret,
    images: stores.images,
    rateLimits: stores.rateLimits,
    storeHealth: (timeoutMs) => stores.health(timeoutMs),
    clusterHealth: cluster && clusterHealth(cluster),
    clock,
    log,
    realtime,
  };
  const { app, socketMiddleware, allowedOrigins } = createApp(deps, () => port);
  // Node's own bounds, behind the app's (`bodyLimits` answers a slow body 408 with a message at
  // BODY_TIMEOUT_MS): headers within 20 s, a whole request within BODY_TIMEOUT_MS + 10 s (Node's
  // defaults are 60 s and 300 s), checked every 5 s rather than every 30 s.
  const requestTimeout = config.BODY_TIMEOUT_MS + 10_000;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(20_000, requestTimeout),
      connectionsCheckingInterval: 5_000,
    },
    app,
  );
  const gateway = new RealtimeGateway(deps, server, socketMiddleware, allowedOrigins);
  realtime.attach(gateway);
  await gateway.start();
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;

  let closing: Promise<void> | undefined;
  readiness.begin();
  void (options.holdProjections ?? Promise.resolve())
    .then(() => (closing ? undefined : thread ? thread.start(startHead) : runner.start()))
    .catch((error: unknown) => {
      if (closing) return;
      log('The read models could not start', error);
      readiness.fail(error);
    });
  // A failure to read the lifecycle (the store) is retried: auctions must go on closing.
  const startScheduler = (): void => {
    scheduler.start().catch((error: unknown) => {
      if (closing) return;
      log('The closing scheduler could not read the log; retrying', error);
      setTimeout(() => {
        if (!closing) startScheduler();
      }, 1000).unref();
    });
  };
  startScheduler();
  const startEndingSoon = (): void => {
    endingSoon.start().catch((error: unknown) => {
      if (closing) return;
      log('The ending-soon scheduler could not read the log; retrying', error);
      setTimeout(() => {
        if (!closing) startEndingSoon();
      }, 1000).unref();
    });
  };
  startEndingSoon();
  // The images of auctions cancelled from now on, by any path (account deletions too).
  const cancelledImages = releaseCancelledAuctionImages(deps, startHead);
  closures.start(engine);
  // Deletions cut short by a crash or a failure, whose user cannot bid or sell any more, are
  // finished once the read models say what those users still have on live auctions.
  void readiness.whenReady
    .then(() => (closing ? undefined : finishDeletions(deps, closures.unfinished())))
    .catch((error: unknown) => log('Finishing interrupted account deletions failed', error));

  const close = () =>
    (closing ??= (async () => {
      const step = shutdown(config.SHUTDOWN_TIMEOUT_MS, log);
      try {
        await closeWithin(step);
      } finally {
        step.report();
      }
    })());
  const closeWithin = async (step: Step) => {
    readiness.stop();
    sessions.stop();
    stopTelling?.();
    stopForwarding?.();
    positions?.close();
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Commands being appended are never cut: each is answered after its commit, or not at all.
    await step('account closures', () => closures.stop(), { mustFinish: true });
    await step('commands in flight', () => engine.close(), { mustFinish: true });
    await step('realtime connections', () => gateway.close());
    await step('HTTP requests in flight', () => stopped);
    if (step.expired()) server.closeAllConnections();
    await step('closing scheduler', () => scheduler.stop());
    await step('ending-soon scheduler', () => endingSoon.stop());
    await step('image clean-up', () => cancelledImages.close());
    // The read side is safe to cut: its batch is not committed, and replays from its checkpoint.
    await step('the read models', () => runner.stop());
    await step('stores', () => stores.close(), { graceMs: 1000 });
  };

  return {
    url: `http://${host}:${port}`,
    port,
    server,
    deps,
    caughtUp: readiness.whenReady,
    close,
  };
};

interface Step {
  /**
   * Starts `work` and waits for it until the deadline; past it, only a step that must finish is
   * waited for, any other only `graceMs` (default 0: it runs on unwatched).
   */
  (
    name: string,
    work: () => Promise<unknown>,
    options?: { mustFinish?: boolean; graceMs?: number },
  ): Promise<void>;
  /** Whether the deadline has passed. */
  expired(): boolean;
  /** Logs what was cut short, if anything. */
  report(): void;
}

/**
 * The steps of a shutdown under one deadline, `timeoutMs` from now. A step's failure fails the
 * shutdown, as before; a step cut short is named in the report.
 */
const shutdown = (timeoutMs: number, log: (message: string, error?: unknown) => void): Step => {
  const started = Date.now();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      resolve();
    }, timeoutMs);
  });
  const cut: string[] = [];
  const within = (work: Promise<unknown>, ms: number): Promise<boolean> =>
    new Promise<boolean>((resolve, reject) => {
      const grace = setTimeout(() => resolve(false), ms);
      work.then(
        () => (clearTimeout(grace), resolve(true)),
        (error: unknown) => (clearTimeout(grace), reject(error as Error)),
      );
    });
  const step = async (
    name: string,
    work: () => Promise<unknown>,
    options: { mustFinish?: boolean; graceMs?: number } = {},
  ): Promise<void> => {
    const running = work();
    if (options.mustFinish) {
      if (!timedOut && (await Promise.race([running.then(() => true), deadline.then(() => false)])))
        return;
      log(`Shutdown: past SHUTDOWN_TIMEOUT_MS (${timeoutMs} ms); still waiting for ${name}`);
      await running;
      return;
    }
    const finished = timedOut
      ? await within(running, options.graceMs ?? 0)
      : await Promise.race([running.then(() => true), deadline.then(() => false)]);
    if (finished) return;
    cut.push(name);
    running.catch((error: unknown) => log(`Shutdown: ${name}, cut short, then failed`, error));
  };
  return Object.assign(step, {
    expired: () => timedOut,
    report: () => {
      clearTimeout(timer);
      if (cut.length === 0) return;
      log(
        `Shutdown cut short after ${Date.now() - started} ms (SHUTDOWN_TIMEOUT_MS=${timeoutMs}): ` +
          `did not wait for ${cut.join(', ')}. Nothing acknowledged is lost: the read models ` +
          'resume from their checkpoints at the next start.',
      );
    },
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

/**
 * Only with PROJECTIONS_THREAD=inline (or a test seam that wraps the read store): the projections
 * then share the request thread, and these turns keep it answering during a long catch-up. On
 * their own thread (the default) they need none.
 *
 * How long the projections may hold the event loop before a read of theirs lets others in.
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

/** With KAFKA_BROKERS, joins the cluster: `local` then runs the actors of the auctions owned here. */
const startCluster = async (
  config: Config,
  local: AuctionActorRegistry,
  log: (message: string, error?: unknown) => void,
): Promise<KafkaCluster | undefined> => {
  if (!config.KAFKA_BROKERS) return undefined;
  return KafkaCluster.start({
    brokers: config.KAFKA_BROKERS,
    nodeId: config.NODE_ID,
    local,
    partitions: config.KAFKA_PARTITIONS,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    replyTimeoutMs: config.KAFKA_REPLY_TIMEOUT_MS,
    sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
    connectTimeoutMs: config.STORE_CONNECT_TIMEOUT_MS,
    log,
  });
};

const clusterHealth = (cluster: KafkaCluster) => async (): Promise<ClusterHealth> => {
  const reachable = await Promise.race([
    cluster.ping().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
  ]);
  return { ...cluster.status(), reachable };
};
