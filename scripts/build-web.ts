/**
 * `npm run build` (and the first step of `npm start`): builds the web app into `web/dist`, only
 * when it is out of date, and safely when several processes start at once.
 *
 *   node --import tsx scripts/build-web.ts [--force] [--root <dir>]
 *
 * - **Up to date** means `dist/.build-stamp` holds the hash of the build's inputs: the web app's
 *   sources, public files, HTML, Vite and TypeScript configuration, the contracts package, the
 *   lockfile, this script, and the `VITE_*` variables. Then nothing is built (a few milliseconds).
 *   `--force` builds anyway.
 * - **Concurrent builds** take turns on a lock file beside the output (`dist.lock`, holding the
 *   builder's pid; one left by a process that died is taken over). A process that waited finds
 *   the stamp fresh and builds nothing.
 * - **Never half a build.** Vite writes into `dist.build-<pid>`, the stamp is written last, and
 *   the directory is then renamed into place (the old one renamed aside first and removed): a
 *   build cut short leaves the old `dist` as it was.
 *
 * - **Precompressed.** Every text file of the build (scripts, styles, HTML, SVG, JSON) gets a
 *   brotli (`.br`) and a gzip (`.gz`) copy beside it, each kept only when smaller, for the server
 *   to send by the request's Accept-Encoding (api/src/http/middleware/web-app.ts) without
 *   compressing anything per request.
 *
 * `--root <dir>` builds another Vite project (its every file but `dist*` and `node_modules` is an
 * input); the tests use it on a small one.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import {
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const REPO = resolve(import.meta.dirname, '..');
const STAMP = '.build-stamp';
const LOCK_WAIT_MS = 10 * 60_000;

export interface WebBuildOptions {
  /** The Vite project (its `vite.config.ts`, when there is one, applies). */
  readonly root: string;
  /** Files and directories whose contents decide whether the build is up to date. */
  readonly inputs: readonly string[];
  /** Build even when the stamp is fresh. */
  readonly force?: boolean;
  readonly log?: (line: string) => void;
}

export type WebBuildResult = {
  readonly built: boolean;
  readonly ms: number;
  readonly outDir: string;
};

/** The inputs of the repository's web app, `web/`. */
export const webInputs = (): string[] => {
  const web = join(REPO, 'web');
  const envFiles = readdirSync(web)
    .filter((name) => name.startsWith('.env'))
    .map((name) => join(web, name));
  return [
    ...[
      'index.html',
      'public',
      'src',
      'vite.config.ts',
      'package.json',
      'tsconfig.json',
      'tsconfig.app.json',
      'tsconfig.node.json',
    ].map((name) => join(web, name)),
    ...envFiles,
    join(REPO, 'packages/contracts/src'),
    join(REPO, 'packages/contracts/package.json'),
    join(REPO, 'package-lock.json'),
    join(REPO, 'tsconfig.base.json'),
    join(REPO, 'scripts/build-web.ts'),
  ];
};

/** Every file of a project but its outputs and dependencies. */
const projectInputs = (root: string): string[] =>
  readdirSync(root)
    .filter((name) => name !== 'node_modules' && name !== 'dist' && !name.startsWith('dist.'))
    .map((name) => join(root, name));

const filesUnder = (path: string, into: string[]): void => {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) filesUnder(join(path, name), into);
  } else {
    into.push(path);
  }
};

/** The files a browser fetches as text, which compress well; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest)$/;

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip, best) beside every compressible
 * file under `dir`, each only when it is smaller than the file.
 */
const precompress = (dir: string): void => {
  const files: string[] = [];
  filesUnder(dir, files);
  for (const file of files) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    const brotli = brotliCompressSync(content, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    const gzip = gzipSync(content, { level: zlib.Z_BEST_COMPRESSION });
    if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
  }
};

/** The hash of the inputs' paths and contents, and of the `VITE_*` variables Vite bakes in. */
export const inputStamp = (inputs: readonly string[]): string => {
  const files: string[] = [];
  for (const input of inputs) filesUnder(input, files);
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(REPO, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  for (const [name, value] of Object.entries(process.env).sort(([a], [b]) => a.localeCompare(b)))
    if (name.startsWith('VITE_')) hash.update(`${name}=${value ?? ''}\0`);
  return hash.digest('hex');
};

const readStamp = (outDir: string): string | undefined => {
  try {
    return readFileSync(join(outDir, STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Takes the lock file, waiting for a live holder and taking over a dead one's. */
const acquire = async (lock: string, log: (line: string) => void): Promise<() => void> => {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
    } catch {
      continue; // released meanwhile
    }
    // A pid not written yet reads as 0 (NaN when empty): wait for it rather than take over.
    if (holder > 0 && !alive(holder)) {
      log(`${relative(REPO, lock)}: its holder (pid ${holder}) is gone; taking it over`);
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lock} is still held by pid ${holder}`);
    if (!told) log(`Waiting for the web build of pid ${holder} (${relative(REPO, lock)})`);
    told = true;
    await sleep(100);
  }
};

/**
 * Builds `root` into `root/dist` unless its stamp matches the inputs; concurrent callers (other
 * processes) build once between them.
 */
export const buildWeb = async (options: WebBuildOptions): Promise<WebBuildResult> => {
  const started = performance.now();
  const log = options.log ?? ((line: string) => console.log(line));
  const outDir = join(options.root, 'dist');
  const shown = relative(REPO, outDir) || outDir;
  const stamp = inputStamp(options.inputs);
  const done = (built: boolean): WebBuildResult => {
    const ms = Math.round(performance.now() - started);
    log(built ? `${shown}: built in ${ms} ms` : `${shown}: up to date (checked in ${ms} ms)`);
    return { built, ms, outDir };
  };
  if (!options.force && readStamp(outDir) === stamp) return done(false);

  const release = await acquire(`${outDir}.lock`, log);
  try {
    // Another process may have built it while this one waited.
    if (!options.force && readStamp(outDir) === stamp) return done(false);
    const temporary = `${outDir}.build-${process.pid}`;
    const old = `${outDir}.old-${process.pid}`;
    rmSync(temporary, { recursive: true, force: true });
    const configFile = join(options.root, 'vite.config.ts');
    // Imported only to build: a start with nothing to build does not load Vite.
    const { build } = await import('vite');
    await build({
      root: options.root,
      configFile: existsSync(configFile) ? configFile : false,
      logLevel: 'warn',
      build: { outDir: temporary, emptyOutDir: true },
    });
    precompress(temporary);
    writeFileSync(join(temporary, STAMP), `${stamp}\n`);
    rmSync(old, { recursive: true, force: true });
    if (existsSync(outDir)) renameSync(outDir, old);
    renameSync(temporary, outDir);
    rmSync(old, { recursive: true, force: true });
    return done(true);
  } finally {
    release();
  }
};

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({
    options: { force: { type: 'boolean', default: false }, root: { type: 'string' } },
  });
  const root = values.root ? resolve(values.root) : join(REPO, 'web');
  try {
    await buildWeb({
      root,
      inputs: values.root ? projectInputs(root) : webInputs(),
      force: values.force,
    });
  } catch (error) {
    console.error('The web build failed:', error);
    process.exit(1);
  }
}
