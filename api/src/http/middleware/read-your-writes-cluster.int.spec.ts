import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  settled,
  signUpAndLogIn,
} from '../../testing/fixtures';
import { type TestServer, startTestServer } from '../../testing/test-server';
import { dropTestStores } from '../../testing/test-stores';
import { BEHIND_HEADER, TOKEN_HEADER } from './read-your-writes';
import { clusterTestEnv } from '../../testing/cluster-env';

/**
 * Read-your-writes across two nodes of a cluster (`KAFKA_BROKERS`, one MongoDB database, one
 * DATA_DIR and so one shared SQLite log): a bidder bids through node A and at once, with only the
 * cookies their browser keeps, reads the auction page and their own bids through node B, and sees
 * the bid. Node A holds every projection's lease (it started first), so B answers from read models
 * it only follows: it waits for A's checkpoints. Each auction is owned by one node: on A's, A's own
 * subscription applies the bid; on B's, A learns of the append from B.
 *
 * Two clusters side by side: one with positions pushed on the broadcast (the product), one with
 * the push off (each node polls the shared log and the followed checkpoints every 50 ms, as before
 * the push). Their rounds alternate, so both meet the same load. The test asserts what each reader
 * sees, and that in the first cluster B hears A's checkpoints; it prints one JSON line per cluster
 * (figures in docs/benchmarks.md): the wait from A's 201 to B's two answers; the time from A's
 * commit of the catalog at the bid to B knowing it (what the push shortens; the rest of the wait
 * is A applying the bid and B's own reads); and the same two reads again once nothing is left to
 * wait for (B's own cost).
 */

const brokers = process.env.KAFKA_BROKERS;
const mongodbUrl = process.env.MONGODB_URL;
/** Bids per auction (one auction owned by each node, in each cluster). */
const ROUNDS = Number(process.env.RYW_CLUSTER_ROUNDS ?? 10);

const detailPath = (id: string) => `/api/v1/auction/fetchSpecificAuction?auctionId=${id}`;

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

interface Cluster {
  readonly mode: 'positions pushed' | 'poll only';
  readonly push: boolean;
  readonly dataDir: string;
  readonly shared: Record<string, string>;
  a?: TestServer;
  b?: TestServer;
}

interface Running {
  readonly cluster: Cluster;
  readonly a: TestServer;
  readonly b: TestServer;
  readonly bidder: TestUser;
  /** An auction owned by A, and one owned by B. */
  readonly owned: readonly [string, string];
  /** From A's 201 to B's two answers. */
  readonly waits: number[];
  /** From A's commit of the catalog at the bid to B knowing it. */
  readonly catalogAToB: number[];
  /** The same two reads on B once nothing is left to wait for. */
  readonly reads: number[];
  amount: number;
}

const cluster = (mode: Cluster['mode'], push: boolean): Cluster => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ryw-cluster-'));
  return {
    mode,
    push,
    dataDir,
    shared: clusterTestEnv('ryw', dataDir, 4),
  };
};

/** Starts A, then B; signs a seller and a bidder up; finds an auction owned by each node. */
const start = async (c: Cluster): Promise<Running> => {
  const a = (c.a = await startTestServer(
    { ...c.shared, NODE_ID: 'node-a' },
    { positionPush: c.push },
  ));
  const b = (c.b = await startTestServer(
    { ...c.shared, NODE_ID: 'node-b' },
    { positionPush: c.push },
  ));
  const seller = await signUpAndLogIn(a);
  const bidder = await signUpAndLogIn(a);
  // A real browser: it sends only the token it was handed (its cookie).
  bidder.client.stranger();
  const found: Partial<Record<'a' | 'b', string>> = {};
  for (let i = 0; i < 40 && !(found.a && found.b); i += 1) {
    const id = await createAuctionOverHttp(seller.client);
    // Ownership settles once both nodes are in the group: each auction is owned by exactly one.
    await vi.waitFor(() => expect(a.deps.engine.owns(id) !== b.deps.engine.owns(id)).toBe(true), {
      timeout: 30_000,
      interval: 100,
    });
    found[a.deps.engine.owns(id) ? 'a' : 'b'] ??= id;
  }
  if (!found.a || !found.b) throw new Error('no auction owned by each node');
  await settled(a);
  await settled(b);
  // Both auctions start at $100; each bid is a dollar above the last on either.
  return {
    cluster: c,
    a,
    b,
    bidder,
    owned: [found.a, found.b],
    waits: [],
    catalogAToB: [],
    reads: [],
    amount: 99,
  };
};

