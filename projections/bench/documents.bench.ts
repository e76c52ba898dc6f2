/**
 * Documents per event: every projection applies a realistic log (the rebuild benchmark's, then a
 * mix with proxy bids, retractions, a cancellation and an expiry) in catch-up batches of 10,000
 * through the runner's own batch path, into an in-memory SQLite read store. For each event type it
 * counts the read-store documents the handlers write (`uow.update` calls that change a document,
 * `uow.put` calls), by collection, and how many of them are new; and for the whole log the
 * documents the batches committed (a document changed by many events of a batch is written once)
 * and the documents stored at the end.
 * Prints one JSON line.   npx tsx projections/bench/documents.bench.ts [-- --events 100000]
 */
import { parseArgs } from 'node:util';
import { allProjections } from '../src/index';
import type { CollectionSpec, Doc, FindOptions } from '../src/read-store/read-store';
import { SqliteReadStore } from '../src/read-store/sqlite-read-store';
import type { FieldsOf, RecordedEvent, Projection, UnitOfWork } from '../src/runner/projection';
import { applyBatch } from '../src/runner/projection-runner';
import type { EventLog } from '../src/testing/event-log';
import { T0 } from '../src/testing/event-log';
import { buildHistory } from './history';

const { values } = parseArgs({ options: { events: { type: 'string' } } });
const targetEvents = Number(values.events ?? 100_000);
const BATCH = 10_000;

/** Proxy bidding, retractions, a cancellation and an expiry: the events the main mix lacks. */
const proxyMix = (log: EventLog, auctions: number): void => {
  for (let a = 0; a < auctions; a++) {
    const auctionId = `proxy-${a}`;
    log.create(auctionId, { seller: `seller-${a % 50}`, at: T0 });
    for (let b = 0; b < 20; b++) {
      const bidder = `proxy-bidder-${(a + b) % 40}`;
      log.send({
        type: 'PlaceBid',
        data: {
          auctionId,
          bidId: `${auctionId}-bid-${b}`,
          amount: 10_000 + b * 10_000,
          // Every other bidder leaves a maximum: the next bid is answered automatically.
          ...(b % 2 === 0 && { maxAmount: 25_000 + b * 10_000 }),
        },
        metadata: {
          commandId: `p${a}-${b}`,
          correlationId: `p${a}-${b}`,
          actorId: bidder,
          at: new Date(T0 + 1000 + b).toISOString(),
        },
      });
    }
    if (a % 10 === 0) log.cancel(auctionId, 'seller', `seller-${a % 50}`);
    else if (a % 10 === 1) log.close(auctionId);
  }
  const lone = 'lone-auction';
  log.create(lone, { seller: 'seller-0', at: T0 });
  log.close(lone);
  const retracting = 'retracting-auction';
  log.create(retracting, { seller: 'seller-1', at: T0 });
  for (let b = 0; b < 10; b++)
    log.bid(retracting, `retract-bidder-${b}`, 10_000 + b * 1_000, T0 + 1000 + b, `r-bid-${b}`);
  log.retract(retracting, 'retract-bidder-9', 'r-bid-9', T0 + 1100);
  log.retract(retracting, 'retract-bidder-8', 'r-bid-8', T0 + 1100);
  log.close(retracting);
};

interface Tally {
  events: number;
  writes: number;
  newDocuments: number;
  byCollection: Record<string, number>;
}

const main = async () => {
  const log = buildHistory(targetEvents);
  proxyMix(log, 200);
  const events = log.events;
  const store = new SqliteReadStore({ filename: ':memory:' });
  const specs = new Map<string, CollectionSpec>();
  for (const p of allProjections) for (const spec of p.collections) specs.set(spec.name, spec);
  await store.ensureCollections([...specs.values()]);

  const tallies = new Map<string, Tally>();
  const seen = new Set<string>();
  let current: Tally | undefined;
  const count = (collection: string, id: string) => {
    if (!current) return;
    current.writes += 1;
    current.byCollection[collection] = (current.byCollection[collection] ?? 0) + 1;
    const key = `${collection}\u0000${id}`;
    if (!seen.has(key)) {
      seen.add(key);
      current.newDocuments += 1;
    }
  };
  const counting = (uow: UnitOfWork): UnitOfWork => ({
    get: (collection, id) => uow.get(collection, id),
    find: (collection: string, options: FindOptions) => uow.find(collection, options),
    update: <D extends Doc>(
      collection: string,
      id: string,
      change: (current: D | undefined) => FieldsOf<D> | undefined,
    ) =>
      uow.update<D>(collection, id, (doc) => {
        const next = change(doc);
        if (next !== undefined) count(collection, id);
        return next;
      }),
    put: (collection, id, fields) => {
      count(collection, id);
      uow.put(collection, id, fields);
    },
  });
  const tallyOf = (type: string): Tally => {
    let tally = tallies.get(type);
    if (!tally) {
      tally = { events: 0, writes: 0, newDocuments: 0, byCollection: {} };
      tallies.set(type, tally);
    }
    return tally;
  };
  for (const event of events) tallyOf(event.type).events += 1;

  let committed = 0;
  for (const projection of allProjections) {
    const counted: Projection = {
      ...projection,
      handle: (event: RecordedEvent, uow: UnitOfWork) => {
        current = tallyOf(event.type);
        return projection.handle(event, counting(uow));
      },
    };
    for (let i = 0; i < events.length; i += BATCH) {
      const writes = await applyBatch(store, specs, counted, events.slice(i, i + BATCH));
      committed += writes.length;
    }
  }

  const stored: Record<string, number> = {};
  let storedTotal = 0;
  for (const name of [...specs.keys()].sort()) {
    const n = (await store.find(name)).length;
    if (n > 0) stored[name] = n;
    storedTotal += n;
  }
  await store.close();

  const perEvent: Record<string, unknown> = {};
  let writes = 0;
  for (const [type, tally] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    writes += tally.writes;
    const per = (n: number) => Number((n / tally.events).toFixed(2));
    perEvent[type] = {
      events: tally.events,
      writes: per(tally.writes),
      newDocuments: per(tally.newDocuments),
      byCollection: Object.fromEntries(
        Object.entries(tally.byCollection)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([name, n]) => [name, per(n)]),
      ),
    };
  }
  console.log(
    JSON.stringify({
      bench: 'documents',
      events: events.length,
      batch: BATCH,
      writesPerEvent: Number((writes / events.length).toFixed(2)),
      committedPerEvent: Number((committed / events.length).toFixed(2)),
      storedPerEvent: Number((storedTotal / events.length).toFixed(2)),
      perEvent,
      stored,
    }),
  );
};

await main();
