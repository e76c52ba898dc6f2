/**
 * The MongoDB rate-limit store against the one it replaced, on the same server in the same run:
 *   counter        `MongoRateLimitStore` (src/stores/rate-limits/mongo-rate-limit-store.ts): one counter document
 *                  per key and window, one `findOneAndUpdate` + `$inc` by `_id` per request at most
 *   hitPerDocument `HitPerDocumentRateLimitStore` (hit-per-document-rate-limit-store.ts): one
 *                  document inserted per request, then `countDocuments({k, w})`
 * For each number of documents already in the collection (default 2,000 and 20,000: other keys'
 * counters, or other keys' hits, in the current window) and each scenario, both stores run in
 * turn (interleaved: counter, old, counter, old...) on a fresh database:
 *   spread  30 concurrent callers (one node's in-flight requests), each on a key of its own, as
 *           bidders on the per-user bid limit
 *   hot     30 concurrent callers on one key, as one address on the sign-up limit
 * each for a fixed window (default 5 s) after a 1 s warm-up, in closed loops. `perSec`: increments
 * answered per second; `p50Ms`/`p99Ms`: their latency; `serverCpu`: the server process's CPU
 * (cores) over the window and `serverCpuMsPerIncrement`, read from /proc when the server runs on
 * this machine (the pid its `serverStatus` gives); `counted`: what the key's counter says after the
 * window beside `increments` answered (hot: lost updates show as fewer). One JSON line per number
 * of documents and scenario on stdout; everything else goes to stderr.
 *
 *   npm run bench:rate-limit [-- --quick] [-- --seconds 5 --callers 30 --docs 2000,20000]
 *
 * MONGODB_URL names the server to use; unset, the bench starts FerretDB with scripts/ferretdb.sh
 * (FERRETDB_PORT, default 27117) and stops it afterwards.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Options, Store } from 'express-rate-limit';
import { MongoClient } from 'mongodb';
import {
  MongoRateLimitStore,
  ferretDbVersion,
  rateLimitCollection,
} from '../src/stores/rate-limits/mongo-rate-limit-store';
import { procCpuSeconds } from '../src/testing/child-server';
import { percentile, round } from './bench-support';
import { HitPerDocumentRateLimitStore } from './hit-per-document-rate-limit-store';

const ROOT = resolve(import.meta.dirname, '../..');
const say = (message: string) => process.stderr.write(`[bench:rate-limit] ${message}\n`);

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    callers: { type: 'string' },
    docs: { type: 'string' },
  },
  allowPositionals: true,
});
const seconds = Number(args.seconds ?? (args.quick ? 2 : 5));
const warmupSeconds = args.quick ? 0.5 : 1;
const callers = Number(args.callers ?? 30);
const docCounts = (args.docs ?? '2000,20000').split(',').map(Number);
const WINDOW_MS = 60 * 60_000;

type Kind = 'counter' | 'hitPerDocument';
type Scenario = 'spread' | 'hot';

// ---------------------------------------------------------------------------------------------
// The server: MONGODB_URL, or FerretDB started here.

let started: { port: string } | undefined;
const startServer = (): string => {
  const given = process.env.MONGODB_URL?.trim();
  if (given) return given;
  const port = process.env.FERRETDB_PORT ?? '27117';
  say(`MONGODB_URL is not set: starting scripts/ferretdb.sh on port ${port}`);
  const out = execFileSync('bash', [join(ROOT, 'scripts/ferretdb.sh'), 'start'], {
    cwd: ROOT,
    env: { ...process.env, FERRETDB_PORT: port },
    stdio: ['ignore', 'pipe', 'inherit'],
  }).toString();
  started = { port };
  const line = out.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('MONGODB_URL=')) throw new Error('scripts/ferretdb.sh printed no URL');
  return line.slice('MONGODB_URL='.length);
};

/**
 * The server's process, when it runs on this machine: its pid (`serverStatus` says it) if /proc
 * has it under the name `serverStatus` gives, and the backend its command line names.
 */
const serverProcess = async (
  client: MongoClient,
): Promise<{ pid: number | undefined; backend: string | undefined }> => {
  const status = await client.db('admin').command({ serverStatus: 1 });
  const pid = Number(status.pid);
  try {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== String(status.process)) {
      throw new Error('another process has that pid here');
    }
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const handler = argv.find((a) => a.startsWith('--handler='))?.slice('--handler='.length);
    return { pid, backend: handler ?? (status.process === 'mongod' ? 'mongod' : undefined) };
  } catch {
    say('the server is not a process of this machine: its CPU is not reported');
    return { pid: undefined, backend: undefined };
  }
};

