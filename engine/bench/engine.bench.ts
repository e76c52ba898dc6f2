/**
 * Bids decided and durably stored per second by the engine on the durable SQLite store, with
 * 1,000 concurrent bidders spread over 1, 100 and 1,000 auctions (one JSON line each), beside the
 * raw limit measured in the same run: better-sqlite3 inserting the very rows this run stored
 * (same schema, WAL, synchronous=FULL) in commits of 1,000 rows, with nothing of ours around it.
 * The proxy scenario (`engine-proxy`, 100 auctions): half the bidders give a secret maximum $50 above
 * their bid, so many bids are answered by an automatic bid in the same commit.
 * Then reloading an evicted auction from its snapshot against its whole stream (`engine-reload`),
 * and memory: 12,500 live auctions loaded into actors (`engine-memory`). Then a watch toggle for a
 * new user against one with a long watchlist stream, warm and right after a restart
 * (`engine-watch`).
 *
 *   npm run bench:engine [-- --quick] [-- --auctions 1000] [-- --bidders 1000 --seconds 10]
 *   npm run bench:engine -- --reload 10000  (only engine-reload, with that many bids)
 *   npm run bench:engine -- --watch 3340  (only engine-watch, with that many events of history)
 *   npm run bench:engine -- --auctions 100 --proxy  (only the proxy scenario, on 100 auctions)
 *   npm run bench:engine -- --auctions 1 --seconds 3 --profile /tmp/engine  (CPU profile of the
 *   measured window: /tmp/engine-1.cpuprofile)
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import {
  type WatchlistEvent,
  auctionStream,
  minimumRaise,
  watchlistStream,
} from '@auction/contracts';
import { Engine, SqliteEventStore } from '../src/index';
import { AuctionActor } from '../src/auction/actor';
import { raises } from '../src/testing/commands';
import { EVENTS_SCHEMA } from '../src/event-store/sqlite-event-store';
import { genesisHash } from '../src/chain/hash-chain';
import { sealEvents } from '../src/chain/seal';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'inline-writer': { type: 'boolean', default: false },
    auctions: { type: 'string' },
    bidders: { type: 'string' },
    seconds: { type: 'string' },
    profile: { type: 'string' },
    reload: { type: 'string' },
    proxy: { type: 'boolean', default: false },
    watch: { type: 'string' },
  },
});
const bidders = Number(values.bidders ?? 1000);
const seconds = Number(values.seconds ?? (values.quick ? 3 : 10));
const plainScenarios = values.proxy ? [] : [1, 100, 1000];
const only = values.reload ?? values.watch;
const scenarios = values.auctions ? [Number(values.auctions)] : only ? [] : plainScenarios;
const proxyScenarios = only || values.auctions ? [] : [100];
/** How far above their bid the proxy bidders' secret maximum is, in cents. */
const PROXY_HEADROOM = 5_000;
const RAW_ROWS_PER_COMMIT = 1000;

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

interface StoredRow {
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

/**
 * The raw limit: the rows of `source` after `afterPosition`, inserted by better-sqlite3 into a
 * fresh file with the log's own schema and pragmas, 1,000 rows per transaction. Rows per second.
 */
const rawInsertRate = (dir: string, source: string, afterPosition: number): number => {
  const reader = new Database(source, { readonly: true });
  const rows = reader
    .prepare<[number], StoredRow>(
      `SELECT event_id, stream_id, revision, type, data, metadata, recorded_at
       FROM events WHERE position > ? ORDER BY position`,
    )
    .all(afterPosition);
  reader.close();
  const db = new Database(join(dir, 'raw.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('cache_size = -65536');
  db.pragma('wal_autocheckpoint = 10000');
  db.exec(EVENTS_SCHEMA);
  const insert = db.prepare(
    `INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at)
     VALUES (@event_id, @stream_id, @revision, @type, @data, @metadata, @recorded_at)`,
  );
  const insertMany = db.transaction((chunk: readonly StoredRow[]) => {
    for (const row of chunk) insert.run(row);
  });
  const started = performance.now();
  for (let offset = 0; offset < rows.length; offset += RAW_ROWS_PER_COMMIT)
    insertMany.immediate(rows.slice(offset, offset + RAW_ROWS_PER_COMMIT));
  const elapsed = (performance.now() - started) / 1000;
  db.close();
  return rows.length / elapsed;
};

/**
 * CPU time of this process's main thread (its task id is the process id) and of all its other
 * threads (the writer), in ms, from /proc (Linux only; undefined elsewhere). Unlike throughput, CPU
 * per bid hardly moves when other processes load the machine.
 */
const threadCpuMs = (): { main: number; others: number } | undefined => {
  try {
    const tick = 10; // USER_HZ = 100 on Linux
    const cpuOf = (tid: string) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * tick;
    };
    let others = 0;
    for (const tid of readdirSync('/proc/self/task'))
      if (tid !== String(process.pid)) others += cpuOf(tid);
    return { main: cpuOf(String(process.pid)), others };
  } catch {
    return undefined;
  }
};

/** A CPU profile of the main thread over the measured window only (`--profile <path prefix>`). */
const startProfile = async () => {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    stop: async (path: string) => {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
    },
  };
};

const run = async (auctions: number, proxy = values.proxy) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  const filename = join(dir, 'events.sqlite');
  const store = new SqliteEventStore({ filename, writerThread: !values['inline-writer'] });
  const now = Date.now();
  const engine = new Engine({ store });
  await engine.seedFixedCategories(new Date(now).toISOString());
  const meta = (actorId: string) => ({
    commandId: randomUUID(),
    correlationId: randomUUID(),
    actorId,
    at: new Date().toISOString(),
  });
  const auctionIds = Array.from({ length: auctions }, () => randomUUID());
  for (const auctionId of auctionIds) {
    const created = await engine.send({
      type: 'CreateAuction',
      data: {
        auctionId,
        title: 'Hot item',
        description: 'Everyone wants it',
        categoryId: 'antiques',
        startingPrice: 10_000,
        endsAt: new Date(now + 86_400_000).toISOString(),
        image: null,
      },
      metadata: meta('seller'),
    });
    if (!created.ok) throw new Error(created.rejection.message);
  }
  const setupHead = (await store.headPosition()) ?? 0;
  const before = store.groupCommits();
  const rssBefore = process.memoryUsage().rss;

