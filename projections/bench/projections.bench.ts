/**
 * 1. Rebuild rate: every projection built from zero over a log of at least 100,000 events, beside
 *    the raw limit measured on the same rows in the same run (`raw-rebuild.ts`: read, parse,
 *    upsert one document per event in 1,000-row commits), and the read store's size beside the
 *    event log's. `ratio` compares events per second; `cpuRatio` events per CPU second of this
 *    process (user and system), which moves less when other work shares the machine.
 * 2. Lag: bids arrive at a steady rate through the engine; the time from each bid's
 *    acknowledgement until the catalog has applied it (p50/p99).
 * Prints one JSON line.   npm run bench:projections [-- --quick] [-- --events 100000 --rate 500]
 *
 * With MONGODB_URL, the read models live on that server (a database of their own, dropped after)
 * instead of SQLite, written `MONGODB_STATEMENTS_PER_COMMAND` statements per command (unset: bulk
 * writes); the raw limit and the sizes, which are SQLite's, are left out. `BENCH_SERVER` names the
 * server in the line (e.g. `ferretdb-sqlite`), and `BENCH_SERVER_PIDS` (`name:pid,...`) the
 * processes whose CPU, with their children's, is reported for each phase (`serverCpu`: cores).
 * `projections/bench/backends.sh` runs it on every setup, one line each.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { minimumRaise } from '@auction/contracts';
import { Engine, SqliteEventStore } from '@auction/engine';
import { type NewEvent } from '@auction/engine/testing';
import { allProjections } from '../src/index';
import { MongoReadStore } from '../src/read-store/mongo-read-store';
import type { ReadStore } from '../src/read-store/read-store';
import { SqliteReadStore } from '../src/read-store/sqlite-read-store';
import { ProjectionRunner } from '../src/runner/projection-runner';
import { buildHistory } from './history';
import { rawRebuild } from './raw-rebuild';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    events: { type: 'string' },
    rate: { type: 'string' },
    seconds: { type: 'string' },
  },
});
const targetEvents = Number(values.events ?? 100_000);
const rate = Number(values.rate ?? 500);
const lagSeconds = Number(values.seconds ?? (values.quick ? 3 : 10));
const mongodbUrl = process.env.MONGODB_URL || undefined;
const statementsPerCommand = process.env.MONGODB_STATEMENTS_PER_COMMAND
  ? Number(process.env.MONGODB_STATEMENTS_PER_COMMAND)
  : undefined;

/** Clock ticks of the CPU a process and its descendants used (Linux /proc; 0 elsewhere). */
const TICKS_PER_SEC = 100;
const treeTicks = (root: number): number => {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  if (!existsSync('/proc')) return 0;
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command name in parentheses: state, ppid, ... utime (14th), stime (15th).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(pid), {
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended meanwhile.
    }
  }
  let total = 0;
  for (const [pid, { ticks }] of stats) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = stats.get(p)?.ppid) {
      if (p === root) {
        total += ticks;
        break;
      }
    }
  }
  return total;
};
const serverPids = (process.env.BENCH_SERVER_PIDS ?? '')
  .split(',')
  .filter(Boolean)
  .map((entry) => {
    const [name, pid] = entry.split(':');
    return { name: name ?? '', pid: Number(pid) };
  });
/** Starts a CPU reading: its result gives each server's and this process's cores since then. */
const cpuMeter = () => {
  const started = performance.now();
  const node = process.cpuUsage();
  const before = serverPids.map(({ pid }) => treeTicks(pid));
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(node);
    const cores: Record<string, number> = {
      node: round((used.user + used.system) / 1e6 / seconds),
    };
    serverPids.forEach(({ name, pid }, i) => {
      cores[name] = round((treeTicks(pid) - (before[i] ?? 0)) / TICKS_PER_SEC / seconds);
    });
    return cores;
  };
};

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** A SQLite database's size on disk: its file and its write-ahead log after a checkpoint. */
const sqliteBytes = (filename: string): number => {
  const db = new Database(filename);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return [filename, `${filename}-wal`].reduce(
    (sum, file) => sum + (existsSync(file) ? statSync(file).size : 0),
    0,
  );
};

