import express from 'express';
import helmet from 'helmet';
import type { AppDeps } from './app-deps';
import { auditRoutes } from './http/audit/routes';
import { auctionRoutes } from './http/auctions/routes';
import { createPassport } from './http/auth/passport';
import { authRoutes } from './http/auth/routes';
import { bidRoutes } from './http/bids/routes';
import { csrfGuard } from './http/csrf';
import { errorHandler, notFound } from './http/errors';
import { openApiRoute } from './http/openapi';
import { respond } from './http/respond';
import { sessionMiddleware } from './http/session';
import { UPLOADS_PATH } from './http/uploads';
import { userRoutes } from './http/users/routes';
import { webApp } from './http/web-app';

/** Origins a browser may send mutating requests from: the public one and its loopback twins. */
const allowedOrigins = (deps: AppDeps, port: number): string[] => [
  deps.origin,
  `http://localhost:${port}`,
  `http://127.0.0.1:${port}`,
];

/** The HTTP app: `/api/v1` (JSON, sessions, CSRF) and the uploaded images. */
export const createApp = (deps: AppDeps, port: () => number) => {
  const session = sessionMiddleware(deps);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY ? 1 : false);
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'upgrade-insecure-requests': null },
      },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: deps.origin.startsWith('https:'),
    }),
  );

  const passport = createPassport(deps);
  const api = express.Router();
  api.use(express.json({ limit: '100kb', strict: true }));
  api.use(session);
  api.use(passport.initialize());
  api.use(passport.session());
  api.use((req, res, next) => csrfGuard(allowedOrigins(deps, port()))(req, res, next));
  api.get('/health', async (_req, res) => {
    const [stores, cluster] = await Promise.all([deps.storeHealth(), deps.clusterHealth?.()]);
    const ok =
      Object.values(stores).every((store) => store.reachable) && (cluster?.reachable ?? true);
    const message = ok
      ? 'OK'
      : cluster?.reachable === false
        ? 'Kafka is unreachable'
        : 'A store is unreachable';
    respond(res, ok ? 200 : 503, message, { stores, ...(cluster ? { cluster } : {}) });
  });
  api.get('/openapi.json', openApiRoute);
  api.use('/auth', authRoutes(deps, passport));
  api.use('/auction', auctionRoutes(deps, passport));
  api.use('/user', userRoutes(deps, passport));
  api.use('/bid', bidRoutes(deps, passport));
  api.use('/audit', auditRoutes(deps));
  api.use(notFound);
  api.use(errorHandler(deps.log));

  app.use('/api/v1', api);
  app.use(UPLOADS_PATH, deps.images.serve);
  app.use(webApp(deps.config.WEB_DIR));
  app.use(notFound);
  app.use(errorHandler(deps.log));
  return {
    app,
    /** What a socket's handshake runs, so it carries the same session and user. */
    socketMiddleware: [session, passport.initialize(), passport.session()],
    allowedOrigins: () => allowedOrigins(deps, port()),
  };
};
