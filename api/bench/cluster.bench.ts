/**
 * The whole picture of scaling out, in one run: the same bid load on three setups, each on two
 * scenarios, with the ratios between them.
 *   embedded  one node (api/src/main.ts as a child process) on the embedded stores: the baseline
 *   mongodb   one node with the read side, accounts, sessions and rate limits on the MongoDB
 *             wire-protocol server (the event log stays in SQLite)
 *   kafka     three nodes on the same server and a Kafka broker, one shared DATA_DIR: a bid goes
 *             through the commands topic to the node that owns its auction's partition, and its
 *             outcome comes back on the sender's reply topic
 * Scenarios: `spread` (N auctions, default 100) and `hot` (one auction every bidder wants).
 * Bidders (default 30, spread round-robin over the nodes, each on keep-alive connections to its
 * node) bid in closed loops on random auctions of the scenario, each bid above the highest amount
 * sent or seen on that auction. Per setup, after set-up: a phase of accepted bids one in flight
 * (`unloaded`: the path without queueing), then per scenario a warm-up and a fixed window
 * (default 15 s) with every bidder at once:
 *   bidsPerSec, p50Ms..maxMs   accepted bids (201) and their latency from send to answer
 *   refused, decidedPerSec     bids overtaken on the way (4xx; most of them in `hot`), and all
 *                              bids decided either way
 *   catalogLag*                how long after a 201 a stranger's read of the auction (no
 *                              consistency token: it never waits) shows that price, sampled on
 *                              the last node throughout the window
 *   serverCpu                  the nodes' CPU (cores) in the window, not the broker's nor MongoDB's
 *   catchUpSeconds             how long after the window the catalog took to show the last bids
 * A 201 answers from the command's outcome; it does not wait for the read side. Once a setup's
 * nodes have stopped, every accepted bid is looked up in the event log (`lost`, `duplicates`).
 * `ratios` are bids per second of one setup over another, per scenario (the targets: mongodb over
 * embedded and kafka over mongodb at least 0.5); `server` names the MongoDB server and, for
 * FerretDB, its backend. One JSON line on stdout; everything else goes to stderr.
 *
 *   npm run bench:cluster [-- --quick] [-- --seconds 15 --bidders 30 --auctions 100 --nodes 3]
 *     [-- --counts] [-- --setups mongodb,kafka]
 *   (or BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_UNLOADED_SECONDS (default 5), BENCH_BIDDERS,
 *   BENCH_AUCTIONS, BENCH_NODES; --quick: 5 s windows, 2 s phases, 30 auctions)
 *
 * --counts (or BENCH_OP_COUNTS=1) adds `counts` to each setup: what its nodes sent to their stores
 * and broker (OP_COUNTS_DIR, api/src/stores/op-counts.ts: MongoDB wire commands by name and
 * collection with their round-trip milliseconds, Kafka produces, consumes, fetches and offset
 * commits, HTTP requests by path), per second while idle (`idlePerSec`: the work done by the
 * clock), per accepted bid one in flight (`unloadedPerBid`, the second after included for the read
 * side), and per accepted bid of each scenario (window, lag probe and catch-up included).
 * --setups embedded,mongodb,kafka (or BENCH_SETUPS) runs only those (ratios need both sides).
 *
 * BENCH_NODE_ARGS gives every server node's own flags (a profile of each node:
 * `BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/profiles'`).
 *
 * KAFKA_BROKERS and MONGODB_URL name the broker and the MongoDB server to use; when one is unset,
 * the bench starts its own with scripts/kafka.sh (KAFKA_PORT, default 19092) or
 * scripts/ferretdb.sh (FERRETDB_PORT, default 27117; FERRETDB_BACKEND picks SQLite or PostgreSQL)
 * and stops it afterwards. Each run uses a fresh topic prefix and fresh MongoDB databases
 * (dropped at the end).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
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
    counts: { type: 'boolean', default: false },
    setups: { type: 'string' },
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
const counting = values.counts || process.env.BENCH_OP_COUNTS === '1';
/** The setups to run (all three by default): a subset gives no ratios that need the others. */
const only = new Set(
  (values.setups ?? process.env.BENCH_SETUPS ?? 'embedded,mongodb,kafka')
    .split(',')
    .map((name) => name.trim()),
);

const ROOT = resolve(import.meta.dirname, '../..');
const LIMIT = '1000000';
const say = (message: string) => console.error(`bench:cluster: ${message}`);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

