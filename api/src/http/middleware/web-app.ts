import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';

const NOT_APP = /^\/(api|uploads|socket\.io)(\/|$)/;

/** Hashed build assets never change under their name; everything else is checked again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';

/** The encodings the build writes beside a file (scripts/build-web.ts), by preference. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

type Encoding = (typeof ENCODINGS)[number]['name'];

/** Each built file's URL path and the precompressed copies it has, read once at start-up. */
const compressedCopies = (dir: string): Map<string, Set<Encoding>> => {
  const copies = new Map<string, Set<Encoding>>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      for (const { name: encoding, suffix } of ENCODINGS) {
        if (!name.endsWith(suffix)) continue;
        const original = path.slice(0, -suffix.length);
        if (!existsSync(original)) continue;
        const url = `/${relative(dir, original).split(sep).join('/')}`;
        const known = copies.get(url) ?? new Set<Encoding>();
        known.add(encoding);
        copies.set(url, known);
      }
    }
  };
  walk(dir);
  return copies;
};

/**
 * Sends `url`'s file (under `dir`) in the best encoding the request accepts that the build wrote,
 * else as it is, with `Vary: Accept-Encoding` and the original's type; calls `next` when the file
 * is gone (a build replaced meanwhile).
 */
const sendBuilt = (
  dir: string,
  copies: Map<string, Set<Encoding>>,
  url: string,
  cacheControl: string,
  req: Request,
  res: Response,
  next: (error?: unknown) => void,
): void => {
  const available = copies.get(url);
  let file = url;
  if (available) {
    res.vary('Accept-Encoding');
    // Ours by preference among those the request accepts (q > 0): browsers list gzip first.
    const encoding = ENCODINGS.find(
      ({ name }) => available.has(name) && req.acceptsEncodings(name) === name,
    );
    if (encoding) {
      file = `${url}${encoding.suffix}`;
      res.setHeader('Content-Encoding', encoding.name);
    }
  }
  res.type(extname(url));
  res.setHeader('Cache-Control', cacheControl);
  res.sendFile(join(dir, file), { dotfiles: 'deny', cacheControl: false }, (error?: Error) => {
    if (!error) return;
    if (res.headersSent) return next(error);
    res.removeHeader('Content-Encoding');
    res.removeHeader('Content-Type');
    next();
  });
};

/**
 * The built single-page app: its files, and index.html for every other GET so the app's own
 * routes (`/auction/...`, `/dashboard/...`) load on a reload. Without a build, `/` says how to make one.
 * A file the build precompressed (`.br`, `.gz` beside it) is sent compressed to a browser that
 * accepts it. Hashed assets (`/assets/`) are cached for a year as immutable; index.html is
 * revalidated on every load, other files after an hour.
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
  const copies = compressedCopies(dir);
  // The precompressed copies of the build's own files; the rest (images, fonts) as they are.
  router.get(/.*/, (req, res, next) => {
    if (req.path === '/index.html')
      return sendBuilt(dir, copies, req.path, 'no-cache', req, res, next);
    if (!copies.has(req.path)) return next();
    const cache = req.path.startsWith('/assets/') ? IMMUTABLE : SHORT;
    sendBuilt(dir, copies, req.path, cache, req, res, next);
  });
  router.use(
    '/assets',
    express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }),
  );
  router.use(express.static(dir, { index: false, maxAge: '1h' }));
  router.get(/.*/, (req, res, next) => {
    if (NOT_APP.test(req.path) || !req.accepts('html')) return next();
    sendBuilt(dir, copies, '/index.html', 'no-cache', req, res, next);
  });
  return router;
};
