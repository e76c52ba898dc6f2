import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuctionSocketEvent,
  type ClientToServerEvents,
  type ServerToClientEvents,
  auctionStream,
  centsToDollars,
  dollarsToCents,
  minimumRaise,
  socketEventNames,
} from '@auction/contracts';
import { type RecordedEvent, verifyChain } from '@auction/engine';
import { partitionOf } from '@auction/engine/testing';
import {
  type CollectionSpec,
  type Doc,
  type ReadStore,
  SqliteReadStore,
  allProjections,
  applyBatch,
} from '@auction/projections';
import { type Socket, io } from 'socket.io-client';
import { afterAll, describe, expect, it, onTestFailed, vi } from 'vitest';
import { loadConfig } from '../config/config';
import { openLogAndReadModels } from '../server/open-stores';
import { type ChildServer, startChildServer } from '../testing/child-server';
import { type TestUser, createAuctionOverHttp, signUpAndLogIn } from '../testing/fixtures';
import { TestClient } from '../testing/test-server';
import { dropTestStores } from '../testing/test-stores';
import { expectAcknowledgedStoredOnce, freePort, seeded, sleep } from './resilience-support';

/**
 * `npm run test:cluster`: three app nodes as real processes on a real Kafka broker, sharing one
 * event store (the SQLite file in a shared DATA_DIR, or EventStoreDB when configured) and one
 * MongoDB. 100 bidders spread over the nodes bid on 50 auctions; the node that owns the hottest
 * auction is killed (SIGKILL) in that auction's last seconds, and comes back later. Then nothing
 * acknowledged may be lost or doubled, and everything must add up.
 */

const brokers = process.env.KAFKA_BROKERS;
const mongodbUrl = process.env.MONGODB_URL;
const SEED = Number(process.env.CLUSTER_SEED ?? Math.floor(Math.random() * 2 ** 31));
const NODES = 3;
const AUCTIONS = 50;
const BIDDERS = 100;
const PARTITIONS = 12;
const LIMIT = '1000000';
/**
 * Bids offered per second, all bidders together (they also wait 1 to 3 s each between bids). The
 * volume is fixed, not whatever the nodes let through: a faster request path must not grow the
 * log beyond what FerretDB's SQLite backend, the MongoDB this runs on in CI, catches up with
 * (its guarded writes scan their whole collection, so catching up grows with the square of it).
 */
const OFFERED_PER_SECOND = 6;

interface Lot {
  readonly id: string;
  readonly seller: TestUser;
  endsAt: number;
  /** The highest amount (dollars) this test has seen or sent for it. */
  known: number;
}

interface Ack {
  readonly auctionId: string;
  readonly amount: number;
}

interface Node {
  readonly index: number;
  readonly nodeId: string;
  readonly base: string;
  child: ChildServer | undefined;
}

const dataDir = mkdtempSync(join(tmpdir(), 'cluster-'));
const prefix = `cluster-${randomUUID().slice(0, 8)}.`;
const storeEnv = {
  MONGODB_URL: mongodbUrl ?? '',
  MONGODB_DB: `auction_cluster_${randomUUID().slice(0, 12).replace(/-/g, '')}`,
  MONGODB_STATEMENTS_PER_COMMAND: process.env.MONGODB_STATEMENTS_PER_COMMAND ?? '',
  EVENTSTORE_CONNECTION_STRING: process.env.EVENTSTORE_CONNECTION_STRING ?? '',
};
const nodes: Node[] = [];
const sockets: Socket<ServerToClientEvents, ClientToServerEvents>[] = [];

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await Promise.allSettled(
    nodes.flatMap((node) => (node.child ? [node.child.stop('SIGKILL')] : [])),
  );
  if (mongodbUrl) await dropTestStores(storeEnv);
  rmSync(dataDir, { recursive: true, force: true });
});

const nodeEnv = (node: Pick<Node, 'nodeId' | 'base'>) => ({
  ...storeEnv,
  DATA_DIR: dataDir,
  PORT: new URL(node.base).port,
  NODE_ID: node.nodeId,
  KAFKA_BROKERS: brokers ?? '',
  KAFKA_TOPIC_PREFIX: prefix,
  KAFKA_PARTITIONS: String(PARTITIONS),
  // Longer than a dead node's session timeout plus the rebalance after it.
  KAFKA_REPLY_TIMEOUT_MS: '30000',
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  RATE_LIMIT_LOGIN: LIMIT,
  RATE_LIMIT_SIGNUP: LIMIT,
  RATE_LIMIT_BIDS: LIMIT,
});

