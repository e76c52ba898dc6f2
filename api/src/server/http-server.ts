import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '@auction/engine';
import type { AppDeps } from '../app-deps';
import { type Config, publicOrigin } from '../config/config';
import { createApp } from '../http/app';
import { RealtimeGateway } from '../realtime/gateway';
import { imageUrlsFor, withImageUrls } from '../stores/images/image-urls';
import { CachedSessionStore } from '../stores/sessions/session-cache';
import type { Stores } from './open-stores';
import type { ReadSide } from './read-side/read-models';
import { type WriteSide, clusterHealth } from './write-side';

/** What the app is built on: the stores, the engine and the read side. */
export interface HttpParts {
  readonly stores: Stores;
  readonly write: WriteSide;
  readonly read: ReadSide;
  readonly clock: Clock;
  readonly log: (message: string, error?: unknown) => void;
}

export interface Serving {
  readonly deps: AppDeps;
  readonly server: Server;
  readonly gateway: RealtimeGateway;
  readonly sessions: CachedSessionStore;
  /** The port it listens on (PORT, or the one picked for PORT=0). */
  readonly port: number;
  /** The host for its URL: `localhost` when it listens on every interface. */
  readonly host: string;
}

/**
 * The app, with its session cache, and the realtime gateway on a Node server, listening on
 * HOST:PORT. The origin the app and its image URLs name follows the port the server got.
 */
export const serveHttp = async (config: Config, parts: HttpParts): Promise<Serving> => {
  const { stores, write, read, log } = parts;
  // Sessions from memory; every change of one reaches the other nodes' memory on the broadcast.
  const sessions = new CachedSessionStore(stores.sessions, {
    cluster: write.cluster,
    maxAgeMs: config.SESSION_CACHE_MS,
    log,
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
    engine: write.engine,
    runner: read.runner,
    readiness: read.readiness,
    accounts: stores.accounts,
    users: withImageUrls(stores.accounts, imageUrl),
    imageUrl,
    sessions,
    sessionSecret: write.sessionSecret,
    images: stores.images,
    rateLimits: stores.rateLimits,
    storeHealth: (timeoutMs) => stores.health(timeoutMs),
    clusterHealth: write.cluster && clusterHealth(write.cluster),
    clock: parts.clock,
    log,
    realtime: read.realtime,
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
  read.realtime.attach(gateway);
  await gateway.start();
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  return { deps, server, gateway, sessions, port, host };
};
