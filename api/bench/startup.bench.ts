/**
 * Start-up over a long event log: how soon the server (api/src/main.ts as a child process, as
 * `npm start` runs it) accepts connections, answers `/health`, takes a bid, serves a read, and
 * has its read models caught up with the log. The log is generated first (`writeAuctionLog`:
 * auctions with 200 bids each, decided by the real decider and sealed into the hash chain), then
 * the server starts on it twice, one JSON line each:
 *   no-read-store    the read store is missing (lost, or a first start on an imported log)
 *   read-store-kept  a restart after that one caught up and stopped (SIGTERM)
 * Times are from the spawn of the process (so they include node and tsx starting), in ms.
 * While the read models catch up, `/health` says `ready: false`; `caughtUpMs` is the first
 * `/health` without it. The auction page is answered from the engine's state meanwhile:
 * `firstReadMs` is its first 200 (`readsRefused`: its 503s before that). Lists wait for the read
 * models: `listsServedMs` is the first 200 of the All Auctions page (`listsRefused`: its 503s).
 * `healthMaxMs` is the slowest `/health` answer meanwhile (polled every 50 ms), `healthNot200`
 * how many were not 200.
 *
 *   npm run bench:startup -- [--quick] [--events 1000000] [--dir DATA_DIR]
 *   (--quick: 100,000 events; --dir reuses the log in DATA_DIR, or keeps the one it writes there)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SqliteEventStore } from '@auction/engine';
import { startChildServer } from '../src/testing/child-server';
import {
  Http,
  freePort,
  portAccepts,
  round,
  signUpAndLogIn,
  writeAuctionLog,
} from './bench-support';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    events: { type: 'string' },
    dir: { type: 'string' },
  },
});
const targetEvents = Number(values.events ?? (values.quick ? 100_000 : 1_000_000));
/** How often the benchmark asks `/health` (and tries a read) while it waits. */
const POLL_MS = 50;
const READ_EVERY_MS = 500;
const START_TIMEOUT_MS = 30 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const since = (t0: number) => Math.round(performance.now() - t0);
const fileBytes = (path: string) => (existsSync(path) ? statSync(path).size : 0);
const logBytes = (dir: string) =>
  fileBytes(join(dir, 'events.sqlite')) + fileBytes(join(dir, 'events.sqlite-wal'));

interface LiveAuction {
  readonly id: string;
  readonly nextBidCents: number;
}

/** The log in `dir`: written when missing (else its last live auction is looked up). */
const theLog = async (dir: string) => {
  const filename = join(dir, 'events.sqlite');
  if (existsSync(filename)) {
    const store = new SqliteEventStore({ filename });
    try {
      const events = (await store.headPosition()) ?? 0;
      const created = await store.readAll({ eventTypes: ['AuctionCreated'] });
      const now = new Date().toISOString();
      const live = created.filter((e) => (e.data as { endsAt: string }).endsAt > now).at(-1);
      if (!live) throw new Error(`No live auction in ${filename}`);
      const id = (live.data as { auctionId: string }).auctionId;
      const bids = (await store.readStream(`auction-${id}`)).filter((e) => e.type === 'BidPlaced');
      const top = Math.max(10_000, ...bids.map((e) => (e.data as { amount: number }).amount));
      console.error(`reusing ${filename}: ${events} events`);
      return { events, liveAuction: { id, nextBidCents: top + 10_000 }, generateSeconds: 0 };
    } finally {
      await store.close();
    }
  }
  const started = performance.now();
  const { events, liveAuction } = await writeAuctionLog(filename, targetEvents);
  const generateSeconds = round((performance.now() - started) / 1000);
  console.error(`wrote ${events} events in ${generateSeconds} s to ${filename}`);
  return { events, liveAuction, generateSeconds };
};