/** CPU seconds (user and system) this process used since `from`. */
const cpuSecondsSince = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
};

/**
 * The raw limit: the better of two runs, one before the rebuild and one after, by the clock and
 * by this process's CPU (events per CPU second: what a machine shared with other work moves less).
 */
const rawRate = (
  eventsFile: string,
  dir: string,
  run: number,
): { perSec: number; perCpuSec: number } => {
  const cpu = process.cpuUsage();
  const { events, seconds } = rawRebuild(eventsFile, join(dir, `raw-${run}.sqlite`));
  const cpuSeconds = cpuSecondsSince(cpu);
  console.error(
    `raw rebuild ${run}: ${events} events in ${seconds.toFixed(2)} s (${cpuSeconds.toFixed(2)} s CPU)`,
  );
  return { perSec: events / seconds, perCpuSec: events / cpuSeconds };
};

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-projections-'));
  const eventsFile = join(dir, 'events.sqlite');
  const events = new SqliteEventStore({ filename: eventsFile });

  const history = buildHistory(targetEvents);
  const byStream = new Map<string, NewEvent[]>();
  for (const e of history.events) {
    const list = byStream.get(e.streamId) ?? [];
    list.push({ id: randomUUID(), type: e.type, data: e.data, metadata: e.metadata });
    byStream.set(e.streamId, list);
  }
  for (const [streamId, list] of byStream) await events.append(streamId, list, 'no_stream');
  const logged = (await events.headPosition()) ?? 0;

  const dbName = `bench_projections_${randomUUID().slice(0, 8)}`;
  const rawBefore = mongodbUrl ? undefined : rawRate(eventsFile, dir, 1);
  const readFile = join(dir, 'rebuild.sqlite');
  const rebuildStore: ReadStore = mongodbUrl
    ? await MongoReadStore.connect(mongodbUrl, dbName, {
        statementsPerCommand,
        timeoutMs: 30_000,
      })
    : new SqliteReadStore({ filename: readFile });
  const rebuild = new ProjectionRunner({
    source: events,
    store: rebuildStore,
    projections: allProjections,
    batchSize: 2000,
  });
  const rebuildCpu = cpuMeter();
  const rebuildCpuFrom = process.cpuUsage();
  const rebuildStarted = performance.now();
  await rebuild.start();
  const rebuildSeconds = (performance.now() - rebuildStarted) / 1000;
  const rebuildCores = rebuildCpu();
  const rebuildCpuSeconds = cpuSecondsSince(rebuildCpuFrom);
  console.error(`rebuild: ${logged} events in ${rebuildSeconds.toFixed(2)} s`);
  const readStoreBytes = mongodbUrl ? undefined : sqliteBytes(readFile);
  const eventLogBytes = sqliteBytes(eventsFile);
  const rawAfter = rawBefore === undefined ? undefined : rawRate(eventsFile, dir, 2);
  const rawRebuildEventsPerSec =
    rawBefore && rawAfter && Math.max(rawBefore.perSec, rawAfter.perSec);
  const rawRebuildEventsPerCpuSec =
    rawBefore && rawAfter && Math.max(rawBefore.perCpuSec, rawAfter.perCpuSec);
  const rebuildEventsPerCpuSec = logged / rebuildCpuSeconds;
  const rebuildEventsPerSec = logged / rebuildSeconds;

  const bus = new Engine({ store: events });
  await bus.seedFixedCategories(new Date().toISOString());
  const auctions: string[] = Array.from({ length: 5 }, () => randomUUID());
  for (const auctionId of auctions) {
    await bus.send({
      type: 'CreateAuction',
      data: {
        auctionId,
        title: 'Steady item',
        description: 'Bid on me',
        categoryId: 'antiques',
        startingPrice: 10_000,
        endsAt: new Date(Date.now() + 86_400_000).toISOString(),
        image: null,
      },
      metadata: {
        commandId: randomUUID(),
        correlationId: randomUUID(),
        actorId: 'seller',
        at: new Date().toISOString(),
      },
    });
  }
  await rebuild.waitFor((await events.headPosition()) ?? 0, undefined, 60_000);
  const lags: number[] = [];
  let lagFailures = 0;
  const amounts = new Map(auctions.map((a) => [a, 10_000]));
  const interval = 1000 / rate;
  const lagCpu = cpuMeter();
  const lagStarted = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; performance.now() - lagStarted < lagSeconds * 1000; i++) {
    const due = lagStarted + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const auctionId = auctions[i % auctions.length] as string;
    const previous = amounts.get(auctionId);
    const amount = previous === undefined ? 10_000 : minimumRaise(previous, 'one-dollar');
    amounts.set(auctionId, amount);
    inFlight.push(
      bus
        .send({
          type: 'PlaceBid',
          data: { auctionId, bidId: randomUUID(), amount },
          metadata: {
            commandId: randomUUID(),
            correlationId: randomUUID(),
            actorId: `b-${i % 40}`,
            at: new Date().toISOString(),
          },
        })
        .then(async (outcome) => {
          if (!outcome.ok || outcome.position === undefined) return;
          const acked = performance.now();
          await rebuild.waitFor(outcome.position, ['catalog'], 30_000);
          lags.push(performance.now() - acked);
        })
        .catch((error: unknown) => {
          lagFailures += 1;
          console.error(`a bid was not applied: ${(error as Error).message}`);
        }),
    );
  }
  await Promise.all(inFlight);
  const lagCores = lagCpu();
  await bus.close();
  await rebuild.stop();
  await rebuildStore.close();
  if (mongodbUrl) {
    const client = await MongoClient.connect(mongodbUrl);
    await client.db(dbName).dropDatabase();
    await client.close();
  }
  await events.close();
  rmSync(dir, { recursive: true, force: true });

  lags.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      bench: 'projections',
      store: mongodbUrl ? 'mongodb' : 'sqlite',
      ...(mongodbUrl && {
        server: process.env.BENCH_SERVER ?? 'mongodb',
        statementsPerCommand: statementsPerCommand ?? 'bulk',
      }),
      rebuildEvents: logged,
      projections: allProjections.length,
      rebuildSeconds: round(rebuildSeconds),
      rebuildEventsPerSec: Math.round(rebuildEventsPerSec),
      ...(rawRebuildEventsPerSec !== undefined &&
        readStoreBytes !== undefined && {
          rawRebuildEventsPerSec: Math.round(rawRebuildEventsPerSec),
          ratio: round(rebuildEventsPerSec / rawRebuildEventsPerSec, 3),
          ...(rawRebuildEventsPerCpuSec !== undefined && {
            rebuildEventsPerCpuSec: Math.round(rebuildEventsPerCpuSec),
            rawRebuildEventsPerCpuSec: Math.round(rawRebuildEventsPerCpuSec),
            cpuRatio: round(rebuildEventsPerCpuSec / rawRebuildEventsPerCpuSec, 3),
          }),
          readStoreBytes,
          eventLogBytes,
          sizeRatio: round(readStoreBytes / eventLogBytes),
        }),
      rebuildCpu: rebuildCores,
      lagBidsPerSec: rate,
      lagSamples: lags.length,
      lagFailures,
      lagP50Ms: round(percentile(lags, 0.5)),
      lagP99Ms: round(percentile(lags, 0.99)),
      lagCpu: lagCores,
      node: process.version,
      cores: cpus().length,
      memGiB: Math.round(totalmem() / 2 ** 30),
    }),
  );
};

await main();
