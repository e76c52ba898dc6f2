// A TypeScript entry and everything it imports from this repository as one JavaScript file, built
// with esbuild on first use and kept under node_modules/.cache/auction-marketplace/, so that a
// worker thread loads it without a TypeScript loader: tsx compiles and resolves ~120 files one by
// one in every new thread, which takes seconds on a busy machine. npm packages stay imports, as
// they are. The bundle is built again, by whoever asks first, when any file it was built from
// changed (size or modification time) or is gone: there is no build step to remember. Plain
// JavaScript, like the worker entries that use it.
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'auction-marketplace');

/** Each input's size and modification time, as the manifest keeps them. */
const fingerprint = async (file) => {
  const { size, mtimeMs } = await stat(join(ROOT, file));
  return `${size}:${mtimeMs}`;
};

const fresh = async (manifestFile) => {
  try {
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    const checks = await Promise.all(
      Object.entries(manifest.inputs).map(
        async ([file, print]) => (await fingerprint(file).catch(() => undefined)) === print,
      ),
    );
    return checks.every(Boolean);
  } catch {
    return false;
  }
};

/**
 * Keeps `import.meta.url` of each bundled file its own (a worker's file next to it, such as the
 * event log's writer thread, is still found), and leaves every npm package an import.
 */
const keepLocations = {
  name: 'keep-locations',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@auction/') ? undefined : { path: args.path, external: true },
    );
    build.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return {
        contents: source.replaceAll(
          'import.meta.url',
          JSON.stringify(pathToFileURL(args.path).href),
        ),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

/**
 * The bundle of `entry` (a file URL of a .ts module), built when missing or stale; undefined when
 * it cannot be built (no esbuild installed): the caller then loads the TypeScript through tsx.
 */
export const bundled = async (entry) => {
  const entryFile = fileURLToPath(entry);
  const name = relative(ROOT, entryFile).replace(/[\\/]/g, '_').replace(/\.ts$/, '');
  const outfile = join(CACHE, `${name}.mjs`);
  const manifestFile = join(CACHE, `${name}.json`);
  if (await fresh(manifestFile)) return pathToFileURL(outfile);
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  // Written beside and renamed: a process that starts meanwhile reads the old one or the new one.
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  await mkdir(dirname(outfile), { recursive: true });
  const startedAt = performance.timeOrigin + performance.now();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entryFile],
    outfile: outfile + suffix,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    sourcemap: 'inline',
    metafile: true,
    logLevel: 'silent',
    plugins: [keepLocations],
  });
  // esbuild names the inputs relative to its working directory, the repository's root.
  const inputs = {};
  let changedMeanwhile = false;
  for (const file of Object.keys(result.metafile.inputs)) {
    inputs[file] = await fingerprint(file);
    if ((await stat(join(ROOT, file))).mtimeMs >= startedAt) changedMeanwhile = true;
  }
  await rename(outfile + suffix, outfile);
  // A file edited during the build may not be in it: no manifest, so the next thread builds again.
  if (changedMeanwhile) return pathToFileURL(outfile);
  await writeFile(manifestFile + suffix, JSON.stringify({ inputs }));
  await rename(manifestFile + suffix, manifestFile);
  return pathToFileURL(outfile);
};