  // Each auction's bidders offer one increment above the last amount sent to it: raising, so accepted,
  // except when a later offer overtakes an earlier one in the same auction's queue.
  const nextAmount = auctionIds.map(() => 10_000);
  let accepted = 0;
  let refused = 0;
  let automaticBids = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const bidder = async (i: number) => {
    const actorId = `bidder-${i}`;
    const index = i % auctions;
    const auctionId = auctionIds[index] as string;
    while (performance.now() < deadline) {
      const amount = (nextAmount[index] = minimumRaise(nextAmount[index] ?? 10_000, 'one-dollar'));
      // Proxy scenario: every other bidder gives a secret maximum above the bid.
      const maximum = proxy && i % 2 === 0 ? { maxAmount: amount + PROXY_HEADROOM } : {};
      const sent = performance.now();
      const outcome = await engine.send({
        type: 'PlaceBid',
        data: { auctionId, bidId: randomUUID(), amount, ...maximum },
        metadata: meta(actorId),
      });
      latencies.push(performance.now() - sent);
      if (outcome.ok) accepted++;
      else refused++;
      if (!proxy) continue;
      // Automatic bids move the price past what was sent: bid from where it stands.
      if (outcome.ok) {
        nextAmount[index] = Math.max(nextAmount[index] ?? 0, outcome.currentBid);
        for (const event of outcome.events)
          if (event.type === 'AutomaticBidPlaced') automaticBids++;
      } else {
        const minimum = outcome.rejection.details?.minimum;
        if (typeof minimum === 'number')
          nextAmount[index] = Math.max(nextAmount[index] ?? 0, minimum - 1);
      }
    }
  };
  const profiler = values.profile ? await startProfile() : undefined;
  const cpuBefore = threadCpuMs();
  const started = performance.now();
  await Promise.all(Array.from({ length: bidders }, (_, i) => bidder(i)));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = threadCpuMs();
  await profiler?.stop(`${values.profile}-${auctions}.cpuprofile`);
  const after = store.groupCommits();
  const rssAfter = process.memoryUsage().rss;
  await engine.close();
  await store.close();

  const rawRowsPerSec = rawInsertRate(dir, filename, setupHead);
  rmSync(dir, { recursive: true, force: true });

