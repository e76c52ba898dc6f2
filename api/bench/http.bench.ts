/**
 * HTTP bids under load: the real server (api/src/main.ts) as a child process on a fresh DATA_DIR,
 * 200 bidders signed up and logged in over HTTP, each in a closed loop over keep-alive connections
 * (Nagle off). Three scenarios, one JSON line each:
 *   hot     every bidder raises the same auction: one increment above the highest amount sent or seen so far
 *   spread  100 auctions, 2 bidders each
 *   proxy   as spread, on 100 other auctions, with half the bidders giving a secret maximum $50
 *           above their bid (proxy bidding: many bids are answered by an automatic bid)
 * A bid overtaken by a higher one on the way is refused (409, `refused`): a race, not an error.
 * `bidsPerSec` counts accepted bids, `bidRequestsPerSec` every bid the server decided. Beside
 * them, the same server's rate on a trivial authenticated route (GET /auth/me) with the same
 * clients and concurrency, measured just before in the same run, and the rate of bare Express 5
 * with one JSON route (api/bench/bare-express.ts, a child process on keep-alive HTTP, same client
 * and concurrency, the server idle meanwhile): `bareExpressPerSec`, and `trivialRatio` = trivial
 * route ÷ bare Express. The two are measured in four slices, bare, ours, ours, bare, so a load
 * that drifts during the run weighs on both alike; `trivialCpuUsPerReq` and
 * `bareExpressCpuUsPerReq` give each server's CPU time per request over those slices. Afterwards every acknowledged
 * (201) bid is looked up in its auction's detail (read again until the catalog shows them all,
 * at most 30 s: `detailCatchUpMs`) and, once the server has stopped, in the event log: `lost`
 * counts the ones missing from either, `duplicates` the ones stored twice.
 *
 *   npm run bench:http [-- --quick] [-- --seconds 10 --bidders 200 --auctions 100]
 *   (--scenario hot|spread|proxy runs one; --profile DIR writes the server's CPU profile there)
 */
import { rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import type { ChildServer } from '../src/testing/child-server';
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
  startBenchServer,
  startBareServer,
  raiseDollars,
} from './bench-support';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    bidders: { type: 'string' },
    auctions: { type: 'string' },
    profile: { type: 'string' },
    scenario: { type: 'string', default: 'all' },
  },
});
const seconds = Number(values.seconds ?? (values.quick ? 3 : 10));
const bidderCount = Number(values.bidders ?? 200);
const spreadAuctions = Number(values.auctions ?? 100);
const warmupMs = values.quick ? 500 : 2000;

interface Bidder {
  readonly id: string;
  readonly cookie: string;
}

interface Tally {
  ok: number;
  errors: number;
  /** Refusals by status and message (amounts left out). */
  readonly refusedBy: Map<string, number>;
  readonly latencies: number[];
  firstError: string | undefined;
}
const tally = (): Tally => ({
  ok: 0,
  errors: 0,
  refusedBy: new Map(),
  latencies: [],
  firstError: undefined,
});
const refusedCount = (t: Tally) => [...t.refusedBy.values()].reduce((a, b) => a + b, 0);

/** Every bidder in a closed loop until the deadline; `call` makes one request and classifies it. */
const closedLoop = async (
  bidders: readonly Bidder[],
  ms: number,
  t: Tally,
  call: (bidder: Bidder, index: number) => Promise<Reply | undefined>,
): Promise<number> => {
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    bidders.map(async (bidder, index) => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        let reply: Reply | undefined;
        try {
          reply = await call(bidder, index);
        } catch (error) {
          t.errors++;
          t.firstError ??= String(error);
          continue;
        }
        if (!reply) continue;
        if (reply.status >= 500) {
          t.errors++;
          t.firstError ??= `${reply.status} ${JSON.stringify(reply.body)}`;
        } else if (reply.status >= 400) {
          const kind = `${reply.status} ${String(reply.body.message).replace(/\$[\d,.]+/g, '$N')}`;
          t.refusedBy.set(kind, (t.refusedBy.get(kind) ?? 0) + 1);
        } else {
          t.ok++;
          t.latencies.push(performance.now() - sent);
        }
      }
    }),
  );
  return (performance.now() - started) / 1000;
};