// The nodes inherit it: kafkajs warns about its default partitioner on every producer otherwise.
process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

/** A bid unanswered this long counts as an error (FerretDB can stall; the run must still end). */
const BID_TIMEOUT_MS = 30_000;

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
  // As scripts/with-mongodb.sh does for a FerretDB it starts (unset only; blank stays blank):
  // FerretDB 1.24 runs out of connections on write commands of many statements.
  if (name === 'MONGODB_URL') process.env.MONGODB_STATEMENTS_PER_COMMAND ??= '8';
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
  options: {
    lanes?: number;
    kind?: 'accept' | 'refuse';
    /** Told of each 201: the auction, the price it answered with (dollars), when it arrived. */
    onAccepted?: (auctionId: string, currentBid: number, at: number) => void;
  } = {},
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
          // Bounded: a store that stops answering shows as errors, not as a run that never ends.
          reply = await bidder.http.send(
            'POST',
            '/bid/placeBid',
            bidder.cookie,
            { productId: auction.id, bidAmount },
            BID_TIMEOUT_MS,
          );
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
          options.onAccepted?.(auction.id, Number(reply.body.currentBid), performance.now());
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

/**
 * The catalog's lag behind acknowledged bids while a window runs. Every 100 ms the latest bid
 * answered 201 becomes a sample. One reader, a stranger (no consistency token, so its reads never
 * wait), reads the auction of the oldest sample still unseen, one read at a time; a read that
 * shows a price at least the one a sample's bid was answered with sees every such sample of that
 * auction. A sample's lag is from its 201 to the answer of the first read that showed it (ms).
 * After the window the reader goes on until every sample is seen (at most 2 minutes), so a
 * catalog far behind is measured, not cut short. The reader's load stays one request in flight.
 */
const catalogLagProbe = (http: Http) => {
  let latest: { auctionId: string; currentBid: number; at: number } | undefined;
  const pending: { auctionId: string; currentBid: number; at: number }[] = [];
  const samples: number[] = [];
  let windowOpen = true;
  let stoppedAt = Number.POSITIVE_INFINITY;
  const sampler = setInterval(() => {
    if (latest) pending.push(latest);
    latest = undefined;
  }, 100);
  const reading = (async () => {
    while (windowOpen || (pending.length > 0 && performance.now() < stoppedAt + 120_000)) {
      const oldest = pending[0];
      if (!oldest) {
        await sleep(10);
        continue;
      }
      const reply = await http
        .send(
          'GET',
          `/auction/fetchSpecificAuction?auctionId=${oldest.auctionId}`,
          undefined,
          undefined,
          10_000,
        )
        .catch(() => undefined);
      const answeredAt = performance.now();
      const shown = (reply?.body.auctionDetails as { currentBid?: number } | undefined)?.currentBid;
      if (shown !== undefined) {
        for (let i = pending.length - 1; i >= 0; i--) {
          const sample = pending[i] as (typeof pending)[number];
          if (sample.auctionId === oldest.auctionId && sample.currentBid <= shown) {
            samples.push(answeredAt - sample.at);
            pending.splice(i, 1);
          }
        }
      }
      if (pending[0] === oldest) await sleep(10);
    }
  })();
  return {
    onAccepted: (auctionId: string, currentBid: number, at: number) => {
      latest = { auctionId, currentBid, at };
    },
    /** Ends the window; resolves once every sample was seen: the lag percentiles (ms). */
    stop: async () => {
      clearInterval(sampler);
      if (latest) pending.push(latest);
      windowOpen = false;
      stoppedAt = performance.now();
      await reading;
      const sorted = samples.slice().sort((a, b) => a - b);
      return {
        catalogLagP50Ms: round(percentile(sorted, 0.5)),
        catalogLagP99Ms: round(percentile(sorted, 0.99)),
        catalogLagMaxMs: round(sorted.at(-1) ?? 0),
        catalogLagSamples: sorted.length,
        ...(pending.length > 0 ? { catalogLagUnseen: pending.length } : {}),
      };
    },
  };
};

// ---------------------------------------------------------------------------------------------
// Counts of the nodes' store and broker work (--counts): every node's threads write their running
// totals to OP_COUNTS_DIR (api/src/stores/op-counts.ts); a phase's counts are the difference of
// the sums before and after it.

type Counts = Map<string, number>;