  latencies.sort((a, b) => a - b);
  const bidsPerSec = accepted / elapsed;
  const commits = after.commits - before.commits;
  console.log(
    JSON.stringify({
      bench: proxy ? 'engine-proxy' : 'engine',
      auctions,
      bidders,
      ...(proxy ? { automaticBids, biddersWithMaxima: Math.ceil(bidders / 2) } : {}),
      bidsPerSec: Math.round(bidsPerSec),
      rawInsertRowsPerSec: Math.round(rawRowsPerSec),
      ratio: round(bidsPerSec / rawRowsPerSec, 3),
      seconds: round(elapsed, 2),
      accepted,
      refused,
      commits,
      appendsPerCommit: round((after.appends - before.appends) / Math.max(1, commits)),
      bidsPerCommit: round(accepted / Math.max(1, commits)),
      // CPU per accepted bid, main thread and the others (the writer, GC helpers), in µs.
      mainCpuUsPerBid:
        cpuBefore && cpuAfter
          ? round(((cpuAfter.main - cpuBefore.main) * 1000) / accepted, 1)
          : null,
      otherCpuUsPerBid:
        cpuBefore && cpuAfter
          ? round(((cpuAfter.others - cpuBefore.others) * 1000) / accepted, 1)
          : null,
      p50Ms: round(percentile(latencies, 0.5), 2),
      p99Ms: round(percentile(latencies, 0.99), 2),
      rssGrowthMiB: round((rssAfter - rssBefore) / 2 ** 20),
      rawRowsPerCommit: RAW_ROWS_PER_COMMIT,
      store: 'sqlite wal synchronous=FULL',
      writer: values['inline-writer'] ? 'inline' : 'thread',
      node: process.version,
      cores: cpus().length,
      memGiB: Math.round(totalmem() / 2 ** 30),
    }),
  );
};

const megabytes = (bytes: number) => round(bytes / 2 ** 20);

/** Creates `auctions` auctions with `bids` bids each, through an engine that is closed after. */
const writeAuctions = async (filename: string, auctions: number, bids: number) => {
  const history = raises(bids, 10_000);
  const store = new SqliteEventStore({ filename });
  const engine = new Engine({ store });
  const now = Date.now();
  await engine.seedFixedCategories(new Date(now).toISOString());
  const meta = () => ({
    commandId: randomUUID(),
    correlationId: randomUUID(),
    actorId: randomUUID(),
    at: new Date().toISOString(),
  });
  const ids = Array.from({ length: auctions }, () => randomUUID());
  const writeOne = async (auctionId: string) => {
    await engine.send({
      type: 'CreateAuction',
      data: {
        auctionId,
        title: 'A brass desk lamp',
        description: 'A 1920s brass desk lamp in good working order, with its original shade.',
        categoryId: 'antiques',
        startingPrice: 10_000,
        endsAt: new Date(now + 86_400_000).toISOString(),
        image: null,
      },
      metadata: meta(),
    });
    for (const amount of history)
      await engine.send({
        type: 'PlaceBid',
        data: { auctionId, bidId: randomUUID(), amount },
        metadata: meta(),
      });
  };
  for (let i = 0; i < ids.length; i += 1000)
    await Promise.all(ids.slice(i, i + 1000).map(writeOne));
  await engine.close();
  await store.close();
  return ids;
};

/**
 * Memory per live auction: 12,500 auctions (the landing page's "12,500+ active auctions") with a
 * few bids each, every one loaded into an actor by one more bid; heap and RSS growth over the
 * process before the load, after full collections (needs --expose-gc, passed by the script).
 */
const memory = async (auctions: number, bids: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-memory-'));
  const filename = join(dir, 'events.sqlite');
  const ids = await writeAuctions(filename, auctions, bids);
  const collect = () => {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
  };
  const store = new SqliteEventStore({ filename });
  const engine = new Engine({ store });
  await store.headPosition();
  collect();
  const before = process.memoryUsage();
  const started = performance.now();
  let amount = raises(bids + 1, 10_000).at(-1) ?? 10_000;
  for (let i = 0; i < ids.length; i += 500) {
    amount = minimumRaise(amount, 'one-dollar');
    await Promise.all(
      ids.slice(i, i + 500).map((auctionId) =>
        engine.send({
          type: 'PlaceBid',
          data: { auctionId, bidId: randomUUID(), amount },
          metadata: {
            commandId: randomUUID(),
            correlationId: randomUUID(),
            actorId: randomUUID(),
            at: new Date().toISOString(),
          },
        }),
      ),
    );
  }
  const loadSeconds = (performance.now() - started) / 1000;
  collect();
  const after = process.memoryUsage();
  await engine.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      bench: 'engine-memory',
      liveAuctions: auctions,
      bidsPerAuction: bids + 1,
      heapGrowthMiB: megabytes(after.heapUsed - before.heapUsed),
      heapPerAuctionKiB: round((after.heapUsed - before.heapUsed) / auctions / 1024, 2),
      rssGrowthMiB: megabytes(after.rss - before.rss),
      goalRssGrowthMiB: 250,
      loadSeconds: round(loadSeconds, 2),
      gcExposed: typeof globalThis.gc === 'function',
      node: process.version,
    }),
  );
};

/**
 * Reloading an evicted auction with `bids` bids: folding its whole stream, against its snapshot
 * (what the registry leaves when it drops an actor) and the events after it. Median of 5 loads.
 */
