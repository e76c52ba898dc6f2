/**
 * Realtime fan-out: a real server in this process, N sockets watching one auction, bids placed over
 * HTTP at a steady rate. For every socket and every bid: was the `newBid` delivered, once, in
 * revision order, and how long after the bid's HTTP acknowledgement. Prints one JSON line.
 *
 *   npm run bench:fanout [-- --quick] [-- --sockets 2000 --rate 20 --seconds 10 --inflight 8]
 *   (--bids overrides rate × seconds; --inflight 1 sends each bid after the previous answer)
 *
 * Latency = arrival of the event at a socket − arrival of the bid's HTTP response, both measured
 * with performance.now() in this process. The event can beat the response (negative values are
 * kept: `beforeAck` counts them). `fromSend*` is the same arrival measured from when the bid's
 * request was sent. Server and clients share one event loop, so client-side parsing is part of
 * every latency.
 */
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import type { AuctionSocketEvent, SocketAck } from '@auction/contracts';
import { type Socket, io } from 'socket.io-client';
import { type TestUser, createAuctionOverHttp, signUpAndLogIn } from '../src/testing/fixtures';
import { startTestServer } from '../src/testing/test-server';

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
const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one socket saw: arrival time per revision (NaN: not yet), duplicates, order breaks. */
interface Watcher {
  readonly socket: Socket;
  readonly arrivals: Float64Array;
  lastRevision: number;
  duplicates: number;
  outOfOrder: number;
  /** Events whose revision was outside 1..M or whose bid id did not match that revision's bid. */
  unexpected: number;
}

const main = async () => {
  const benchStarted = performance.now();
  const server = await startTestServer();
  const seller = await signUpAndLogIn(server);
  const bidders: TestUser[] = [];
  for (let i = 0; i < bidderCount; i++) bidders.push(await signUpAndLogIn(server));
  const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });

  /**
   * Bid id of revision k, as the first socket to hear of it says (refused bids append nothing, so
   * the accepted bids are revisions 1..accepted; the auction was created at revision 0).
   */
  const bidIdAt: (string | undefined)[] = new Array<string | undefined>(bidCount + 1);
  /** Per accepted bid id: when its request was sent and when its 201 arrived. */
  const acks = new Map<string, { sent: number; acked: number }>();
  let delivered = 0;
  let lastDelivery = 0;
  let disconnects = 0;
  const disconnectReasons = new Map<string, number>();
  let allDelivered: (() => void) | undefined;
  let expected = Number.POSITIVE_INFINITY;

  const watchers: Watcher[] = [];
  const open = (): Promise<Watcher> =>
    new Promise((resolve, reject) => {
      const socket = io(server.url, {
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
      socket.once('connect_error', reject);
      socket.once('connect', () => {
        socket
          .timeout(connectTimeoutMs)
          .emitWithAck('auction:watch', { auctionId })
          .then((ack: SocketAck) => {
            if (!ack.ok) throw new Error(`auction:watch refused: ${JSON.stringify(ack.error)}`);
            resolve(watcher);
          })
          .catch(reject);
      });
    });

  const connectStarted = performance.now();
  for (let i = 0; i < socketCount; i += batchSize) {
    const batch = Math.min(batchSize, socketCount - i);
    watchers.push(...(await Promise.all(Array.from({ length: batch }, open))));
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;

  // Bids at a steady rate (open loop, at most `maxInFlight` at once), each $1 above the one sent
  // before. Two bids in flight together can reach the server in the other order: the lower one is
  // then refused (409) and another is sent, until `bidCount` were accepted.
  const interval = 1000 / rate;
  let refused = 0;
  let accepted = 0;
  let amount = 100;
  const place = async (i: number): Promise<void> => {
    const bidder = bidders[i % bidders.length] as TestUser;
    const sent = performance.now();
    const res = await bidder.client.post('/api/v1/bid/placeBid', {
      json: { productId: auctionId, bidAmount: (amount += 1) },
    });
    const acked = performance.now();
    if (res.status !== 201) {
      if (++refused <= 3) console.error(`bid refused: ${res.status} ${JSON.stringify(res.body)}`);
      return;
    }
    accepted++;
    acks.set((res.body as { newBid: { _id: string } }).newBid._id, { sent, acked });
  };
  const pending = new Set<Promise<void>>();
  const bidsStarted = performance.now();
  for (let i = 0; accepted + pending.size < bidCount && refused <= bidCount; i++) {
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
    await Promise.race([
      new Promise<void>((resolve) => (allDelivered = resolve)),
      sleep(stragglerMs),
    ]);
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
  const latencies = new Float64Array(delivered);
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
      latencies[n++] = latency;
    }
  }
  const sorted = latencies.subarray(0, n).sort();
  const sortedFromSend = fromSend.subarray(0, n).sort();
  const firstAck = Math.min(...[...acks.values()].map((t) => t.acked));
  const deliveriesPerSec = delivered / ((lastDelivery - firstAck) / 1000);
  const disconnectsDuringRun = disconnects;
  const reasonsDuringRun = Object.fromEntries(disconnectReasons);

  for (const w of watchers) w.socket.disconnect();
  const serverLogs = server.logs.length;
  const firstServerLog = server.logs[0]?.map((v) => String(v)).join(' ');
  await server.cleanup();

  console.log(
    JSON.stringify({
      bench: 'fanout',
      sockets: socketCount,
      bids: accepted,
      deliveries: socketCount * accepted,
      delivered,
      lost: socketCount * accepted - delivered,
      duplicates,
      outOfOrder,
      p50Ms: round(percentile(sorted, 0.5)),
      p99Ms: round(percentile(sorted, 0.99)),
      maxMs: round(sorted[sorted.length - 1] ?? 0),
      minMs: round(sorted[0] ?? 0),
      beforeAck,
      fromSendP50Ms: round(percentile(sortedFromSend, 0.5)),
      fromSendP99Ms: round(percentile(sortedFromSend, 0.99)),
      fromSendMaxMs: round(sortedFromSend[sortedFromSend.length - 1] ?? 0),
      deliveriesPerSec: Math.round(deliveriesPerSec),
      bidRatePerSec: round(accepted / bidSeconds),
      targetRatePerSec: rate,
      refused,
      unexpected,
      disconnects: disconnectsDuringRun,
      ...(disconnectsDuringRun > 0 ? { disconnectReasons: reasonsDuringRun } : {}),
      connectSeconds: round(connectSeconds),
      stragglerWaitMs: Math.round(waitedMs),
      serverLogs,
      ...(firstServerLog ? { firstServerLog: firstServerLog.slice(0, 200) } : {}),
      totalSeconds: round((performance.now() - benchStarted) / 1000),
      node: process.version,
      cores: cpus().length,
      memGiB: Math.round(totalmem() / 2 ** 30),
    }),
  );
};

await main();
process.exit(0);