const readCounts = async (dir: string): Promise<Counts> => {
  // The nodes write every 200 ms: wait for the last of the phase to land.
  await sleep(450);
  const sum: Counts = new Map();
  for (const file of readdirSync(dir)) {
    try {
      const counts = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, number>;
      for (const [key, n] of Object.entries(counts)) sum.set(key, (sum.get(key) ?? 0) + n);
    } catch {
      // Being rewritten: the next read has it.
    }
  }
  return sum;
};

/** What happened between two reads, divided by `per`, keys sorted, values rounded. */
const countsPer = (before: Counts, after: Counts, per: number): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const key of [...after.keys()].sort()) {
    const n = ((after.get(key) ?? 0) - (before.get(key) ?? 0)) / Math.max(per, 1e-9);
    if (n >= 0.005) out[key] = round(n, 2);
  }
  return out;
};

// ---------------------------------------------------------------------------------------------
// One setup: start its nodes, set up users and auctions, then per scenario warm up and measure;
// stop, check the log.

/** Node's own flags for every server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`. */
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

type SetupName = 'embedded' | 'mongodb' | 'kafka';

interface Setup {
  readonly name: SetupName;
  readonly nodes: number;
  /** The read side, accounts, sessions and rate limits on this MongoDB; undefined: embedded. */
  readonly mongodbUrl: string | undefined;
  /** KAFKA_BROKERS for its nodes; undefined: no cluster, the bids stay in the process. */
  readonly brokers: string | undefined;
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

const scenarios = ['spread', 'hot'] as const;
type Scenario = (typeof scenarios)[number];

const runSetup = async (setup: Setup): Promise<Record<string, unknown>> => {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-cluster-${setup.name}-`));
  const storeEnv = {
    MONGODB_URL: setup.mongodbUrl ?? '',
    MONGODB_DB: `bench_cluster_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
  };
  cleanups.push(async () => {
    await dropTestStores(storeEnv);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const prefix = `bench-${randomUUID().replace(/-/g, '').slice(0, 8)}.`;
  const countsDir = counting ? join(dataDir, 'op-counts') : '';
  const servers: ChildServer[] = [];
  let stopped = false;
  cleanups.push(async () => {
    if (!stopped) await stopAll(servers);
  });

  const startedAt = performance.now();
  for (let i = 0; i < setup.nodes; i++) {
    // One after the other: the first creates the topics; each resolves once it has partitions.
    const server = await startChildServer(
      {
        ...storeEnv,
        DATA_DIR: dataDir,
        EVENTSTORE_CONNECTION_STRING: '',
        KAFKA_BROKERS: setup.brokers ?? '',
        KAFKA_TOPIC_PREFIX: setup.brokers ? prefix : '',
        KAFKA_PARTITIONS: String(partitions),
        NODE_ID: `bench-${setup.name}-${i + 1}`,
        RATE_LIMIT_BIDS: LIMIT,
        RATE_LIMIT_LOGIN: LIMIT,
        RATE_LIMIT_SIGNUP: LIMIT,
        RATE_LIMIT_AUCTIONS: LIMIT,
        RATE_LIMIT_AUCTIONS_PER_ADDRESS: LIMIT,
        OP_COUNTS_DIR: countsDir,
      },
      { startTimeoutMs: 120_000, nodeArgs },
    );
    servers.push(server);
    say(`${setup.name}: node ${i + 1}/${setup.nodes} listens on ${server.url} (pid ${server.pid})`);
  }
  const clients = servers.map(
    (server) =>
      new Http(
        new URL(server.url.replace('localhost', '127.0.0.1')),
        Math.ceil(bidderCount / servers.length) + 8,
      ),
  );
  try {
    if (setup.brokers) await settled(clients);
    const startSeconds = round((performance.now() - startedAt) / 1000);

    const setupStarted = performance.now();
    const nodeOf = (i: number) => clients[i % clients.length] as Http;
    const seller = await signUpOn(nodeOf(0));
    const bidders = await pool(
      Array.from({ length: bidderCount }, (_, i) => i),
      Math.max(2, cpus().length * 2),
      (i) => signUpOn(nodeOf(i)),
    );
    const lots: Record<Scenario, AuctionState[]> = {
      spread: await pool(
        Array.from({ length: auctionCount }, (_, i) => i),
        8,
        async (i) => ({ id: await createLot(nodeOf(i), seller.cookie, `Lot ${i}`), next: 100 }),
      ),
      hot: [{ id: await createLot(nodeOf(0), seller.cookie, 'The hot lot'), next: 100 }],
    };
    const setupSeconds = round((performance.now() - setupStarted) / 1000);

    const phase = (what: string, ms: number) => say(`${setup.name}: ${what} for ${ms / 1000} s`);
    // The read side catches up with the set-up (accounts, auctions) before anything is measured.
    await sleep(3000);
    const counts: Record<string, Record<string, number>> = {};
    if (counting) {
      // With nothing asked: what the nodes do by the clock (polls, leases, heartbeats).
      const before = await readCounts(countsDir);
      const idleStarted = performance.now();
      await sleep(3000);
      const after = await readCounts(countsDir);
      counts.idlePerSec = countsPer(before, after, (performance.now() - idleStarted) / 1000);
    }
    const unloadedMs = unloadedSeconds * 1000;
    phase('warm-up, one bid in flight', 2000);
    const calm = await bidLoop(bidders, lots.spread, 2000, { lanes: 1 });
    phase('accepted bids, one in flight', unloadedMs);
    const unloadedBefore = counting ? await readCounts(countsDir) : undefined;
    const unloaded = await bidLoop(bidders, lots.spread, unloadedMs, { lanes: 1 });
    if (unloadedBefore) {
      // The read side's work for the phase's last bids lands after it.
      await sleep(1000);
      counts.unloadedPerBid = countsPer(unloadedBefore, await readCounts(countsDir), unloaded.ok);
    }

    const accepted = new Map([...calm.accepted, ...unloaded.accepted]);
    let otherErrors = calm.errors;
    const measured: Partial<Record<Scenario, Record<string, unknown>>> = {};
    for (const scenario of scenarios) {
      phase(`${scenario}: warm-up, every bidder`, warmupSeconds * 1000);
      const warmup = await bidLoop(bidders, lots[scenario], warmupSeconds * 1000);
      phase(`${scenario}: accepted bids, every bidder (measured)`, seconds * 1000);
      const countsBefore = counting ? await readCounts(countsDir) : undefined;
      const cpuBefore = servers.map((server) => server.cpuSeconds());
      // A stranger on the last node: in the cluster, often not the node that took the bid.
      const probe = catalogLagProbe(nodeOf(clients.length - 1));
      const t = await bidLoop(bidders, lots[scenario], seconds * 1000, {
        onAccepted: probe.onAccepted,
      });
      const lag = await probe.stop();
      const cpuAfter = servers.map((server) => server.cpuSeconds());
      const serverCpu = cpuAfter.every((c) => c !== undefined)
        ? cpuAfter.reduce<number>((sum, c, i) => sum + (c ?? 0) - (cpuBefore[i] ?? 0), 0)
        : undefined;
      say(`${setup.name}: ${scenario}: waiting for the catalog to show the latest accepted bids`);
      const catchUpSeconds = await catchUp(nodeOf(0), t.accepted);
      // Window, lag probe and catch-up: per accepted bid (the probe's reads included).
      if (countsBefore) {
        counts[`${scenario}PerBid`] = countsPer(countsBefore, await readCounts(countsDir), t.ok);
      }
      for (const [bidId, auctionId] of [...warmup.accepted, ...t.accepted])
        accepted.set(bidId, auctionId);
      otherErrors += warmup.errors;
      const loaded = summary(t);
      measured[scenario] = {
        auctions: lots[scenario].length,
        bidsPerSec: Math.round(t.ok / t.elapsed),
        p50Ms: loaded.p50Ms,
        p90Ms: loaded.p90Ms,
        p99Ms: loaded.p99Ms,
        maxMs: loaded.maxMs,
        accepted: t.ok,
        refused: loaded.refused,
        ...(loaded.refusedBy ? { refusedBy: loaded.refusedBy } : {}),
        // Decided either way: in the hot scenario most bids are overtaken on the way (409).
        decidedPerSec: round((t.ok + t.refused) / t.elapsed, 1),
        errors: loaded.errors,
        ...(loaded.firstError ? { firstError: loaded.firstError } : {}),
        ...lag,
        ...(serverCpu === undefined
          ? {}
          : {
              serverCpu: round(serverCpu / t.elapsed),
              serverCpuMsPerBid: round((serverCpu * 1000) / Math.max(1, t.ok), 3),
            }),
        catchUpSeconds,
        seconds: loaded.seconds,
      };
    }
    for (const http of clients) http.agent.destroy();
    stopped = true;
    const stopStarted = performance.now();
    const cleanExit = await stopAll(servers);
    const stopSeconds = round((performance.now() - stopStarted) / 1000);
    const log = await lostAndDuplicated(dataDir, accepted);

    const { perSec, p50Ms, p99Ms, count, errors } = summary(unloaded);
    const result = {
      nodes: setup.nodes,
      ...measured,
      unloaded: { perSec, p50Ms, p99Ms, count, errors, refused: unloaded.refused },
      otherErrors,
      bids: accepted.size,
      lost: log.lost,
      duplicates: log.duplicates,
      cleanExit,
      stopSeconds,
      startSeconds,
      setupSeconds,
      ...(counting ? { counts } : {}),
    };
    say(`${setup.name}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    for (const http of clients) http.agent.destroy();
  }
};

/**
 * What the MongoDB wire-protocol server is: FerretDB names its version in `buildInfo` but not its
 * backend, which is the one this run started it on, or `FERRETDB_BACKEND` when it was given.
 */
const describeServer = async (url: string, started: boolean): Promise<string> => {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    if (typeof info.ferretdbVersion !== 'string') return `MongoDB ${String(info.version)}`;
    const backend = process.env.FERRETDB_BACKEND ?? (started ? 'sqlite' : undefined);
    return `FerretDB ${info.ferretdbVersion} (${backend ?? 'backend not given: set FERRETDB_BACKEND'})`;
  } finally {
    await client.close();
  }
};

const main = async () => {
  const benchStarted = performance.now();
  const mongo = await service('MONGODB_URL', 'ferretdb.sh', 'FERRETDB_PORT', 27117);
  const kafka = await service('KAFKA_BROKERS', 'kafka.sh', 'KAFKA_PORT', 19092);
  const server = await describeServer(mongo.value, mongo.how === 'started');
  say(
    `${auctionCount} auctions (spread) and 1 (hot), ${bidderCount} bidders, ${seconds} s per ` +
      `scenario (warm-up ${warmupSeconds} s); ${server} at ${mongo.value}, Kafka ${kafka.value}`,
  );

  const all: readonly Setup[] = [
    { name: 'embedded', nodes: 1, mongodbUrl: undefined, brokers: undefined },
    { name: 'mongodb', nodes: 1, mongodbUrl: mongo.value, brokers: undefined },
    { name: 'kafka', nodes: kafkaNodeCount, mongodbUrl: mongo.value, brokers: kafka.value },
  ];
  const results: Partial<Record<SetupName, Record<string, unknown>>> = {};
  for (const setup of all) {
    if (only.has(setup.name)) results[setup.name] = await runSetup(setup);
  }

  const rate = (setup: SetupName, scenario: Scenario) =>
    Number((results[setup]?.[scenario] as { bidsPerSec: number } | undefined)?.bidsPerSec ?? 0);
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 3) : 0);
  const ratios = (a: SetupName, b: SetupName) =>
    results[a] && results[b]
      ? Object.fromEntries(
          scenarios.map((scenario) => [scenario, ratio(rate(a, scenario), rate(b, scenario))]),
        )
      : undefined;
  const lagP99 = Object.fromEntries(
    (Object.keys(results) as SetupName[]).map((setup) => [
      setup,
      Object.fromEntries(
        scenarios.map((scenario) => [
          scenario,
          (results[setup]?.[scenario] as { catalogLagP99Ms: number }).catalogLagP99Ms,
        ]),
      ),
    ]),
  );
  console.log(
    JSON.stringify({
      bench: 'cluster',
      auctions: auctionCount,
      bidders: bidderCount,
      partitions,
      server,
      ...results,
      // The targets: each at least 0.5; catalog lag p99 under 1,000 ms.
      ratios: {
        mongodbOverEmbedded: ratios('mongodb', 'embedded'),
        kafkaOverMongodb: ratios('kafka', 'mongodb'),
        kafkaOverEmbedded: ratios('kafka', 'embedded'),
      },
      catalogLagP99Ms: lagP99,
      bids: (Object.values(results) as { bids: number }[]).reduce((sum, r) => sum + r.bids, 0),
      lost: (Object.values(results) as { lost: number }[]).reduce((sum, r) => sum + r.lost, 0),
      duplicates: (Object.values(results) as { duplicates: number }[]).reduce(
        (sum, r) => sum + r.duplicates,
        0,
      ),
      services: { mongodb: mongo.how, kafka: kafka.how },
      // The read models' MongoDB write commands: at most this many statements each (blank: no cap).
      statementsPerCommand: process.env.MONGODB_STATEMENTS_PER_COMMAND?.trim() || null,
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