interface AuctionState {
  readonly id: string;
  /** The next amount to offer, in dollars: above every amount sent or seen so far. */
  next: number;
}

const MINIMUM = /at least \$([\d,]+\.\d\d)/;

/** How far above their bid the proxy scenario's bidders set their maximum, in dollars. */
const PROXY_HEADROOM = 50;

/**
 * Bidders on their auctions for `ms`; returns the tally and the ids of the acknowledged bids.
 * `maxima`: every other bidder gives a secret maximum above their bid.
 */
const bidLoop = async (
  http: Http,
  bidders: readonly Bidder[],
  auctionOf: (index: number) => AuctionState,
  ms: number,
  maxima = false,
) => {
  const t = tally();
  const accepted = new Map<string, string>();
  const elapsed = await closedLoop(bidders, ms, t, async (bidder, index) => {
    const auction = auctionOf(index);
    const bidAmount = auction.next;
    auction.next = raiseDollars(auction.next);
    const reply = await http.send('POST', '/bid/placeBid', bidder.cookie, {
      productId: auction.id,
      bidAmount,
      ...(maxima && index % 2 === 0 ? { maxBidAmount: bidAmount + PROXY_HEADROOM } : {}),
    });
    if (reply.status === 201) {
      accepted.set((reply.body.newBid as { _id: string })._id, auction.id);
      auction.next = Math.max(auction.next, raiseDollars(Number(reply.body.currentBid)));
    } else if (reply.status === 409) {
      const minimum = MINIMUM.exec(String(reply.body.message))?.[1];
      if (minimum) auction.next = Math.max(auction.next, Number(minimum.replace(/,/g, '')));
    }
    return reply;
  });
  return { t, accepted, elapsed };
};

const trivialLoop = async (http: Http, bidders: readonly Bidder[], ms: number) => {
  const t = tally();
  const elapsed = await closedLoop(bidders, ms, t, (bidder) =>
    http.send('GET', '/auth/me', bidder.cookie),
  );
  return { t, elapsed };
};

/** One side of `trivialBesideBare`: its tally, seconds and CPU seconds over all its slices. */
interface Side {
  readonly t: Tally;
  elapsed: number;
  cpu: number | undefined;
}

/**
 * The trivial route and bare Express, `ms` each, in four slices taken bare, ours, ours, bare: a
 * load on the machine that rises or falls during the run then weighs on both alike, where one
 * measured after the other would carry the drift into their ratio. CPU seconds of each server
 * too (undefined where /proc is missing), so the cost per request can be compared as well.
 */
const trivialBesideBare = async (
  ours: { http: Http; cpuSeconds: () => number | undefined },
  bare: { http: Http; cpuSeconds: () => number | undefined },
  bidders: readonly Bidder[],
  ms: number,
) => {
  const side = (): Side => ({ t: tally(), elapsed: 0, cpu: 0 });
  const sides = { ours: side(), bare: side() };
  for (const which of ['bare', 'ours', 'ours', 'bare'] as const) {
    const { http, cpuSeconds } = which === 'ours' ? ours : bare;
    const measured = sides[which];
    const cpu0 = cpuSeconds();
    measured.elapsed += await closedLoop(bidders, ms / 2, measured.t, (bidder) =>
      http.send('GET', '/auth/me', bidder.cookie),
    );
    const cpu1 = cpuSeconds();
    measured.cpu =
      cpu0 === undefined || cpu1 === undefined || measured.cpu === undefined
        ? undefined
        : measured.cpu + cpu1 - cpu0;
  }
  return sides;
};

/** Microseconds of CPU per successful request, when the CPU time is known. */
const cpuMicrosPerRequest = (measured: Side): number | undefined =>
  measured.cpu === undefined || measured.t.ok === 0
    ? undefined
    : Math.round((measured.cpu / measured.t.ok) * 1e6);

/** Bare Express 5 (`bare-express.ts`) as a child process; its URL and a way to stop it. */
const startBareExpress = () => startBareServer('bare-express.ts');
type BareServer = Awaited<ReturnType<typeof startBareExpress>>;

/** How long the detail check waits for the catalog to show every acknowledged bid. */
const DETAIL_CATCH_UP_MS = 30_000;

