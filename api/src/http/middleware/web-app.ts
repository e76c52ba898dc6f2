import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';

const NOT_APP = /^\/(api|uploads|socket\.io)(\/|$)/;

/**
 * The built single-page app: its files, and index.html for every other GET so the app's own
 * routes (`/auction/...`, `/dashboard/...`) load on a reload. Without a build, `/` says how to make one.
 */
export const webApp = (dir: string): Router => {
  const router = express.Router();
  const index = join(dir, 'index.html');
  if (!existsSync(index)) {
    router.get('/', (_req, res) => {
      res
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (npm start does it), then reload.');
    });
    return router;
  }
  router.use(
    '/assets',
    express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }),
  );
  router.use(express.static(dir, { index: false, maxAge: '1h' }));
  router.get(/.*/, (req, res, next) => {
    if (NOT_APP.test(req.path) || !req.accepts('html')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
};