const start = async (node: Node) => {
  node.child = await startChildServer(nodeEnv(node), { startTimeoutMs: 120_000 });
};

const health = async (node: Node) => {
  const res = await new TestClient(node.base).get('/api/v1/health');
  return res.body as { cluster?: { owned: number[] } };
};

/** A guest socket on `node` watching `auctionIds` from their first event; records what it hears. */
const watcher = async (node: Node, auctionIds: readonly string[]) => {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(node.base, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
  });
  sockets.push(socket);
  const heard = new Map<string, number[]>(auctionIds.map((id) => [id, []]));
  const names: ReadonlySet<string> = new Set(Object.values(socketEventNames));
  socket.onAny((event: string, payload: unknown) => {
    if (!names.has(event)) return;
    const parsed = AuctionSocketEvent.parse(payload);
    heard.get(parsed.productId)?.push(parsed.revision);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  for (const auctionId of auctionIds) {
    const ack = await socket
      .timeout(10_000)
      .emitWithAck('auction:watch', { auctionId, afterRevision: -1 });
    expect(ack).toMatchObject({ ok: true });
  }
  return { node, socket, heard };
};

/** Every document of every projection's collections, by collection. */
const dump = async (store: ReadStore, specs: readonly CollectionSpec[]) => {
  const out: Record<string, Doc[]> = {};
  for (const spec of specs) out[spec.name] = await store.find(spec.name);
  return out;
};

describe.skipIf(!brokers || !mongodbUrl)('a cluster of three nodes on Kafka', () => {
  it('loses and doubles nothing when the owner of the hottest auction is killed in its last seconds', async () => {
    console.log(`cluster test seed ${SEED} (replay the kill moments with CLUSTER_SEED=${SEED})`);
    const outputs: string[] = [];
    onTestFailed(() => {
      for (const node of nodes)
        console.log(
          `--- ${node.nodeId}, last output:\n${(node.child?.output() ?? '').slice(-4000)}`,
        );
      for (const output of outputs)
        console.log(`--- a killed node's last output:\n${output.slice(-4000)}`);
    });
    // Kill moments from their own sequence, so the bidders' draws do not shift them.
    const killRandom = seeded(SEED);
    const random = seeded(SEED ^ 0x5bd1e995);
    for (let i = 0; i < NODES; i++) {
      const port = await freePort();
      nodes.push({
        index: i,
        nodeId: `node-${i + 1}`,
        base: `http://127.0.0.1:${port}`,
        child: undefined,
      });
    }
    // One after the other: the first creates the topics; each joins the group as it starts.
    for (const node of nodes) await start(node);
    await vi.waitFor(
      async () => {
        const owned = (await Promise.all(nodes.map(health))).flatMap((h) => h.cluster?.owned);
        expect(owned.sort((a, b) => Number(a) - Number(b))).toEqual([...Array(PARTITIONS).keys()]);
      },
      { timeout: 60_000, interval: 250 },
    );

    const down = new Set<number>();
    /** Where a user's requests go: their own node, or the next one up (a load balancer's choice). */
    const nodeFor = (home: number) => {
      for (let step = 0; step < NODES; step++) {
        const node = nodes[(home + step) % NODES] as Node;
        if (!down.has(node.index)) return node;
      }
      throw new Error('every node is down');
    };
    const signUp = (i: number) =>
      signUpAndLogIn({ client: () => new TestClient(nodeFor(i % NODES).base) });
    const sellers: TestUser[] = [];
    for (let i = 0; i < 5; i++) sellers.push(await signUp(i));
    const bidders: TestUser[] = [];
    for (let i = 0; i < BIDDERS; i += 10)
      bidders.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => signUp(i + j)))));

    // Every auction ends during the run: the hot one at 20 s, the others from 10 to 35 s.
    const t0 = Date.now() + 8000;
    const hotEnd = t0 + 20_000;
    const lots: Lot[] = [];
    for (let i = 0; i < AUCTIONS; i += 10) {
      lots.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, AUCTIONS - i) }, async (_, j) => {
            const n = i + j;
            const seller = sellers[n % sellers.length] as TestUser;
            const endsAt = n === 0 ? hotEnd : t0 + 10_000 + Math.floor(random() * 25_000);
            const client = seller.client.at(nodeFor(n).base);
            const id = await createAuctionOverHttp(client, {
              title: `Lot ${n}`,
              endsInMs: endsAt - Date.now(),
              // Each must close at the end it was given while bids keep coming.
              softClose: false,
            });
            return { id, seller, endsAt, known: 99 };
          }),
        )),
      );
    }
    const hot = lots[0] as Lot;
    // The auction's end as the server stored it (its form has whole seconds at most).
    for (const lot of lots) {
      const res = await new TestClient(nodes[0]?.base ?? '').get(
        `/api/v1/auction/fetchSpecificAuction?auctionId=${lot.id}`,
      );
      lot.endsAt = Date.parse(res.body.auctionDetails.auctionEndTime);
    }
    const owners = await Promise.all(nodes.map(health));
    const victim = nodes.find((node) =>
      owners[node.index]?.cluster?.owned.includes(partitionOf(hot.id, PARTITIONS)),
    ) as Node;
    const survivors = nodes.filter((node) => node !== victim);
    const watched = [hot.id, ...lots.slice(1, 5).map((lot) => lot.id)];
    const watchers = await Promise.all(survivors.map((node) => watcher(node, watched)));

    const acked = new Map<string, Ack>();
    /** Bids whose request was cut off by the kill or answered 503: stored or not. */
    let inDoubt = 0;
    const failures: string[] = [];
    let stop = false;
    /** The next moment a bid may be offered (OFFERED_PER_SECOND, over all bidders). */
    let nextOffer = Date.now();
    const bidding = bidders.map(async (bidder, i) => {
      while (!stop) {
        // A bid every 1 to 3 s each, at most OFFERED_PER_SECOND in all: what FerretDB keeps up with
        // on two cores beside three nodes and a broker (a bid makes a score of read-model writes).
        await sleep(1000 + Math.floor(random() * 2000));
        // The rate is spent for the next second: this bidder waits for its next turn instead.
        if (nextOffer > Date.now() + 1000) continue;
        const slot = Math.max(Date.now(), nextOffer);
        nextOffer = slot + 1000 / OFFERED_PER_SECOND;
        await sleep(slot - Date.now());
        if (stop) return;
        const now = Date.now();
        const open = lots.filter((lot) => lot.endsAt > now + 100);
        if (open.length === 0) return;
        const lot =
          hot.endsAt - now < 6000 && hot.endsAt > now + 100 && random() < 0.5
            ? hot
            : (open[Math.floor(random() * open.length)] as Lot);
        // One increment above the highest known, give or take what other lanes sent meanwhile.
        const bidAmount =
          centsToDollars(minimumRaise(dollarsToCents(lot.known), 'one-dollar')) +
          Math.floor(random() * 3);
        lot.known = Math.max(lot.known, bidAmount);
        const node = nodeFor(i % NODES);
        let res;
        try {
          res = await bidder.client.at(node.base).post('/api/v1/bid/placeBid', {
            json: { productId: lot.id, bidAmount },
          });
        } catch (error) {
          if (node === victim) inDoubt++;
          else failures.push(`a bid on ${node.nodeId} failed: ${String(error)}`);
          continue;
        }
        if (res.status === 201) {
          acked.set(res.body.newBid._id, { auctionId: lot.id, amount: bidAmount });
          lot.known = Math.max(lot.known, res.body.currentBid);
        } else if (res.status === 503) {
          inDoubt++;
        } else if (res.status >= 500) {
          failures.push(`${node.nodeId}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    });

    // The owner of the hot auction dies 1 to 3 s before its end, mid-bidding, and comes back.
    const killAt = hotEnd - 1000 - Math.floor(killRandom() * 2000);
    const downFor = 6000 + Math.floor(killRandom() * 6000);
    await sleep(killAt - Date.now());
    down.add(victim.index);
    await victim.child?.stop('SIGKILL');
    outputs.push(victim.child?.output() ?? '');
    const killedAt = Date.now();
    await sleep(downFor);
    await start(victim);
    down.delete(victim.index);
    const restartedAt = Date.now();
    const lastEnd = Math.max(...lots.map((lot) => lot.endsAt));
    await sleep(Math.max(0, lastEnd - Date.now() + 500));
    stop = true;
    await Promise.all(bidding);

    expect(failures).toEqual([]);
    expect(killedAt).toBeLessThan(hot.endsAt);
    expect(acked.size).toBeGreaterThan(BIDDERS);

    const { events, read, close } = await openLogAndReadModels(
      loadConfig({ ...nodeEnv(victim), PORT: '0' }),
    );
    try {
      // Every auction closes (the new owners close what was overdue when they took it over), and
      // the read models, on whichever node runs each, reach the end of the log.
      await vi.waitFor(
        async () => {
          for (const lot of lots) {
            const stream = await events.readStream(auctionStream(lot.id));
            expect({ lot: lot.id, closed: stream.some((e) => e.type === 'AuctionClosed') }).toEqual(
              { lot: lot.id, closed: true },
            );
          }
          const head = await events.headPosition();
          for (const projection of allProjections)
            expect({ [projection.name]: await read.checkpoint(projection.name) }).toEqual({
              [projection.name]: head,
            });
        },
        { timeout: 120_000, interval: 250 },
      );

      const storedBids = new Map<string, { times: number; auctionId: string; amount: number }>();
      let inDoubtStored = 0;
      const streams = new Map<string, RecordedEvent[]>();
      for (const lot of lots) {
        const stream = await events.readStream(auctionStream(lot.id));
        streams.set(lot.id, stream);
        expect(verifyChain(auctionStream(lot.id), stream)).toMatchObject({ ok: true });
        expect(stream.filter((event) => event.type === 'AuctionClosed')).toHaveLength(1);
        for (const event of stream.filter((e) => e.type === 'BidPlaced')) {
          const bid = event.data as { bidId: string; amount: number; at: string };
          const times = (storedBids.get(bid.bidId)?.times ?? 0) + 1;
          storedBids.set(bid.bidId, { times, auctionId: lot.id, amount: bid.amount });
          expect(Date.parse(bid.at)).toBeLessThan(lot.endsAt);
          if (!acked.has(bid.bidId)) inDoubtStored++;
        }
      }
      expectAcknowledgedStoredOnce(acked, storedBids);
      expect(inDoubtStored).toBeLessThanOrEqual(inDoubt);

      // The audit's verdict on every auction, asked of any node: chain, truncation, read models.
      for (const [n, lot] of lots.entries()) {
        const res = await lot.seller.client
          .at(nodes[n % NODES]?.base ?? '')
          .get(`/api/v1/audit/auctions/${lot.id}/verify`);
        const verdict = {
          lot: lot.id,
          status: res.status,
          message: res.body.message,
          differences: res.body.verification?.readModels?.differences?.slice(0, 5),
        };
        expect(verdict).toEqual({
          lot: lot.id,
          status: 200,
          message: 'The auction record is intact',
          differences: [],
        });
      }

      // The whole read store equals a fresh replay of the whole log.
      const specs = allProjections.flatMap((projection) => projection.collections);
      const fresh = new SqliteReadStore({ filename: ':memory:' });
      try {
        await fresh.ensureCollections(specs);
        await read.ensureCollections(specs);
        const log = await events.readAll();
        for (const projection of allProjections) {
          for (let i = 0; i < log.length; i += 500)
            await applyBatch(
              fresh,
              new Map(specs.map((spec) => [spec.name, spec])),
              projection,
              log.slice(i, i + 500),
            );
        }
        expect(await dump(read, specs)).toEqual(await dump(fresh, specs));
      } finally {
        await fresh.close();
      }

      // The watchers on the nodes that stayed up saw every event of their auctions, in order.
      await vi.waitFor(
        () => {
          for (const { node, heard } of watchers) {
            for (const auctionId of watched) {
              const expected = (streams.get(auctionId) ?? [])
                .filter((event) => event.type in socketEventNames)
                .map((event) => event.revision);
              expect({ node: node.nodeId, auctionId, revisions: heard.get(auctionId) }).toEqual({
                node: node.nodeId,
                auctionId,
                revisions: expected,
              });
            }
          }
        },
        { timeout: 10_000, interval: 100 },
      );

      const hotBids = (streams.get(hot.id) ?? []).filter((e) => e.type === 'BidPlaced').length;
      console.log(
        JSON.stringify({
          seed: SEED,
          nodes: NODES,
          auctions: lots.length,
          bidders: bidders.length,
          victim: victim.nodeId,
          killedBeforeHotEndMs: hot.endsAt - killedAt,
          downMs: restartedAt - killedAt,
          acknowledged: acked.size,
          hotBids,
          inDoubt,
          inDoubtStored,
          events: (await events.headPosition()) ?? 0,
        }),
      );
    } finally {
      await close();
    }
  });
});