/**
 * Accepted bids missing from their auction's detail. A 201 no longer waits for the catalog (the
 * bidder's own next request does), so the details are read again until they show every
 * acknowledged bid or `DETAIL_CATCH_UP_MS` passed: `missing` counts what is still not shown then,
 * `catchUpMs` how long the catalog took after the last bid.
 */
const missingFromDetails = async (http: Http, accepted: ReadonlyMap<string, string>) => {
  const byAuction = new Map<string, Set<string>>();
  for (const [bidId, auctionId] of accepted) {
    const ids = byAuction.get(auctionId) ?? new Set<string>();
    ids.add(bidId);
    byAuction.set(auctionId, ids);
  }
  const started = performance.now();
  let pending = [...byAuction];
  let missing = 0;
  let duplicates = 0;
  for (;;) {
    missing = 0;
    duplicates = 0;
    const behind: [string, Set<string>][] = [];
    await pool(pending, 8, async ([auctionId, ids]) => {
      const shown = (await shownBidIds(http, auctionId)) ?? [];
      duplicates += shown.length - new Set(shown).size;
      const set = new Set(shown);
      let absent = 0;
      for (const id of ids) if (!set.has(id)) absent++;
      missing += absent;
      if (absent > 0) behind.push([auctionId, ids]);
    });
    pending = behind;
    if (pending.length === 0 || performance.now() - started > DETAIL_CATCH_UP_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { missing, duplicates, catchUpMs: Math.round(performance.now() - started) };
};

interface ScenarioResult {
  readonly line: Record<string, unknown>;
  readonly accepted: ReadonlyMap<string, string>;
}

const scenario = async (
  name: 'hot' | 'spread' | 'proxy',
  server: ChildServer,
  http: Http,
  bareServer: BareServer,
  bare: Http,
  bidders: readonly Bidder[],
  auctions: readonly AuctionState[],
  auctionOf: (index: number) => AuctionState,
): Promise<ScenarioResult> => {
  await trivialLoop(bare, bidders, warmupMs);
  await trivialLoop(http, bidders, warmupMs);
  const { ours: trivial, bare: bareExpress } = await trivialBesideBare(
    { http, cpuSeconds: () => server.cpuSeconds() },
    { http: bare, cpuSeconds: () => bareServer.cpuSeconds() },
    bidders,
    seconds * 1000,
  );
  const maxima = name === 'proxy';
  const warmup = await bidLoop(http, bidders, auctionOf, warmupMs, maxima);
  const cpu2 = server.cpuSeconds();
  const clientCpu = process.cpuUsage();
  const bids = await bidLoop(http, bidders, auctionOf, seconds * 1000, maxima);
  const cpu3 = server.cpuSeconds();
  const clientUsed = process.cpuUsage(clientCpu);
  const accepted = new Map([...warmup.accepted, ...bids.accepted]);
  const details = await missingFromDetails(http, accepted);

  const bidsPerSec = bids.t.ok / bids.elapsed;
  // Every bid the server decided, accepted or refused as too low: its capacity for bid commands.
  const bidRequestsPerSec = (bids.t.ok + refusedCount(bids.t)) / bids.elapsed;
  const trivialPerSec = trivial.t.ok / trivial.elapsed;
  const bareExpressPerSec = bareExpress.t.ok / bareExpress.elapsed;
  const latencies = bids.t.latencies.sort((a, b) => a - b);
  const trivialLatencies = trivial.t.latencies.sort((a, b) => a - b);
  const cpuShare = (from: number | undefined, to: number | undefined, elapsed: number) =>
    from === undefined || to === undefined ? undefined : round((to - from) / elapsed, 2);
  return {
    accepted,
    line: {
      bench: 'http',
      scenario: name,
      auctions: auctions.length,
      bidders: bidders.length,
      bidsPerSec: Math.round(bidsPerSec),
      p50Ms: round(percentile(latencies, 0.5)),
      p99Ms: round(percentile(latencies, 0.99)),
      accepted: bids.t.ok,
      refused: refusedCount(bids.t),
      refusedBy: Object.fromEntries(bids.t.refusedBy),
      errors: bids.t.errors,
      ...(bids.t.firstError ? { firstError: bids.t.firstError.slice(0, 200) } : {}),
      trivialRoute: 'GET /api/v1/auth/me',
      trivialPerSec: Math.round(trivialPerSec),
      trivialP50Ms: round(percentile(trivialLatencies, 0.5)),
      trivialP99Ms: round(percentile(trivialLatencies, 0.99)),
      trivialErrors: trivial.t.errors + refusedCount(trivial.t),
      bareExpressPerSec: Math.round(bareExpressPerSec),
      bareExpressErrors: bareExpress.t.errors + refusedCount(bareExpress.t),
      trivialRatio: round(trivialPerSec / bareExpressPerSec, 3),
      ratio: round(bidsPerSec / trivialPerSec, 3),
      bidRequestsPerSec: Math.round(bidRequestsPerSec),
      requestRatio: round(bidRequestsPerSec / trivialPerSec, 3),
      serverCpuBids: cpuShare(cpu2, cpu3, bids.elapsed),
      serverCpuTrivial:
        trivial.cpu === undefined ? undefined : round(trivial.cpu / trivial.elapsed, 2),
      trivialCpuUsPerReq: cpuMicrosPerRequest(trivial),
      bareExpressCpuUsPerReq: cpuMicrosPerRequest(bareExpress),
      clientCpuBids: round((clientUsed.user + clientUsed.system) / 1e6 / bids.elapsed, 2),
      lostFromDetail: details.missing,
      duplicatesInDetail: details.duplicates,
      detailCatchUpMs: details.catchUpMs,
      seconds: round(bids.elapsed),
    },
  };
};

const main = async () => {
  const benchStarted = performance.now();
  const { dataDir, server } = await startBenchServer('bench-http-', values.profile);
  const http = new Http(new URL(server.url.replace('localhost', '127.0.0.1')), bidderCount);
  let bareExpress: BareServer | undefined;
  try {
    bareExpress = await startBareExpress();
    const bare = new Http(new URL(bareExpress.url), bidderCount);
    const setupStarted = performance.now();
    const seller = await signUpAndLogIn(http);
    const bidders = await pool(
      Array.from({ length: bidderCount }),
      Math.max(2, cpus().length * 2),
      () => signUpAndLogIn(http),
    );
    const hot: AuctionState = { id: await createLot(http, seller.cookie, 'Hot lot'), next: 100 };
    const lots = (prefix: string): Promise<AuctionState[]> =>
      pool(
        Array.from({ length: spreadAuctions }, (_, i) => i),
        8,
        async (i) => ({ id: await createLot(http, seller.cookie, `${prefix} ${i}`), next: 100 }),
      );
    const runs = (name: string) => ['all', 'both', name].includes(values.scenario);
    const spread = runs('spread') ? await lots('Lot') : [];
    const proxied = runs('proxy') ? await lots('Proxy lot') : [];
    const setupSeconds = round((performance.now() - setupStarted) / 1000);

    const results: ScenarioResult[] = [];
    if (runs('hot'))
      results.push(
        await scenario('hot', server, http, bareExpress, bare, bidders, [hot], () => hot),
      );
    if (runs('spread')) {
      const auctionOf = (i: number) => spread[i % spread.length] as AuctionState;
      results.push(
        await scenario('spread', server, http, bareExpress, bare, bidders, spread, auctionOf),
      );
    }
    if (runs('proxy')) {
      const auctionOf = (i: number) => proxied[i % proxied.length] as AuctionState;
      results.push(
        await scenario('proxy', server, http, bareExpress, bare, bidders, proxied, auctionOf),
      );
    }
    http.agent.destroy();
    bare.agent.destroy();
    await bareExpress.stop();
    const how = await server.stop('SIGTERM');
    if (how !== 0) throw new Error(`the server exited with ${how}:\n${server.output()}`);
    for (const { line, accepted } of results) {
      const log = await lostAndDuplicated(dataDir, accepted);
      console.log(
        JSON.stringify({
          ...line,
          lost: (line.lostFromDetail as number) + log.lost,
          lostFromLog: log.lost,
          duplicates: (line.duplicatesInDetail as number) + log.duplicates,
          setupSeconds,
          totalSeconds: round((performance.now() - benchStarted) / 1000),
          node: process.version,
          cores: cpus().length,
          memGiB: Math.round(totalmem() / 2 ** 30),
        }),
      );
    }
  } finally {
    http.agent.destroy();
    await bareExpress?.stop();
    await server.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
};

await main();
process.exit(0);
