/**
 * Realtime fan-out beside bare Socket.IO, in the same run. The real server (api/src/main.ts) as a
 * child process on a fresh DATA_DIR, N sockets (in this process) watching one auction, bids placed
 * over keep-alive HTTP at a steady rate. For every socket and every bid: was the `newBid`
 * delivered, once, in revision order, and how long after the bid's request was sent. Then the
 * same clients, socket count, rate and timing against bare Socket.IO (api/bench/bare-socketio.ts,
 * a child process that broadcasts the same payload, captured from the real run, on each POST).
 * Prints one JSON line.
 *
 *   npm run bench:fanout [-- --quick] [-- --sockets 2000 --rate 20 --seconds 10 --inflight 8]
 *   (--bids overrides rate × seconds; --inflight 1 sends each bid after the previous answer;
 *    --profile DIR writes the real server's CPU profile there)
 *
 * Latency (`p50Ms`, `p99Ms`, and `bareP50Ms`, `bareP99Ms` for bare Socket.IO) = arrival of the
 * event at a socket − when its request was sent, both with performance.now() in this process;
 * `p99Ratio` = p99Ms ÷ bareP99Ms. `fromAck*` is the arrival against the bid's HTTP response (the
 * event can beat the response: negative values are kept, `beforeAck` counts them). Both servers
 * run alone on their side: the other one is stopped or not started yet.
 */
import { rmSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import type {
  AuctionSocketEvent,
  ClientToServerEvents,
  ServerToClientEvents,
  SocketAck,
} from '@auction/contracts';
import { type Socket, io } from 'socket.io-client';
import {
  Http,
  round,
  signUpAndLogIn,
  createLot,
  startBenchServer,
  startBareServer,
  raiseDollars,
} from './bench-support';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    sockets: { type: 'string' },
    bids: { type: 'string' },
    rate: { type: 'string' },
    seconds: { type: 'string' },
    batch: { type: 'string' },
    bidders: { type: 'string' },
    inflight: { type: 'string' },
    profile: { type: 'string' },
  },
});
const socketCount = Number(values.sockets ?? (values.quick ? 500 : 2000));
const rate = Number(values.rate ?? 20);
const seconds = Number(values.seconds ?? (values.quick ? 3 : 10));
const bidCount = Number(values.bids ?? Math.round(rate * seconds));
const batchSize = Number(values.batch ?? 100);
const bidderCount = Number(values.bidders ?? 4);
/** Bids on their way at once: the rate holds even when a round trip is longer than 1/rate. */
const maxInFlight = Number(values.inflight ?? 8);
/** How long to wait after the last bid's acknowledgement for deliveries still on their way. */
const stragglerMs = 10_000;
const connectTimeoutMs = 20_000;

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** What one socket saw: arrival time per revision (NaN: not yet), duplicates, order breaks. */
interface Watcher {
  readonly socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  readonly arrivals: Float64Array;
  lastRevision: number;
  duplicates: number;
  outOfOrder: number;
  /** Events whose revision was outside 1..M or whose bid id did not match that revision's bid. */
  unexpected: number;
}

/** A server to measure: where it is, who bids, on which auction. */
interface Target {
  readonly url: string;
  readonly http: Http;
  readonly cookies: readonly string[];
  readonly auctionId: string;
}

/**
 * N sockets watch the auction, then `bidCount` bids are accepted at `rate` (open loop, at most
 * `maxInFlight` at once, each one increment above the one sent before: two bids in flight together can reach
 * the server in the other order, the lower one is then refused and another sent). The figures,
 * and the first `newBid` payload a socket received.
 */
