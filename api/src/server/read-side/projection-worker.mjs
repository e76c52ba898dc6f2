// The projections' thread's entry, plain JavaScript so that it loads without a TypeScript loader
// (a Worker does not inherit `node --import tsx` on Node 20, and under vitest there is none): it
// loads `projection-worker.ts` bundled (`worker-bundle.mjs`: one file, built on first use and
// whenever a source changed), else through tsx, which compiles each file in this thread.
import { bundled } from './worker-bundle.mjs';

const entry = new URL('./projection-worker.ts', import.meta.url);
const bundle = await bundled(entry).catch(() => undefined);
if (bundle) {
  // Stack traces name the TypeScript files (the bundle carries its source map).
  process.setSourceMapsEnabled(true);
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(entry.href);
}
