import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  AuctionActorRegistry,
  ClosingScheduler,
  type Clock,
  seedFixedCategories,
  systemClock,
} from '@auction/engine';
import { ProjectionRunner, allProjections, notificationCursors } from '@auction/projections';
import { SqliteAccountStore } from './accounts/sqlite-account-store';
import type { AppDeps } from './app-deps';
import { createApp } from './app';
import { type Config, publicOrigin } from './config';
import { SqliteSessionStore } from './http/session-store';
import { ImageStore } from './http/uploads';
import { RealtimeGateway } from './realtime/gateway';
import { RealtimeLink } from './realtime/realtime-link';
import { openEmbeddedStores } from './stores';

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
 * The whole product in one process on the embedded stores: event log, read models, accounts,
 * sessions and images under DATA_DIR. Resolves once it can serve (read models caught up,
 * overdue auctions closed).
 */
export const startServer = async (
  config: Config,
  options: { clock?: Clock; log?: (message: string, error?: unknown) => void } = {},
): Promise<RunningServer> => {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? defaultLog;
  const stores = openEmbeddedStores(config);
  await seedFixedCategories(stores.events, new Date(clock.now()).toISOString());
  await notificationCursors(stores.read).init();
  const bus = new AuctionActorRegistry({ store: stores.events, clock });
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
    bus,
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
    bus,
    runner,
    accounts: new SqliteAccountStore(join(config.DATA_DIR, 'accounts.sqlite')),
    sessions: new SqliteSessionStore(join(config.DATA_DIR, 'sessions.sqlite'), () => clock.now()),
    images: new ImageStore(join(config.DATA_DIR, 'uploads')),
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
      await bus.close();
      await gateway.close();
      await stopped;
      await scheduler.stop();
      await runner.stop();
      deps.sessions.close();
      deps.accounts.close();
      await stores.close();
    })());

  return { url: `http://${host}:${port}`, port, server, deps, close };
};
