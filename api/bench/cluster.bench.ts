/**
 * The cost of the Kafka hop: the same "spread" bid load on the same kind of stores (read models,
 * accounts, sessions and rate limits on MongoDB, the event log in SQLite), in one run, two ways:
 *   inProcess  one node (api/src/main.ts as a child process) without KAFKA_BROKERS: a bid goes
 *              from the HTTP route straight to the local actor
 *   kafka      three nodes with KAFKA_BROKERS on one shared DATA_DIR: a bid goes through the
 *              commands topic to the node that owns its auction's partition, and its outcome
 *              comes back on the sender's reply topic
 * N auctions (default 100) are created up front; bidders (default 30, spread round-robin over the
 * nodes, each talking to one node over keep-alive connections) bid on random auctions in closed
 * loops, each bid one increment above the highest amount sent or seen on that auction, so nearly all are
 * accepted. Per mode, in this order (each phase after a short warm-up of its own):
 *   refusedPath  bids of $1, below every starting price, one in flight at a time (rotating over
 *                the bidders, so over the nodes) and then every bidder at once: the command
 *                still travels to the auction's owner and back (409), but nothing is appended
 *                and the answer does not wait for the read side
 *   unloaded     accepted bids, one in flight at a time: the hop without queueing
 *   (top level)  after a warm-up, a fixed window (default 15 s) with every bidder at once:
 *                `bidsPerSec` counts accepted bids (201), `p50Ms`/`p99Ms` their latency from
 *                send to answer; a bid overtaken on the way is refused (4xx, `refused`);
 *                `errors` counts 5xx and failed requests
 * A 201 answers only once the catalog read model shows the bid (`sendCommand`, at most 2 s), so
 * accepted latencies include that wait as well as the hop. `serverCpu` is the nodes' CPU (cores)
 * in the window, not the broker's nor MongoDB's. `catchUpSeconds`: how long after the window the
 * catalog took to show the latest bids; `catalogTimeouts`: accepted bids of the window answered
 * after the 2 s wait ran out. Once a mode's nodes have stopped, every accepted bid is
 * looked up in the event log (`lost`, `duplicates`). `bids`: accepted bids of both windows.
 * One JSON line on stdout; everything else goes to stderr.
 *
 *   npm run bench:cluster [-- --quick] [-- --seconds 15 --bidders 30 --auctions 100 --nodes 3]
 *   (or BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_UNLOADED_SECONDS (each one-in-flight and
 *   refused phase, default 5), BENCH_BIDDERS, BENCH_AUCTIONS, BENCH_NODES; --quick: 5 s window,
 *   2 s phases, 30 auctions)
 *
 * KAFKA_BROKERS and MONGODB_URL name the broker and the MongoDB server to use; when one is unset,
 * the bench starts its own with scripts/kafka.sh (KAFKA_PORT, default 19092) or
 * scripts/ferretdb.sh (FERRETDB_PORT, default 27117) and stops it afterwards. Each run uses a
 * fresh topic prefix and fresh MongoDB databases (dropped at the end).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ChildServer, startChildServer } from '../src/testing/child-server';
import { dropTestStores } from '../src/testing/test-stores';
import {
  Http,
  type Reply,
  lostAndDuplicated,
  percentile,
  pool,
  round,
  shownBidIds,
  signUpAndLogIn,
  createLot,
  raiseDollars,
} from './bench-support';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
    bidders: { type: 'string' },
    auctions: { type: 'string' },
    nodes: { type: 'string' },
  },
});

const setting = (flag: string | undefined, envName: string, fallback: number): number => {
  const raw = flag ?? process.env[envName];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${envName} must be a positive number`);
  return n;
};
const seconds = setting(values.seconds, 'BENCH_SECONDS', values.quick ? 5 : 15);
const warmupSeconds = setting(values.warmup, 'BENCH_WARMUP_SECONDS', values.quick ? 2 : 3);
const unloadedSeconds = setting(undefined, 'BENCH_UNLOADED_SECONDS', values.quick ? 2 : 5);
const bidderCount = Math.round(setting(values.bidders, 'BENCH_BIDDERS', 30));
const auctionCount = Math.round(
  setting(values.auctions, 'BENCH_AUCTIONS', values.quick ? 30 : 100),
);
const kafkaNodeCount = Math.round(setting(values.nodes, 'BENCH_NODES', 3));
const partitions = Math.round(setting(undefined, 'KAFKA_PARTITIONS', 12));

const ROOT = resolve(import.meta.dirname, '../..');
const LIMIT = '1000000';
const say = (message: string) => console.error(`bench:cluster: ${message}`);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// The nodes inherit it: kafkajs warns about its default partitioner on every producer otherwise.
process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

/** What to undo on the way out, last first (also on Ctrl-C). */
const cleanups: (() => Promise<void>)[] = [];
const cleanUp = async () => {
  while (cleanups.length > 0) {
    const step = cleanups.pop() as () => Promise<void>;
    await step().catch((error: unknown) => say(`cleanup: ${String(error)}`));
  }
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    say(`${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// The broker and the MongoDB server: the environment's, or started here with the repo's scripts.

const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

const runScript = (script: string, command: string, env: Record<string, string>) =>
  new Promise<string>((done, fail) => {
    const child = execFile(
      'bash',
      [join(ROOT, 'scripts', script), command],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 1 << 20 },
      (error, stdout) =>
        error
          ? fail(new Error(`scripts/${script} ${command} failed`, { cause: error }))
          : done(stdout),
    );
    child.stderr?.pipe(process.stderr);
  });

/** `KAFKA_BROKERS` (or `MONGODB_URL`) from the environment, or from a server started for the run. */
const service = async (
  name: 'KAFKA_BROKERS' | 'MONGODB_URL',
  script: string,
  portVariable: string,
  defaultPort: number,
): Promise<{ value: string; how: 'given' | 'started' | 'reused' }> => {
  const given = process.env[name]?.trim();
  if (given) return { value: given, how: 'given' };
  const port = Number(process.env[portVariable] ?? defaultPort);
  // One already on that port, started by the same script, is reused and left running.
  const ours = !(await accepts(port));
  const env = { [portVariable]: String(port) };
  say(`${name} is not set: starting ${script} on port ${port}`);
  const stdout = await runScript(script, 'start', env);
  if (ours) cleanups.push(async () => void (await runScript(script, 'stop', env)));
  const line = stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith(`${name}=`)) throw new Error(`${script} start printed no ${name}=`);
  return { value: line.slice(name.length + 1), how: ours ? 'started' : 'reused' };
};

// ---------------------------------------------------------------------------------------------
// HTTP: one keep-alive client per node; a session cookie works on every node (shared sessions).

interface Bidder {
  readonly cookie: string;
  /** The node this bidder's requests go to. */
  readonly http: Http;
}

const signUpOn = async (http: Http): Promise<Bidder> => ({
  cookie: (await signUpAndLogIn(http)).cookie,
  http,
});

// ---------------------------------------------------------------------------------------------
// The load: every bidder in a closed loop on random auctions.

interface AuctionState {
  readonly id: string;
  /** The next amount to offer, in dollars: above every amount sent or seen so far. */
  next: number;
}

interface Tally {
  /** Answers of the kind the loop asked for: 201 for `accept`, 409 for `refuse`. */
  ok: number;
  /** Other 4xx answers (for `accept`, bids overtaken on the way). */
  refused: number;
  /** 5xx answers, answers of the wrong kind, and failed requests. */
  errors: number;
  readonly refusedBy: Map<string, number>;
  /** Of the `ok` answers, from send to answer. */
  readonly latencies: number[];
  /** Accepted bid id → auction id. */
  readonly accepted: Map<string, string>;
  firstError: string | undefined;
  elapsed: number;
}

const MINIMUM = /at least \$([\d,]+\.\d\d)/;

/**
 * `lanes` closed loops for `ms`, each sending its next bid once the last one is answered; with
 * fewer lanes than bidders, each lane takes the bidders (and so the nodes) in turn. `accept`
 * bids above the highest amount known on a random auction; `refuse` bids $1, below every
 * auction's starting price: the command still goes to the auction's owner and back (409), but
 * nothing is appended and the answer does not wait for the read side.
 */
const bidLoop = async (
  bidders: readonly Bidder[],
  auctions: readonly AuctionState[],
  ms: number,
  options: { lanes?: number; kind?: 'accept' | 'refuse' } = {},
): Promise<Tally> => {
  const lanes = options.lanes ?? bidders.length;
  const expected = options.kind === 'refuse' ? 409 : 201;
  const t: Tally = {
    ok: 0,
    refused: 0,
    errors: 0,
    refusedBy: new Map(),
    latencies: [],
    accepted: new Map(),
    firstError: undefined,
    elapsed: 0,
  };
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let turn = 0; performance.now() < deadline; turn++) {
        const bidder = bidders[(lane + turn * lanes) % bidders.length] as Bidder;
        const auction = auctions[Math.floor(Math.random() * auctions.length)] as AuctionState;
        let bidAmount = 1;
        if (expected === 201) {
          bidAmount = auction.next;
          auction.next = raiseDollars(auction.next);
        }
        const sent = performance.now();
        let reply: Reply;
        try {
          reply = await bidder.http.send('POST', '/bid/placeBid', bidder.cookie, {
            productId: auction.id,
            bidAmount,
          });
        } catch (error) {
          t.errors++;
          t.firstError ??= String(error);
          await sleep(10);
          continue;
        }
        const latency = performance.now() - sent;
        if (reply.status === 201) {
          t.accepted.set((reply.body.newBid as { _id: string })._id, auction.id);
          auction.next = Math.max(auction.next, raiseDollars(Number(reply.body.currentBid)));
        }
        const message = String(reply.body.message);
        const minimum = MINIMUM.exec(message)?.[1];
        if (minimum) auction.next = Math.max(auction.next, Number(minimum.replace(/,/g, '')));
        if (reply.status === expected) {
          t.ok++;
          t.latencies.push(latency);
        } else if (reply.status >= 400 && reply.status < 500 && expected === 201) {
          t.refused++;
          const kind = `${reply.status} ${message.replace(/\$[\d,.]+/g, '$N')}`;
          t.refusedBy.set(kind, (t.refusedBy.get(kind) ?? 0) + 1);
        } else {
          t.errors++;
          t.firstError ??= `${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`;
        }
      }
    }),
  );
  t.elapsed = (performance.now() - started) / 1000;
  return t;
};

/** Rate, latency percentiles and counts of one measured phase. */
const summary = (t: Tally) => {
  const sorted = t.latencies.slice().sort((a, b) => a - b);
  return {
    perSec: round(t.ok / t.elapsed, 1),
    p50Ms: round(percentile(sorted, 0.5)),
    p90Ms: round(percentile(sorted, 0.9)),
    p99Ms: round(percentile(sorted, 0.99)),
    maxMs: round(sorted.at(-1) ?? 0),
    count: t.ok,
    refused: t.refused,
    ...(t.refused > 0 ? { refusedBy: Object.fromEntries(t.refusedBy) } : {}),
    errors: t.errors,
    ...(t.firstError ? { firstError: t.firstError.slice(0, 300) } : {}),
    seconds: round(t.elapsed),
  };
};

/**
 * Waits until each of the latest accepted bids shows in its auction's detail (the catalog has
 * caught up with the load); returns how long that took, in seconds, or null after `timeoutMs`.
 */
const catchUp = async (
  http: Http,
  accepted: ReadonlyMap<string, string>,
  timeoutMs = 120_000,
): Promise<number | null> => {
  const started = performance.now();
  const deadline = started + timeoutMs;
  for (const [bidId, auctionId] of [...accepted].slice(-bidderCount)) {
    for (;;) {
      const left = deadline - performance.now();
      if (left <= 0) {
        say(`the catalog did not show bid ${bidId} within ${timeoutMs / 1000} s`);
        return null;
      }
      if ((await shownBidIds(http, auctionId, left))?.includes(bidId)) break;
      await sleep(200);
    }
  }
  return round((performance.now() - started) / 1000);
};

// ---------------------------------------------------------------------------------------------
// One mode: start its nodes, set up users and auctions, warm up, measure, stop, check the log.

interface Mode {
  readonly name: 'inProcess' | 'kafka';
  readonly nodes: number;
  /** KAFKA_BROKERS for its nodes; undefined: no cluster, the bids stay in the process. */
  readonly brokers: string | undefined;
}

interface Stores {
  readonly mongodbUrl: string;
}

/** Waits until every node owns partitions and together they own each partition exactly once. */
const settled = async (clients: readonly Http[], timeoutMs = 90_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const owned = await Promise.all(
      clients.map(async (http) => {
        try {
          const res = await http.send('GET', '/health');
          return ((res.body.cluster as { owned?: number[] } | undefined)?.owned ?? []).slice();
        } catch {
          return [];
        }
      }),
    );
    const all = owned.flat();
    const last = JSON.stringify(owned);
    if (
      owned.every((list) => list.length > 0) &&
      all.length === partitions &&
      new Set(all).size === partitions
    ) {
      say(`partitions settled: ${last}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`the cluster did not settle: owned ${last}`);
    await sleep(250);
  }
};

