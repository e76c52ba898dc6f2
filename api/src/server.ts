import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClosingScheduler, type Clock, Engine, systemClock } from '@auction/engine';
import { ProjectionRunner, allProjections, notificationCursors } from '@auction/projections';
import type { AppDeps } from './app-deps';
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
  const engine = new Engine({ store: stores.events, clock });
  await engine.seedFixedCategories(new Date(clock.now()).toISOString());
  await notificationCursors(stores.read).init();
  const realtime = new RealtimeLink();
  const runner = new ProjectionRunner({
    source: stores.events,
    store: stores.read,
    projections: allProjections,
    onError: (error, name) => log(`Projection ${name} failed; retrying`, error),
    onCommitted: (name, writes) => realtime.projectionCommitted(name, writes),
  });
  await runner.start();
  const scheduler = new ClosingScheduler({
    store: stores.events,
    bus: engine,
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