const measure = async (target: Target) => {
  const bidIdAt: (string | undefined)[] = new Array<string | undefined>(bidCount + 1);
  const acks = new Map<string, { sent: number; acked: number }>();
  let delivered = 0;
  let lastDelivery = 0;
  let disconnects = 0;
  const disconnectReasons = new Map<string, number>();
  let allDelivered: (() => void) | undefined;
  let expected = Number.POSITIVE_INFINITY;
  let sample: AuctionSocketEvent | undefined;

  const watchers: Watcher[] = [];
  const open = (): Promise<Watcher> =>
    new Promise((done, fail) => {
      const socket: Watcher['socket'] = io(target.url, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        timeout: connectTimeoutMs,
      });
      const watcher: Watcher = {
        socket,
        arrivals: new Float64Array(bidCount + 1).fill(Number.NaN),
        lastRevision: 0,
        duplicates: 0,
        outOfOrder: 0,
        unexpected: 0,
      };
      socket.on('newBid', (event: AuctionSocketEvent) => {
        const now = performance.now();
        sample ??= event;
        const revision = event.revision;
        if (!Number.isInteger(revision) || revision < 1 || revision > bidCount) {
          watcher.unexpected++;
          return;
        }
        const known = bidIdAt[revision];
        if (known === undefined) bidIdAt[revision] = event.bid?._id;
        else if (event.bid?._id !== known) watcher.unexpected++;
        if (revision <= watcher.lastRevision) watcher.outOfOrder++;
        watcher.lastRevision = Math.max(watcher.lastRevision, revision);
        if (!Number.isNaN(watcher.arrivals[revision] ?? Number.NaN)) {
          watcher.duplicates++;
          return;
        }
        watcher.arrivals[revision] = now;
        lastDelivery = Math.max(lastDelivery, now);
        if (++delivered === expected) allDelivered?.();
      });
      socket.on('disconnect', (reason) => {
        disconnects++;
        disconnectReasons.set(reason, (disconnectReasons.get(reason) ?? 0) + 1);
      });
      socket.once('connect_error', fail);
      socket.once('connect', () => {
        socket
          .timeout(connectTimeoutMs)
          .emitWithAck('auction:watch', { auctionId: target.auctionId })
          .then((ack: SocketAck) => {
            if (!ack.ok) throw new Error(`auction:watch refused: ${JSON.stringify(ack.error)}`);
            done(watcher);
          })
          .catch(fail);
      });
    });

  const connectStarted = performance.now();
  for (let i = 0; i < socketCount; i += batchSize) {
    const batch = Math.min(batchSize, socketCount - i);
    watchers.push(...(await Promise.all(Array.from({ length: batch }, open))));
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  const interval = 1000 / rate;
  let refused = 0;
  let errors = 0;
  let accepted = 0;
  let amount = 100;
  const place = async (i: number): Promise<void> => {
    const cookie = target.cookies[i % target.cookies.length] as string;
    const sent = performance.now();
    const res = await target.http.send('POST', '/bid/placeBid', cookie, {
      productId: target.auctionId,
      bidAmount: (amount = raiseDollars(amount)),
    });
    const acked = performance.now();
    if (res.status !== 201) {
      if (res.status === 409) refused++;
      else errors++;
      if (refused + errors <= 3)
        console.error(`bid refused: ${res.status} ${JSON.stringify(res.body)}`);
      return;
    }
    accepted++;
    acks.set((res.body as { newBid: { _id: string } }).newBid._id, { sent, acked });
  };
  const pending = new Set<Promise<void>>();
  const bidsStarted = performance.now();
  for (let i = 0; accepted + pending.size < bidCount && refused + errors <= bidCount; i++) {
    const wait = bidsStarted + i * interval - performance.now();
    if (wait > 1) await sleep(wait);
    while (pending.size >= maxInFlight) await Promise.race(pending);
    if (accepted + pending.size >= bidCount) break;
    const placing: Promise<void> = place(i).finally(() => pending.delete(placing));
    pending.add(placing);
    if (accepted + pending.size >= bidCount) await Promise.all(pending);
  }
  await Promise.all(pending);
  const lastAck = performance.now();
  const bidSeconds = (lastAck - bidsStarted) / 1000;

  expected = socketCount * accepted;
  if (delivered < expected) {
    await Promise.race([new Promise<void>((done) => (allDelivered = done)), sleep(stragglerMs)]);
  }
  const waitedMs = performance.now() - lastAck;

  let duplicates = 0;
  let outOfOrder = 0;
  let unexpected = 0;
  let beforeAck = 0;
  /** Per revision, its bid's HTTP timings (undefined: no socket heard of it, or not acked). */
  const timings = Array.from({ length: accepted + 1 }, (_, revision) => {
    const bidId = bidIdAt[revision];
    return bidId === undefined ? undefined : acks.get(bidId);
  });
  const fromAck = new Float64Array(delivered);
  const fromSend = new Float64Array(delivered);
  let n = 0;
  for (const w of watchers) {
    duplicates += w.duplicates;
    outOfOrder += w.outOfOrder;
    unexpected += w.unexpected;
    for (let revision = 1; revision <= accepted; revision++) {
      const arrived = w.arrivals[revision] ?? Number.NaN;
      const timing = timings[revision];
      if (Number.isNaN(arrived) || !timing) continue;
      const latency = arrived - timing.acked;
      if (latency < 0) beforeAck++;
      fromSend[n] = arrived - timing.sent;
      fromAck[n++] = latency;
    }
  }
  const sortedFromAck = fromAck.subarray(0, n).sort();
  const sortedFromSend = fromSend.subarray(0, n).sort();
  const firstAck = Math.min(...[...acks.values()].map((t) => t.acked));
  const figures = {
    bids: accepted,
    deliveries: socketCount * accepted,
    delivered,
    lost: socketCount * accepted - delivered,
    duplicates,
    outOfOrder,
    unexpected,
    p50Ms: round(percentile(sortedFromSend, 0.5)),
    p99Ms: round(percentile(sortedFromSend, 0.99)),
    maxMs: round(sortedFromSend[sortedFromSend.length - 1] ?? 0),
    fromAckP50Ms: round(percentile(sortedFromAck, 0.5)),
    fromAckP99Ms: round(percentile(sortedFromAck, 0.99)),
    beforeAck,
    deliveriesPerSec: Math.round(delivered / ((lastDelivery - firstAck) / 1000)),
    bidRatePerSec: round(accepted / bidSeconds),
    refused,
    errors,
    disconnects,
    ...(disconnects > 0 ? { disconnectReasons: Object.fromEntries(disconnectReasons) } : {}),
    connectSeconds: round(connectSeconds),
    stragglerWaitMs: Math.round(waitedMs),
  };
  for (const w of watchers) w.socket.disconnect();
  return { figures, sample };
};

