/**
 * Every benchmark, one after another, each printing its own JSON line(s) unchanged.
 *
 *   npm run bench [-- --quick]      (--quick is passed to each: about a minute apiece)
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });

const root = resolve(import.meta.dirname, '..');
const benchmarks = [
  'engine/bench/engine.bench.ts',
  'projections/bench/projections.bench.ts',
  'api/bench/startup.bench.ts',
  'api/bench/fanout.bench.ts',
  'api/bench/http.bench.ts',
  // Debian's Chromium (or CHROMIUM_PATH) on the web build as it stands (`npm run build` first).
  'api/bench/web.bench.ts',
  // Starts its own Kafka and FerretDB (scripts/kafka.sh, scripts/ferretdb.sh) unless
  // KAFKA_BROKERS and MONGODB_URL name them.
  'api/bench/cluster.bench.ts',
  // Starts its own FerretDB unless MONGODB_URL names a server.
  'api/bench/rate-limit-store.bench.ts',
];

const run = (file: string): Promise<number> =>
  new Promise((done, fail) => {
    // --expose-gc: the engine benchmark measures memory after full collections.
    const args = [
      '--expose-gc',
      '--import',
      'tsx',
      resolve(root, file),
      ...(values.quick ? ['--quick'] : []),
    ];
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.once('error', fail);
    child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });

const failed: string[] = [];
for (const file of benchmarks) {
  if ((await run(file)) !== 0) failed.push(file);
}
if (failed.length > 0) {
  console.error(`Failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