const reload = async (bids: number, tail: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-reload-'));
  const filename = join(dir, 'events.sqlite');
  const store = new SqliteEventStore({ filename });
  const engine = new Engine({ store, snapshots: false });
  const now = Date.now();
  await engine.seedFixedCategories(new Date(now).toISOString());
  const meta = () => ({
    commandId: randomUUID(),
    correlationId: randomUUID(),
    actorId: randomUUID(),
    at: new Date().toISOString(),
  });
  const auctionId = randomUUID();
  await engine.send({
    type: 'CreateAuction',
    data: {
      auctionId,
      title: 'A brass desk lamp',
      description: 'A 1920s brass desk lamp in good working order, with its original shade.',
      categoryId: 'antiques',
      startingPrice: 10_000,
      endsAt: new Date(now + 86_400_000).toISOString(),
      image: null,
    },
    metadata: meta(),
  });
  let amount = 10_000;
  const placeBids = async (count: number) => {
    for (let sent = 0; sent < count; sent += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, count - sent) }, () =>
          engine.send({
            type: 'PlaceBid',
            data: {
              auctionId,
              bidId: randomUUID(),
              amount: (amount = minimumRaise(amount, 'one-dollar')),
            },
            metadata: meta(),
          }),
        ),
      );
  };
  await placeBids(bids - tail);
  const snapshot = (await AuctionActor.load(store, auctionId)).toStoredSnapshot();
  if (snapshot) await store.saveSnapshot(auctionStream(auctionId), snapshot);
  await placeBids(tail);
  const median = async (load: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await load();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[2] ?? 0;
  };
  const fromStreamMs = await median(() => AuctionActor.load(store, auctionId));
  const fromSnapshotMs = await median(() => AuctionActor.load(store, auctionId, {}, store));
  await engine.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      bench: 'engine-reload',
      bids,
      eventsAfterSnapshot: tail,
      fromStreamMs: round(fromStreamMs, 1),
      fromSnapshotMs: round(fromSnapshotMs, 1),
      speedup: round(fromStreamMs / fromSnapshotMs, 1),
      snapshotKiB: round((snapshot?.payload.length ?? 0) / 1024),
      node: process.version,
    }),
  );
};

/**
 * One watch toggle (`Engine.watch`) for a new user against one whose watchlist stream already holds
 * `history` events: warm (the set in memory), and the first toggle after a restart (a new engine
 * on the same file, starting from the snapshot). Medians of 21 toggles; the events each read.
 */
const watchToggles = async (history: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-watch-'));
  const filename = join(dir, 'events.sqlite');
  const store = new SqliteEventStore({ filename });
  const meta = (actorId: string) => ({
    commandId: randomUUID(),
    correlationId: randomUUID(),
    actorId,
    at: new Date().toISOString(),
  });
  const veteran = randomUUID();
  const stream = watchlistStream(veteran);
  const events: WatchlistEvent[] = Array.from({ length: history }, (_, i) => ({
    type: i % 2 === 0 ? 'AuctionWatched' : 'AuctionUnwatched',
    data: { userId: veteran, auctionId: `a${i % 7}`, at: new Date().toISOString() },
  }));
  const sealed = sealEvents(stream, -1, genesisHash(stream), events, meta(veteran));
  await store.append(stream, sealed.events, 'no_stream');
  let watching = false;
  const toggle = (engine: Engine, userId: string) =>
    engine.watch({ userId, auctionId: 'toggled', watching: (watching = !watching) }, meta(userId));
  const median = async (once: () => Promise<unknown>, times = 21) => {
    const taken: number[] = [];
    for (let i = 0; i < times; i++) {
      const started = performance.now();
      await once();
      taken.push(performance.now() - started);
    }
    return round(taken.sort((a, b) => a - b)[Math.floor(times / 2)] ?? 0, 2);
  };
  const engine = new Engine({ store });
  const newcomer = randomUUID();
  await toggle(engine, veteran);
  const newUserMs = await median(() => toggle(engine, newcomer));
  const longHistoryMs = await median(() => toggle(engine, veteran));
  await engine.close();
  const afterRestartMs = await median(async () => {
    const restarted = new Engine({ store });
    await toggle(restarted, veteran);
    await restarted.close();
  }, 5);
  const total = (await store.streamRevision(stream)) ?? 0;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      bench: 'engine-watch',
      historyEvents: history,
      newUserMs,
      longHistoryMs,
      afterRestartMs,
      streamEventsAfter: total + 1,
      node: process.version,
    }),
  );
};

for (const auctions of scenarios) await run(auctions);
for (const auctions of proxyScenarios) await run(auctions, true);
if (values.reload) await reload(Number(values.reload), 100);
if (values.watch) await watchToggles(Number(values.watch));
if (!values.auctions && !only) {
  await reload(values.quick ? 2_000 : 10_000, 100);
  await memory(12_500, values.quick ? 2 : 5);
  await watchToggles(3_340);
}
