import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AuctionActorRegistry,
  ClosingScheduler,
  type Clock,
  Engine,
  KafkaCluster,
  systemClock,
} from '@auction/engine';
import { ProjectionRunner, allProjections, notificationCursors } from '@auction/projections';
import type { AppDeps, ClusterHealth } from './app-deps';
import { createApp } from './app';
import { type Config, publicOrigin } from './config';
import { RealtimeGateway } from './realtime/gateway';
import { RealtimeLink } from './realtime/realtime-link';
import { openStores } from './stores';

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly deps: AppDeps;
  /** Stops taking requests, drains commands in flight, stops the background work, closes stores. */
  close(): Promise<void>;
}

const defaultLog = (message: string, error?: unknown) => console.error(message, error ?? '');

/**
 * The whole product in one process, on the stores the configuration picks (`openStores`):
 * embedded under DATA_DIR by default, EventStoreDB and MongoDB when configured. Resolves once it
 * can serve (read models caught up, overdue auctions closed).
 */
export const startServer = async (
  config: Config,
  options: { clock?: Clock; log?: (message: string, error?: unknown) => void } = {},
): Promise<RunningServer> => {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? defaultLog;
  const stores = await openStores(config, clock);
  const local = new AuctionActorRegistry({ store: stores.events, clock });
  let cluster: KafkaCluster | undefined;
  try {
    cluster = await startCluster(config, local, log);
  } catch (error) {
    await local.close();
    await stores.close();
    throw error;
  }
  const engine = new Engine({ store: stores.events, clock, router: cluster ?? local });
  await engine.seedFixedCategories(new Date(clock.now()).toISOString());
  await notificationCursors(stores.read).init();
  const realtime = new RealtimeLink(cluster, log);
  const runner = new ProjectionRunner({
    source: stores.events,
    store: stores.read,
    projections: allProjections,
    onError: (error, name) => log(`Projection ${name}:`, error),
    onCommitted: (name, writes) => realtime.projectionCommitted(name, writes),
    // In a cluster each projection runs on one node at a time; the others follow its checkpoint.
    // The process id keeps a restarted node from taking over its predecessor's batch in flight.
    ...(cluster ? { lease: { holder: `${config.NODE_ID}:${process.pid}` } } : {}),
  });
  await runner.start();
  const scheduler = new ClosingScheduler({
    store: stores.events,
    bus: engine,
    ownership: engine,
    clock,
    onError: (error, auctionId) => log(`Closing ${auctionId} failed; retrying`, error),
  });
  await scheduler.start();

  let port = config.PORT;
  const deps: AppDeps = {
    config,
    get origin() {
      return publicOrigin(config, port);
    },
    events: stores.events,
    read: stores.read,
    engine,
    runner,
    accounts: stores.accounts,
    sessions: stores.sessions,
    sessionSecret: config.SESSION_SECRET ?? (await stores.keptSessionSecret()),
    images: stores.images,
    rateLimits: stores.rateLimits,
    storeHealth: (timeoutMs) => stores.health(timeoutMs),
    clusterHealth: cluster && clusterHealth(cluster),
    clock,
    log,
    realtime,
  };
  const { app, socketMiddleware, allowedOrigins } = createApp(deps, () => port);
  const server = createServer(app);
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
  const close = () =>
    (closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await engine.close();
      await gateway.close();
      await stopped;
      await scheduler.stop();
      await runner.stop();
      await stores.close();
    })());

  return { url: `http://${host}:${port}`, port, server, deps, close };
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