describe.skipIf(!brokers || !mongodbUrl)('read-your-writes across the nodes of a cluster', () => {
  const clusters = [cluster('positions pushed', true), cluster('poll only', false)];
  let running: Running[] = [];

  beforeAll(async () => {
    running = [];
    for (const c of clusters) running.push(await start(c));
  }, 240_000);

  afterAll(async () => {
    for (const c of clusters) {
      await c.b?.cleanup();
      await c.a?.cleanup();
      await dropTestStores(c.shared);
      rmSync(c.dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  /** Bids through A, then reads through B at once; returns the wait from A's 201 to B's answers. */
  const bidThenRead = async (r: Running, auctionId: string, heard: () => unknown[][]) => {
    r.amount += 1;
    const amount = r.amount;
    const placed = await r.bidder.client.post('/api/v1/bid/placeBid', {
      json: { productId: auctionId, bidAmount: amount },
    });
    expect(placed.status).toBe(201);
    const token = Number(placed.headers.get(TOKEN_HEADER));
    const answered = performance.now();
    // When the catalog at the bid is known on A, which applies it (A's waiters resolve as its
    // batch commits), and on B, which hears of it (pushed or polled): no I/O of their own.
    const catalogAt = (server: TestServer) =>
      server.deps.runner.waitFor(token, ['catalog'], 30_000).then(() => performance.now());
    const [catalogOnA, catalogOnB] = [catalogAt(r.a), catalogAt(r.b)];
    const onB = r.bidder.client.at(r.b.url);
    const [page, history] = await Promise.all([
      onB.get(detailPath(auctionId)),
      onB.get('/api/v1/user/history?type=bid'),
    ]);
    const done = performance.now();
    r.waits.push(done - answered);
    r.catalogAToB.push((await catalogOnB) - (await catalogOnA));
    // The same two reads again, which wait for nothing: what B's answers cost alone.
    const again = performance.now();
    await Promise.all([onB.get(detailPath(auctionId)), onB.get('/api/v1/user/history?type=bid')]);
    r.reads.push(performance.now() - again);

    expect(page.status).toBe(200);
    expect(page.headers.get(BEHIND_HEADER)).toBeNull();
    expect(page.body.auctionDetails.currentBid).toBe(amount);
    expect(history.status).toBe(200);
    expect(history.headers.get(BEHIND_HEADER)).toBeNull();
    expect(history.body.history).toContainEqual(
      expect.objectContaining({ auctionId, amount, type: 'bid' }),
    );
    if (r.cluster.push) {
      // B is told of the catalog's and the activity's checkpoints at the bid by A, which applied
      // them (usually before B's answers; under load the poll may come first).
      await vi.waitFor(() => {
        for (const name of ['catalog', 'activity']) {
          expect(heard()).toContainEqual([name, expect.toSatisfy((p: number) => p >= token)]);
        }
      }, 5000);
    }
  };

  it('a bid through A is on the auction page and in the bidder’s bids through B at once', async () => {
    for (const r of running) {
      const roles = Object.fromEntries(
        (await r.b.deps.runner.status()).map(({ name, role }) => [name, role]),
      );
      // B only follows the read models it answers from: A's checkpoints are what it waits on.
      expect(roles).toMatchObject({ catalog: 'following', activity: 'following' });
    }
    const spies = running.map((r) => vi.spyOn(r.b.deps.runner, 'followedCheckpoint'));
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [i, r] of running.entries()) {
          for (const auctionId of r.owned) {
            await bidThenRead(r, auctionId, () => spies[i]?.mock.calls ?? []);
          }
        }
      }
      // Without the push nothing is heard: B's polls found the checkpoints.
      running.forEach((r, i) => {
        if (!r.cluster.push) expect(spies[i]).not.toHaveBeenCalled();
      });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const ms = (value: number) => Math.round(value * 10) / 10;
    const summary = (values: readonly number[]) => {
      const sorted = [...values].sort((x, y) => x - y);
      return {
        p50: ms(quantile(sorted, 0.5)),
        p90: ms(quantile(sorted, 0.9)),
        max: ms(sorted.at(-1) ?? NaN),
      };
    };
    for (const r of running) {
      console.log(
        JSON.stringify({
          test: 'cross-node read-your-writes',
          mode: r.cluster.mode,
          reads: r.waits.length,
          waitMs: summary(r.waits),
          catalogAToBMs: summary(r.catalogAToB),
          readsAloneMs: summary(r.reads),
          readStatementsPerCommand: r.cluster.shared.MONGODB_STATEMENTS_PER_COMMAND || 'bulk',
        }),
      );
    }
  }, 180_000);
});
