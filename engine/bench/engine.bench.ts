/**
 * One hot auction, N concurrent bidders each placing valid raising bids for a fixed time, on the
 * durable SQLite store; then the same store's append rate for the same events in the same batch
 * sizes, measured in the same run. Prints one JSON line.
 *
 *   npm run bench:engine [-- --quick] [-- --bidders 1000 --seconds 10]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { auctionStream } from '@auction/contracts';
import { Engine, type EventStore, type NewEvent, SqliteEventStore } from '../src/index';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    bidders: { type: 'string' },
    seconds: { type: 'string' },
  },
});
const bidders = Number(values.bidders ?? 1000);
const seconds = Number(values.seconds ?? (values.quick ? 3 : 10));

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0);
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** Records each append's size while passing it through. */
const recordingBatches = (inner: SqliteEventStore, sizes: number[]): EventStore =>
  new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'append') {
        return (...args: Parameters<EventStore['append']>) => {
          sizes.push(args[1].length);
          return target.append(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  const sqlite = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
  const now = Date.now();
  const batchSizes: number[] = [];
  const bus = new Engine({ store: recordingBatches(sqlite, batchSizes) });
  await bus.seedFixedCategories(new Date(now).toISOString());
  const auctionId = randomUUID();
  const meta = (actorId: string) => ({
    commandId: randomUUID(),
    correlationId: randomUUID(),
    actorId,
    at: new Date().toISOString(),
  });
  const created = await bus.send({
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
  batchSizes.length = 0;

  let nextAmount = 10_000;
  let accepted = 0;
  let refused = 0;
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const bidder = async (i: number) => {
    const actorId = `bidder-${i}`;
    while (performance.now() < deadline) {
      const amount = (nextAmount += 100);
      const sent = performance.now();
      const outcome = await bus.send({
        type: 'PlaceBid',
        data: { auctionId, bidId: randomUUID(), amount },
        metadata: meta(actorId),
      });
      latencies.push(performance.now() - sent);
      if (outcome.ok) accepted++;
      else refused++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: bidders }, (_, i) => bidder(i)));
  const elapsed = (performance.now() - started) / 1000;
  await bus.close();

  const stored = await sqlite.readStream(auctionStream(auctionId), { fromRevision: 1 });
  const events: NewEvent[] = stored.map((e) => ({
    id: randomUUID(),
    type: e.type,
    data: e.data,
    metadata: e.metadata,
  }));
  const rawStream = `raw-${auctionId}`;
  let offset = 0;
  const rawStarted = performance.now();
  for (const size of batchSizes) {
    const batch = events.slice(offset, offset + size);
    await sqlite.append(rawStream, batch, offset === 0 ? 'no_stream' : offset - 1);
    offset += size;
  }
  const rawElapsed = (performance.now() - rawStarted) / 1000;
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });

  latencies.sort((a, b) => a - b);
  const bidsPerSec = accepted / elapsed;
  const rawAppendPerSec = offset / rawElapsed;
  console.log(
    JSON.stringify({
      bench: 'engine',
      bidsPerSec: Math.round(bidsPerSec),
      rawAppendPerSec: Math.round(rawAppendPerSec),
      ratio: round(bidsPerSec / rawAppendPerSec, 3),
      bidders,
      seconds: round(elapsed, 2),
      accepted,
      refused,
      batches: batchSizes.length,
      meanBatch: round(offset / Math.max(1, batchSizes.length)),
      p50Ms: round(percentile(latencies, 0.5), 2),
      p99Ms: round(percentile(latencies, 0.99), 2),
      store: 'sqlite wal synchronous=FULL',
      node: process.version,
      cores: cpus().length,
      memGiB: Math.round(totalmem() / 2 ** 30),
    }),
  );
};

await main();