/** Bare Socket.IO (`bare-socketio.ts`) as a child process broadcasting `payload`. */
const startBareSocketIo = (payload: AuctionSocketEvent) =>
  startBareServer('bare-socketio.ts', { BARE_PAYLOAD: JSON.stringify(payload) });

const main = async () => {
  const benchStarted = performance.now();
  const { dataDir, server } = await startBenchServer('bench-fanout-', values.profile);
  let ours: Awaited<ReturnType<typeof measure>>;
  let serverOutput: string;
  try {
    const url = server.url.replace('localhost', '127.0.0.1');
    const http = new Http(new URL(url), maxInFlight);
    const seller = await signUpAndLogIn(http);
    const cookies: string[] = [];
    for (let i = 0; i < bidderCount; i++) cookies.push((await signUpAndLogIn(http)).cookie);
    const auctionId = await createLot(http, seller.cookie, 'Fan-out lot');
    ours = await measure({ url, http, cookies, auctionId });
    http.agent.destroy();
  } catch (error) {
    console.error(server.output());
    throw error;
  } finally {
    await server.stop();
    serverOutput = server.output();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (!ours.sample) throw new Error('No socket heard a newBid: nothing to compare with');

  const bareServer = await startBareSocketIo(ours.sample);
  let bare: Awaited<ReturnType<typeof measure>>;
  try {
    const http = new Http(new URL(bareServer.url), maxInFlight);
    bare = await measure({ url: bareServer.url, http, cookies: [''], auctionId: 'bare' });
    http.agent.destroy();
  } finally {
    await bareServer.stop();
  }

  // What the server printed besides its start and stop lines (errors, warnings).
  const serverLines = serverOutput
    .split('\n')
    .filter((line) => line.trim() !== '' && !/listening on|draining in-flight/.test(line));
  console.log(
    JSON.stringify({
      bench: 'fanout',
      sockets: socketCount,
      targetRatePerSec: rate,
      ...ours.figures,
      bareP50Ms: bare.figures.p50Ms,
      bareP99Ms: bare.figures.p99Ms,
      p99Ratio: round(ours.figures.p99Ms / bare.figures.p99Ms),
      bareMaxMs: bare.figures.maxMs,
      bareBidRatePerSec: bare.figures.bidRatePerSec,
      bareLost: bare.figures.lost,
      bareDeliveriesPerSec: bare.figures.deliveriesPerSec,
      payloadBytes: Buffer.byteLength(JSON.stringify(ours.sample)),
      serverLogs: serverLines.length,
      ...(serverLines[0] ? { firstServerLog: serverLines[0].slice(0, 200) } : {}),
      totalSeconds: round((performance.now() - benchStarted) / 1000),
      node: process.version,
      cores: cpus().length,
      memGiB: Math.round(totalmem() / 2 ** 30),
    }),
  );
};

await main();
process.exit(0);