const stopServer = () => {
  if (!started) return;
  execFileSync('bash', [join(ROOT, 'scripts/ferretdb.sh'), 'stop'], {
    cwd: ROOT,
    env: { ...process.env, FERRETDB_PORT: started.port },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started = undefined;
};

// ---------------------------------------------------------------------------------------------
// One measurement: a fresh database holding `docs` documents of other keys, then the callers.

const window = () => Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;

/** Other keys' documents, in each store's own shape, in the current window. */
const preload = async (client: MongoClient, dbName: string, kind: Kind, docs: number) => {
  const w = window();
  const e = new Date(w + WINDOW_MS);
  const batch = 1_000;
  for (let i = 0; i < docs; i += batch) {
    const n = Math.min(batch, docs - i);
    if (kind === 'counter') {
      await client
        .db(dbName)
        .collection<{ _id: string }>(rateLimitCollection('bids:'))
        .insertMany(
          Array.from({ length: n }, (_, j) => ({
            _id: `${w}:bids:other-${i + j}`,
            p: 'bids:',
            n: 5,
            e,
            t: 'preload',
          })),
        );
    } else {
      // Ten hits per other key, as many keys as it takes.
      await client
        .db(dbName)
        .collection('rate_limits')
        .insertMany(
          Array.from({ length: n }, (_, j) => ({
            p: 'bids:',
            k: `bids:other-${Math.floor((i + j) / 10)}`,
            w,
            e,
          })),
        );
    }
  }
};

interface Measured {
  readonly perSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly increments: number;
  readonly errors: number;
  readonly counted: number;
  readonly serverCpu: number | null;
  readonly serverCpuMsPerIncrement: number | null;
}

const measure = async (
  client: MongoClient,
  pid: number | undefined,
  kind: Kind,
  scenario: Scenario,
  docs: number,
): Promise<Measured> => {
  const dbName = `bench_rate_limit_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  try {
    const store: Store =
      kind === 'counter'
        ? new MongoRateLimitStore(client, dbName, 'bids:')
        : new HitPerDocumentRateLimitStore(client, dbName, 'bids:');
    await store.init?.({ windowMs: WINDOW_MS, limit: 1e9 } as Options);
    await preload(client, dbName, kind, docs);
    const keyOf = (caller: number) => (scenario === 'hot' ? 'hot' : `bidder-${caller}`);

    let phase: 'warmup' | 'measure' | 'stop' = 'warmup';
    const latencies: number[] = [];
    let errors = 0;
    const loop = async (caller: number) => {
      while (phase !== 'stop') {
        const at = performance.now();
        try {
          await store.increment(keyOf(caller));
          if (phase === 'measure') latencies.push(performance.now() - at);
        } catch (error) {
          if (phase === 'measure') errors++;
          if (errors === 1) say(`${kind}: ${String(error)}`);
        }
      }
    };
    const loops = Array.from({ length: callers }, (_, i) => loop(i));
    await new Promise((done) => setTimeout(done, warmupSeconds * 1000));
    const cpuBefore = pid ? procCpuSeconds(pid) : undefined;
    const t0 = performance.now();
    phase = 'measure';
    await new Promise((done) => setTimeout(done, seconds * 1000));
    const elapsed = (performance.now() - t0) / 1000;
    const cpuAfter = pid ? procCpuSeconds(pid) : undefined;
    phase = 'stop';
    await Promise.all(loops);
    const counted = (await store.get?.(keyOf(0)))?.totalHits ?? 0;

    latencies.sort((a, b) => a - b);
    const cpu =
      cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
    return {
      perSec: round(latencies.length / elapsed, 1),
      p50Ms: round(percentile(latencies, 0.5)),
      p99Ms: round(percentile(latencies, 0.99)),
      increments: latencies.length,
      errors,
      counted,
      serverCpu: cpu === undefined ? null : round(cpu / elapsed),
      serverCpuMsPerIncrement:
        cpu === undefined || latencies.length === 0
          ? null
          : round((cpu * 1000) / latencies.length, 3),
    };
  } finally {
    await client.db(dbName).dropDatabase();
  }
};

// ---------------------------------------------------------------------------------------------

const main = async () => {
  const url = startServer();
  const client = await MongoClient.connect(url);
  try {
    const ferret = await ferretDbVersion(client);
    const { pid, backend } = await serverProcess(client);
    const server = `${ferret ? `FerretDB ${ferret}` : 'MongoDB'}${backend ? ` (${backend})` : ''}`;
    say(`server: ${server} at ${url}, pid ${pid ?? 'unknown'}`);
    for (const docs of docCounts) {
      for (const scenario of ['spread', 'hot'] as const) {
        const counter = await measure(client, pid, 'counter', scenario, docs);
        const hitPerDocument = await measure(client, pid, 'hitPerDocument', scenario, docs);
        process.stdout.write(
          `${JSON.stringify({
            bench: 'rate-limit-store',
            scenario,
            docsInCollection: docs,
            callers,
            counter,
            hitPerDocument,
            ratio: round(counter.perSec / Math.max(hitPerDocument.perSec, 0.1), 1),
            serverCpuMsRatio:
              counter.serverCpuMsPerIncrement && hitPerDocument.serverCpuMsPerIncrement
                ? round(hitPerDocument.serverCpuMsPerIncrement / counter.serverCpuMsPerIncrement, 1)
                : null,
            server,
            seconds,
            node: process.version,
            cores: cpus().length,
            memGiB: Math.round(totalmem() / 2 ** 30),
          })}\n`,
        );
      }
    }
  } finally {
    await client.close();
    stopServer();
  }
};

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopServer();
    process.exit(130);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  stopServer();
  process.exit(1);
});