const scenario = async (
  name: 'no-read-store' | 'read-store-kept',
  dir: string,
  auction: LiveAuction,
  bidCents: number,
) => {
  const port = await freePort();
  const http = new Http(new URL(`http://127.0.0.1:${port}`), 4);
  const t0 = performance.now();
  const child = startChildServer(
    { DATA_DIR: dir, PORT: String(port), RATE_LIMIT_SIGNUP: '1000', RATE_LIMIT_LOGIN: '1000' },
    { startTimeoutMs: START_TIMEOUT_MS, ready: false },
  );
  child.catch(() => undefined);
  await portAccepts(port);
  const portMs = since(t0);
  const server = await child;
  const listeningMs = since(t0);

  // The first answer of /health, then a bid (sign-up, login, bid: the log, accounts and sessions
  // only) while the read models may still be catching up.
  let health = await http.send('GET', '/health').catch(() => undefined);
  while (!health) {
    await sleep(5);
    health = await http.send('GET', '/health').catch(() => undefined);
  }
  const healthMs = since(t0);
  const first = { status: health.status, ready: health.body.ready !== false };
  const bidder = await signUpAndLogIn(http);
  const bid = await http.send('POST', '/bid/placeBid', bidder.cookie, {
    productId: auction.id,
    bidAmount: bidCents / 100,
  });
  const bidMs = since(t0);
  if (bid.status !== 201) {
    await server.stop('SIGTERM');
    throw new Error(`bid: ${bid.status} ${JSON.stringify(bid.body)}\n${server.output()}`);
  }

  // Until /health no longer says `ready: false`; the auction page and a list now and then
  // meanwhile, each until it is first served.
  const detailPath = `/auction/fetchSpecificAuction?auctionId=${auction.id}`;
  const listPath = '/auction/fetchAllAuctions';
  const tries = (path: string) => {
    const state = {
      servedMs: undefined as number | undefined,
      refused: 0,
      refusal: undefined as string | undefined,
      last: 0,
      asking: undefined as Promise<void> | undefined,
    };
    const poll = () => {
      if (state.asking || state.servedMs !== undefined) return;
      if (performance.now() - state.last < READ_EVERY_MS) return;
      state.last = performance.now();
      state.asking = http
        .send('GET', path)
        .then((read) => {
          if (read.status === 200) state.servedMs ??= since(t0);
          else if (read.status === 503) {
            state.refused++;
            state.refusal = `${read.status} ${String(read.body.message)} (Retry-After given)`;
          } else throw new Error(`${path}: ${read.status} ${JSON.stringify(read.body)}`);
        })
        .finally(() => (state.asking = undefined));
    };
    const finish = async () => {
      await state.asking;
      if (state.servedMs === undefined) {
        const read = await http.send('GET', path);
        if (read.status !== 200)
          throw new Error(`${path}: ${read.status} ${JSON.stringify(read.body)}`);
        state.servedMs = since(t0);
      }
      return state.servedMs;
    };
    return { state, poll, finish };
  };
  const page = tries(detailPath);
  const lists = tries(listPath);
  let caughtUpMs: number | undefined;
  let lag: unknown;
  // How long /health took to answer while the read models caught up, and answers other than 200.
  let healthMaxMs = 0;
  let healthNot200 = 0;
  let healthNot200Said: string | undefined;
  while (caughtUpMs === undefined) {
    page.poll();
    lists.poll();
    const asked = performance.now();
    const now = await http.send('GET', '/health');
    healthMaxMs = Math.max(healthMaxMs, since(asked));
    if (now.status !== 200) {
      healthNot200++;
      healthNot200Said = `${now.status} ${String(now.body.message)}`;
    }
    if (now.body.ready === false) lag = now.body.readModels;
    else caughtUpMs = since(t0);
    if (caughtUpMs === undefined) await sleep(POLL_MS);
  }
  const firstReadMs = await page.finish();
  const listsServedMs = await lists.finish();
  const readsRefused = page.state.refused;
  const listsRefused = lists.state.refused;
  const refusal = page.state.refusal;
  const detail = await http.send('GET', detailPath);
  const currentBid = (detail.body.auctionDetails as { currentBid: number }).currentBid;
  const exit = await server.stop('SIGTERM');
  http.agent.destroy();
  const errors = server
    .output()
    .split('\n')
    .filter((line) => /error/i.test(line));
  if (errors.length > 0) console.error(`${name}: server output:\n${errors.join('\n')}`);
  if (lag !== undefined) console.error(`${name}: last lag seen: ${JSON.stringify(lag)}`);
  if (refusal) console.error(`${name}: an auction page while catching up got ${refusal}`);
  if (lists.state.refusal)
    console.error(`${name}: a list while catching up got ${lists.state.refusal}`);
  if (healthNot200Said) console.error(`${name}: /health answered ${healthNot200Said}`);
  return {
    portMs,
    listeningMs,
    healthMs,
    healthStatus: first.status,
    healthReady: first.ready,
    bidMs,
    bidShownAfterCatchUp: currentBid === bidCents / 100,
    firstReadMs,
    readsRefused,
    listsServedMs,
    listsRefused,
    caughtUpMs,
    healthMaxMs,
    healthNot200,
    stoppedWith: exit,
  };
};

const main = async () => {
  const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'bench-startup-'));
  mkdirSync(dir, { recursive: true });
  try {
    const { events, liveAuction, generateSeconds } = await theLog(dir);
    const bytes = logBytes(dir);
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(dir, `read.sqlite${suffix}`), { force: true });
    let bidCents = liveAuction.nextBidCents;
    for (const name of ['no-read-store', 'read-store-kept'] as const) {
      const result = await scenario(name, dir, liveAuction, bidCents);
      bidCents += 10_000;
      console.log(
        JSON.stringify({
          bench: 'startup',
          scenario: name,
          events,
          logMiB: round(bytes / 2 ** 20, 1),
          ...result,
          catchUpEventsPerSec:
            name === 'no-read-store'
              ? Math.round(events / ((result.caughtUpMs - result.healthMs) / 1000))
              : undefined,
          generateSeconds,
          node: process.version,
          cores: cpus().length,
          memGiB: Math.round(totalmem() / 2 ** 30),
        }),
      );
    }
  } finally {
    if (!values.dir) rmSync(dir, { recursive: true, force: true });
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
