import { API_BASE, serviceOperations } from '@auction/contracts';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { AppDeps } from '../app-deps';
import { auditRoutes } from './routes/audit/routes';
import { auctionRoutes } from './routes/auctions/routes';
import { createPassport } from './routes/auth/passport';
import { authRoutes } from './routes/auth/routes';
import { bidRoutes } from './routes/bids/routes';
import { corsFor } from './middleware/cors';
import { anyCrossSite } from '../config/cross-origin';
import { csrfGuard } from './middleware/csrf';
import { errorHandler, notFound } from './middleware/errors';
import { openApiRoute } from './openapi';
import { routesOn } from './route';
import { healthRoute, readinessGate } from './middleware/readiness';
import { ReadYourWrites } from './middleware/read-your-writes';
import { inSequence } from './middleware/in-sequence';
import { securityHeaders } from './middleware/security-headers';
import { sessionMiddleware } from './middleware/session';
import { UPLOADS_PATH } from '../stores/images/image-store';
import { bodyLimits } from './middleware/body-limits';
import { userRoutes } from './routes/users/routes';
import { watchlistRoutes } from './routes/watchlist/routes';
import { webApp } from './middleware/web-app';
import { countOp, countingOps } from '../stores/op-counts';

/**
 * Origins a browser may send mutating requests from: the public one and its loopback twins, and
 * the clients of `CORS_ORIGINS`.
 */
const allowedOrigins = (deps: AppDeps, port: number): string[] => [
  deps.origin,
  `http://localhost:${port}`,
  `http://127.0.0.1:${port}`,
  ...(deps.config.CORS_ORIGINS ?? []),
];

/** The CSRF guard on the current allowed origins, rebuilt only when the port changes. */
const csrfGuardFor = (deps: AppDeps, port: () => number): RequestHandler => {
  let guard: { port: number; handler: RequestHandler } | undefined;
  return (req, res, next) => {
    const current = port();
    if (guard?.port !== current)
      guard = { port: current, handler: csrfGuard(allowedOrigins(deps, current)) };
    guard.handler(req, res, next);
  };
};

/** What every response carries first: the security headers and, with CORS_ORIGINS, CORS. */
const outerLayers = (app: Express, deps: AppDeps): void => {
  app.use(
    securityHeaders({
      contentSecurityPolicy: {
        directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'upgrade-insecure-requests': null },
      },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: deps.origin.startsWith('https:'),
    }),
  );
  const cors = deps.config.CORS_ORIGINS;
  if (cors) {
    // Clients served elsewhere (CORS_ORIGINS): CORS on the API and the images, first (so every
    // answer carries it), and the images loadable from their pages (the security headers say
    // same-origin for everything else).
    const corsHeaders = corsFor(cors);
    app.use(API_BASE, corsHeaders);
    app.use(UPLOADS_PATH, corsHeaders, (_req, res, next) => {
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      next();
    });
  }
  // Before anything reads a body: slow bodies time out, uploads in progress are bounded.
  app.use(
    bodyLimits({
      timeoutMs: deps.config.BODY_TIMEOUT_MS,
      uploadsInProgress: deps.config.UPLOADS_IN_PROGRESS,
    }),
  );
};

const json = express.json({ limit: '100kb', strict: true });
/**
 * JSON bodies. A request without a body (no Content-Length, no Transfer-Encoding: what
 * body-parser checks first) has nothing to parse: most API requests are reads.
 */
const jsonBody: RequestHandler = (req, res, next) =>
  req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined
    ? next()
    : json(req, res, next);

/** `/api/v1`: one router layer for what runs before the routes, then the routes by feature. */
const apiRouter = (
  deps: AppDeps,
  port: () => number,
  session: RequestHandler,
  consistency: ReadYourWrites,
): Router => {
  const passport = createPassport(deps);
  const api = express.Router();
  api.use(
    inSequence(
      jsonBody,
      session,
      csrfGuardFor(deps, port),
      // A request that carries the token of a write waits, bounded, for the read models it reads
      // to show that write (read-your-writes.ts); while they catch up at start the gate decides.
      consistency.middleware(),
      // While the read models catch up at start: reads wait briefly, then answer 503 (readiness.ts).
      readinessGate(deps.readiness),
    ),
  );
  const route = routesOn(api);
  route(serviceOperations.health, healthRoute(deps, consistency));
  route(serviceOperations.openapi, openApiRoute);
  api.use('/auth', authRoutes(deps, passport));
  api.use('/auction', auctionRoutes(deps, passport, consistency));
  api.use('/user', userRoutes(deps, passport));
  api.use('/bid', bidRoutes(deps, passport, consistency));
  api.use('/audit', auditRoutes(deps));
  api.use(watchlistRoutes(deps, consistency));
  api.use(notFound);
  api.use(errorHandler(deps.log));
  return api;
};

/** The HTTP app: `/api/v1` (JSON, sessions, CSRF), the uploaded images and the web app. */
export const createApp = (deps: AppDeps, port: () => number) => {
  const session = sessionMiddleware(deps);
  const consistency = new ReadYourWrites(deps, {
    waitMs: deps.config.READ_WAIT_MS,
    // The token's cookie goes where the session's does (session.ts).
    secure: deps.origin.startsWith('https:'),
    crossSite: anyCrossSite(deps.origin, deps.config.CORS_ORIGINS ?? []),
  });
  const app = express();
  app.disable('x-powered-by');
  // JSON answers are computed per request; no ETag hash of every body.
  app.set('etag', false);
  app.set('trust proxy', deps.config.TRUST_PROXY ? 1 : false);
  if (countingOps) {
    // The cluster benchmark's counts (stores/op-counts.ts): requests by method and path.
    app.use((req, _res, next) => {
      countOp(`http ${req.method} ${req.path.replace(/\/[0-9a-f-]{16,}/gi, '/:id')}`);
      next();
    });
  }
  outerLayers(app, deps);
  app.use(API_BASE, apiRouter(deps, port, session, consistency));
  app.use(UPLOADS_PATH, deps.images.serve);
  app.use(webApp(deps.config.WEB_DIR));
  app.use(notFound);
  app.use(errorHandler(deps.log));
  return {
    app,
    /** What a socket's handshake runs, so it carries the same session and user. */
    socketMiddleware: [session],
    allowedOrigins: () => allowedOrigins(deps, port()),
  };
};