/**
 * How many times the nodes logged that an accepted command's answer gave up waiting for the
 * catalog (`catalogReaches` in api/src/http/commands.ts: the 201 went out after 2 s without it).
 */
const catalogLags = (servers: readonly ChildServer[]): number =>
  servers.reduce(
    (sum, server) =>
      sum + (server.output().match(/The catalog is behind a committed write/g) ?? []).length,
    0,
  );

const stopAll = async (servers: readonly ChildServer[]): Promise<boolean> => {
  const hows = await Promise.all(
    servers.map(async (server) => {
      const timer = setTimeout(() => void server.stop('SIGKILL'), 60_000);
      const how = await server.stop('SIGTERM');
      clearTimeout(timer);
      if (how !== 0) say(`node ${server.pid} exited with ${how}:\n${server.output().slice(-6000)}`);
      return how;
    }),
  );
  return hows.every((how) => how === 0);
};

const runMode = async (mode: Mode, stores: Stores): Promise<Record<string, unknown>> => {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-cluster-${mode.name}-`));
  const storeEnv = {
    MONGODB_URL: stores.mongodbUrl,
    MONGODB_DB: `bench_cluster_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
  };
  cleanups.push(async () => {
    await dropTestStores(storeEnv);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const prefix = `bench-${randomUUID().replace(/-/g, '').slice(0, 8)}.`;
  const servers: ChildServer[] = [];
  let stopped = false;
  cleanups.push(async () => {
    if (!stopped) await stopAll(servers);
  });

  const startedAt = performance.now();
  for (let i = 0; i < mode.nodes; i++) {
    // One after the other: the first creates the topics; each resolves once it has partitions.
    const server = await startChildServer(
      {
        ...storeEnv,
        DATA_DIR: dataDir,
        EVENTSTORE_CONNECTION_STRING: '',
        KAFKA_BROKERS: mode.brokers ?? '',
        KAFKA_TOPIC_PREFIX: mode.brokers ? prefix : '',
        KAFKA_PARTITIONS: String(partitions),
        NODE_ID: `bench-${mode.name}-${i + 1}`,
        RATE_LIMIT_BIDS: LIMIT,
        RATE_LIMIT_LOGIN: LIMIT,
        RATE_LIMIT_SIGNUP: LIMIT,
        RATE_LIMIT_AUCTIONS: LIMIT,
        RATE_LIMIT_AUCTIONS_PER_ADDRESS: LIMIT,
      },
      { startTimeoutMs: 120_000 },
    );
    servers.push(server);
    say(`${mode.name}: node ${i + 1}/${mode.nodes} listens on ${server.url} (pid ${server.pid})`);
  }
  const clients = servers.map(
    (server) =>
      new Http(
        new URL(server.url.replace('localhost', '127.0.0.1')),
        Math.ceil(bidderCount / servers.length) + 8,
      ),
  );
  try {
    if (mode.brokers) await settled(clients);
    const startSeconds = round((performance.now() - startedAt) / 1000);

    const setupStarted = performance.now();
    const nodeOf = (i: number) => clients[i % clients.length] as Http;
    const seller = await signUpOn(nodeOf(0));
    const bidders = await pool(
      Array.from({ length: bidderCount }, (_, i) => i),
      Math.max(2, cpus().length * 2),
      (i) => signUpOn(nodeOf(i)),
    );
    const auctions: AuctionState[] = await pool(
      Array.from({ length: auctionCount }, (_, i) => i),
      8,
      async (i) => ({ id: await createLot(nodeOf(i), seller.cookie, `Lot ${i}`), next: 100 }),
    );
    const setupSeconds = round((performance.now() - setupStarted) / 1000);

    const phase = (what: string, ms: number) => say(`${mode.name}: ${what} for ${ms / 1000} s`);
    const unloadedMs = unloadedSeconds * 1000;
    // The read side catches up with the set-up (accounts, auctions) before anything is measured.
    await sleep(3000);
    // Refused bids first, while no projection has work: the command path alone (owner and back),
    // nothing appended, no read-side wait.
    phase('warm-up, refused bids', 1000);
    await bidLoop(bidders, auctions, 1000, { lanes: 1, kind: 'refuse' });
    phase('refused bids, one in flight', unloadedMs);
    const refusedOne = await bidLoop(bidders, auctions, unloadedMs, { lanes: 1, kind: 'refuse' });
    phase('refused bids, every bidder', unloadedMs);
    const refusedAll = await bidLoop(bidders, auctions, unloadedMs, { kind: 'refuse' });
    // Accepted bids one at a time, before any backlog: the hop without queueing.
    phase('warm-up, one bid in flight', 2000);
    const calm = await bidLoop(bidders, auctions, 2000, { lanes: 1 });
    phase('accepted bids, one in flight', unloadedMs);
    const unloaded = await bidLoop(bidders, auctions, unloadedMs, { lanes: 1 });
    phase('warm-up, every bidder', warmupSeconds * 1000);
    const warmup = await bidLoop(bidders, auctions, warmupSeconds * 1000);
    phase('accepted bids, every bidder (measured)', seconds * 1000);
    const cpuBefore = servers.map((server) => server.cpuSeconds());
    const lagsBefore = catalogLags(servers);
    const t = await bidLoop(bidders, auctions, seconds * 1000);
    const cpuAfter = servers.map((server) => server.cpuSeconds());
    const catalogTimeouts = catalogLags(servers) - lagsBefore;
    const serverCpu = cpuAfter.every((c) => c !== undefined)
      ? cpuAfter.reduce<number>((sum, c, i) => sum + (c ?? 0) - (cpuBefore[i] ?? 0), 0)
      : undefined;

    const accepted = new Map([
      ...calm.accepted,
      ...unloaded.accepted,
      ...warmup.accepted,
      ...t.accepted,
    ]);
    say(`${mode.name}: waiting for the catalog to show the latest accepted bids`);
    const catchUpSeconds = await catchUp(nodeOf(0), t.accepted);
    for (const http of clients) http.agent.destroy();
    stopped = true;
    const stopStarted = performance.now();
    const cleanExit = await stopAll(servers);
    const stopSeconds = round((performance.now() - stopStarted) / 1000);
    const log = await lostAndDuplicated(dataDir, accepted);

    const loaded = summary(t);
    const brief = (tally: Tally) => {
      const { perSec, p50Ms, p99Ms, count, errors } = summary(tally);
      return { perSec, p50Ms, p99Ms, count, errors };
    };
    const result = {
      nodes: mode.nodes,
      bidsPerSec: Math.round(t.ok / t.elapsed),
      p50Ms: loaded.p50Ms,
      p90Ms: loaded.p90Ms,
      p99Ms: loaded.p99Ms,
      maxMs: loaded.maxMs,
      accepted: t.ok,
      refused: loaded.refused,
      ...(loaded.refusedBy ? { refusedBy: loaded.refusedBy } : {}),
      errors: loaded.errors,
      ...(loaded.firstError ? { firstError: loaded.firstError } : {}),
      ...(serverCpu === undefined
        ? {}
        : {
            serverCpu: round(serverCpu / t.elapsed),
            serverCpuMsPerBid: round((serverCpu * 1000) / Math.max(1, t.ok), 3),
          }),
      unloaded: { ...brief(unloaded), refused: unloaded.refused },
      refusedPath: { oneInFlight: brief(refusedOne), everyBidder: brief(refusedAll) },
      catalogTimeouts,
      otherErrors: calm.errors + warmup.errors,
      catchUpSeconds,
      lost: log.lost,
      duplicates: log.duplicates,
      cleanExit,
      stopSeconds,
      seconds: loaded.seconds,
      startSeconds,
      setupSeconds,
    };
    say(`${mode.name}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    for (const http of clients) http.agent.destroy();
  }
};

const main = async () => {
  const benchStarted = performance.now();
  const mongo = await service('MONGODB_URL', 'ferretdb.sh', 'FERRETDB_PORT', 27117);
  const kafka = await service('KAFKA_BROKERS', 'kafka.sh', 'KAFKA_PORT', 19092);
  const stores: Stores = { mongodbUrl: mongo.value };
  say(
    `spread: ${auctionCount} auctions, ${bidderCount} bidders, ${seconds} s per mode ` +
      `(warm-up ${warmupSeconds} s); MongoDB ${mongo.value}, Kafka ${kafka.value}`,
  );

  const inProcess = await runMode({ name: 'inProcess', nodes: 1, brokers: undefined }, stores);
  const clustered = await runMode(
    { name: 'kafka', nodes: kafkaNodeCount, brokers: kafka.value },
    stores,
  );

  const ratio = (a: unknown, b: unknown) => (Number(b) > 0 ? round(Number(a) / Number(b), 3) : 0);
  const minus = (a: unknown, b: unknown) => round(Number(a) - Number(b));
  type Brief = { perSec: number; p50Ms: number; p99Ms: number };
  const unloadedOf = (mode: Record<string, unknown>) => mode.unloaded as Brief;
  const refusedOf = (mode: Record<string, unknown>) =>
    mode.refusedPath as { oneInFlight: Brief; everyBidder: Brief };
  console.log(
    JSON.stringify({
      bench: 'cluster',
      scenario: 'spread',
      auctions: auctionCount,
      bidders: bidderCount,
      bids: Number(inProcess.accepted) + Number(clustered.accepted),
      partitions,
      inProcess,
      kafka: clustered,
      overhead: {
        p50Ms: minus(clustered.p50Ms, inProcess.p50Ms),
        p99Ms: minus(clustered.p99Ms, inProcess.p99Ms),
        throughputRatio: ratio(clustered.bidsPerSec, inProcess.bidsPerSec),
        unloadedP50Ms: minus(unloadedOf(clustered).p50Ms, unloadedOf(inProcess).p50Ms),
        refusedOneInFlightP50Ms: minus(
          refusedOf(clustered).oneInFlight.p50Ms,
          refusedOf(inProcess).oneInFlight.p50Ms,
        ),
        refusedEveryBidderP50Ms: minus(
          refusedOf(clustered).everyBidder.p50Ms,
          refusedOf(inProcess).everyBidder.p50Ms,
        ),
        refusedThroughputRatio: ratio(
          refusedOf(clustered).everyBidder.perSec,
          refusedOf(inProcess).everyBidder.perSec,
        ),
        ...(clustered.serverCpuMsPerBid !== undefined && inProcess.serverCpuMsPerBid !== undefined
          ? {
              serverCpuPerBidRatio: ratio(clustered.serverCpuMsPerBid, inProcess.serverCpuMsPerBid),
            }
          : {}),
      },
      services: { mongodb: mongo.how, kafka: kafka.how },
      totalSeconds: round((performance.now() - benchStarted) / 1000),
      node: process.version,
      cores: cpus().length,
      memGiB: Math.round(totalmem() / 2 ** 30),
    }),
  );
};

let failed = false;
try {
  await main();
} catch (error) {
  failed = true;
  say(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
