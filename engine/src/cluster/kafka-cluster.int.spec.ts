import { randomUUID } from 'node:crypto';
import { type AuctionCommand, DomainError, auctionStream } from '@auction/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuctionActorRegistry } from '../auction/actor-registry';
import { seedFixedCategories } from '../category/categories';
import { verifyChain } from '../chain/hash-chain';
import type { CommandOutcome } from '../command-bus/command-bus';
import type { EventStore } from '../event-store/event-store';
import { T0, createAuction, iso, placeBid } from '../testing/commands';
import { tempSqliteStore } from '../testing/stores';
import { KafkaCluster, type KafkaClusterOptions } from './kafka-cluster';
import { partitionOf } from './partitioner';

const brokers = process.env.KAFKA_BROKERS?.split(',');
const PARTITIONS = 6;

let env: ReturnType<typeof tempSqliteStore>;
let prefix: string;
const nodes: KafkaCluster[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
const logged: string[] = [];

const startNode = async (nodeId: string, options: Partial<KafkaClusterOptions> = {}) => {
  const node = await KafkaCluster.start({
    brokers: brokers as string[],
    nodeId,
    local: new AuctionActorRegistry({ store: env.open() }),
    partitions: PARTITIONS,
    topicPrefix: prefix,
    replyTimeoutMs: 15_000,
    log: (message) => logged.push(`${nodeId}: ${message}`),
    ...options,
  });
  nodes.push(node);
  return node;
};

/** Waits until the nodes own every partition between them, each exactly once. */
const settled = async (...members: KafkaCluster[]) =>
  vi.waitFor(
    () => {
      const owned = members.flatMap((node) => node.status().owned);
      expect(owned.sort((a, b) => a - b)).toEqual([...Array(PARTITIONS).keys()]);
    },
    { timeout: 30_000, interval: 100 },
  );

const accepted = async (sent: Promise<CommandOutcome>) => {
  const outcome = await sent;
  if (!outcome.ok) throw new Error(`refused: ${outcome.rejection.code}`);
  return outcome;
};

/** An auction id whose partition `node` owns (or does not own). */
const auctionOn = (owner: (partition: number) => boolean) => {
  for (;;) {
    const id = randomUUID();
    if (owner(partitionOf(id, PARTITIONS))) return id;
  }
};

const stream = (store: EventStore, auctionId: string) => store.readStream(auctionStream(auctionId));

describe('Kafka command router without a broker', () => {
  it('gives up at its connect timeout, naming KAFKA_BROKERS', async () => {
    const env = tempSqliteStore();
    const started = Date.now();
    try {
      await expect(
        KafkaCluster.start({
          brokers: ['127.0.0.1:1'],
          nodeId: 'lonely',
          local: new AuctionActorRegistry({ store: env.store }),
          partitions: PARTITIONS,
          connectTimeoutMs: 1500,
          log: () => undefined,
        }),
      ).rejects.toThrow('KAFKA_BROKERS: cannot reach 127.0.0.1:1 within 1500 ms');
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await env.cleanup();
    }
  });
});

describe.skipIf(!brokers)('Kafka command router (KAFKA_BROKERS)', () => {
  beforeEach(async () => {
    env = tempSqliteStore(20);
    await seedFixedCategories(env.store, iso(T0));
    prefix = `test-${randomUUID().slice(0, 8)}.`;
    logged.length = 0;
  });

  afterEach(async () => {
    await Promise.allSettled(nodes.splice(0).map((node) => node.close()));
    for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
    await env.cleanup();
  }, 60_000);

  it('refuses a commands topic whose partition count differs', async () => {
    await startNode('a');
    await expect(startNode('b', { partitions: PARTITIONS + 1 })).rejects.toThrow(
      /has 6 partitions and this node is configured with 7; the count never changes/,
    );
  });

  it('routes every command to the one node that owns its auction, from any node', async () => {
    const a = await startNode('a');
    const b = await startNode('b');
    await settled(a, b);
    const ids = Array.from({ length: 12 }, () => randomUUID());
    const via = (i: number) => (i % 2 === 0 ? a : b);
    await Promise.all(ids.map((id, i) => accepted(via(i).send(createAuction(id)))));
    // Auctions in parallel; each one's bids one after the other, through alternating nodes.
    const bids = await Promise.all(
      ids.map(async (id, i) => {
        const outcomes = [];
        for (const [j, amount] of [11_000, 12_000, 13_000].entries())
          outcomes.push(await accepted(via(i + j).send(placeBid(id, `bidder-${j}`, amount))));
        return outcomes;
      }),
    );
    expect(bids.flat().map((outcome) => outcome.events.length)).toEqual(Array(36).fill(1));
    for (const id of ids) {
      const events = await stream(env.store, id);
      expect(events.map((e) => e.type)).toEqual([
        'AuctionCreated',
        'BidPlaced',
        'BidPlaced',
        'BidPlaced',
      ]);
      expect(verifyChain(auctionStream(id), events)).toMatchObject({ ok: true });
      // Exactly one node ever ran the auction's actor: its owner.
      const owners = [a, b].filter((node) => node.owns(id));
      expect(owners).toHaveLength(1);
    }
  }, 60_000);

  it('a node that answered a burst and left: the next owner appends none of it again', async () => {
    const counted = new Map<string, number>();
    const count = (key: string, n = 1) => counted.set(key, (counted.get(key) ?? 0) + n);
    const a = await startNode('a', { count });
    await settled(a);
    const id = randomUUID();
    await accepted(a.send(createAuction(id)));
    // Many at once on one partition, answered in several batches.
    const sent = Array.from({ length: 40 }, (_, i) =>
      a.send(placeBid(id, `bidder-${i}`, 11_000 + i * 1000)),
    );
    await Promise.allSettled(sent);
    const decided = counted.get('kafka consume commands') ?? 0;
    expect(decided).toBe(41);
    const appended = (await stream(env.store, id)).length;
    await a.close();
    const b = await startNode('b');
    await settled(b);
    // Two fetch rounds at least: what `a` left uncommitted (the batch whose commit its leaving cut
    // short) is delivered to `b` by now, and answered from the deduplication, not appended.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await stream(env.store, id)).toHaveLength(appended);
  }, 60_000);

  it('a command delivered twice, or sent again through another node, gets its original outcome', async () => {
    const a = await startNode('a');
    const b = await startNode('b');
    await settled(a, b);
    const id = randomUUID();
    await accepted(a.send(createAuction(id)));
    const bid = placeBid(id, 'alice', 15_000);
    const [first, again] = await Promise.all([a.send(bid), a.send(bid)]);
    const throughB = await b.send(bid);
    const later = await a.send(placeBid(id, 'bob', 16_000));
    const afterwards = await b.send(bid);
    expect(first.ok).toBe(true);
    // One of the two nodes got its outcome over Kafka, as JSON: the bid value travels with it.
    expect(first.ok && first.bid).toMatchObject({ bidId: bid.data.bidId, amount: 15_000 });
    for (const outcome of [again, throughB, afterwards]) {
      expect(outcome).toEqual(first);
    }
    expect(later.ok).toBe(true);
    const placed = (await stream(env.store, id)).filter((e) => e.type === 'BidPlaced');
    expect(placed).toHaveLength(2);
  }, 60_000);

  it('a node that leaves hands its auctions over; the new owner loads them from the store', async () => {
    const a = await startNode('a');
    const b = await startNode('b');
    await settled(a, b);
    const ofB = auctionOn((partition) => b.status().owned.includes(partition));
    await accepted(a.send(createAuction(ofB)));
    await accepted(a.send(placeBid(ofB, 'alice', 11_000)));
    await b.close();
    await settled(a);
    expect(a.owns(ofB)).toBe(true);
    const next = await accepted(a.send(placeBid(ofB, 'bob', 12_000)));
    expect(next.revision).toBe(2);
    expect(next.currentBid).toBe(12_000);
    const refused = await a.send(placeBid(ofB, 'carol', 12_000));
    expect(refused.ok).toBe(false);
  }, 60_000);

  it('without an answer in time the sender gets a retryable 503; a retry with the same command id gets the original outcome', async () => {
    // A member of the group that takes its partitions' commands and never answers.
    const kafka = new Kafka({ brokers: brokers as string[], logLevel: logLevel.NOTHING });
    const silent = kafka.consumer({
      groupId: `${prefix}auction.nodes`,
      sessionTimeout: 6000,
      heartbeatInterval: 500,
      maxWaitTimeInMs: 200,
    });
    let release: () => void = () => undefined;
    const stalled = new Promise<void>((resolve) => (release = resolve));
    let silentOwns: number[] = [];
    silent.on(silent.events.GROUP_JOIN, (e) => {
      silentOwns = e.payload.memberAssignment[`${prefix}auction.commands`] ?? [];
    });
    cleanups.push(async () => {
      release();
      await silent.disconnect();
    });
    const a = await startNode('a', { replyTimeoutMs: 1500 });
    await silent.connect();
    await silent.subscribe({ topics: [`${prefix}auction.commands`] });
    // It resolves and commits nothing, as a node that dies before its first commit.
    await silent.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: () => stalled });
    await vi.waitFor(
      () => {
        expect(silentOwns.length).toBeGreaterThan(0);
        expect([...a.status().owned, ...silentOwns].sort()).toEqual([...Array(PARTITIONS).keys()]);
      },
      { timeout: 30_000, interval: 100 },
    );
    const id = auctionOn((partition) => silentOwns.includes(partition));
    const create: AuctionCommand = createAuction(id);
    const failed = await a.send(create).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(DomainError);
    expect((failed as DomainError).code).toBe('UNAVAILABLE');
    expect(await stream(env.store, id)).toHaveLength(0);
    // The silent member goes; its uncommitted commands go to the next owner.
    release();
    await silent.disconnect();
    await settled(a);
    await vi.waitFor(async () => expect(await stream(env.store, id)).toHaveLength(1), {
      timeout: 10_000,
    });
    const retried = await accepted(a.send(create));
    expect(retried.events.map((e) => e.type)).toEqual(['AuctionCreated']);
    expect(await stream(env.store, id)).toHaveLength(1);
  }, 60_000);

  it('a stale owner can never fork a stream: expected revision fences it', async () => {
    const a = await startNode('a');
    await settled(a);
    const id = randomUUID();
    await accepted(a.send(createAuction(id)));
    // A node that owned the auction a moment ago, and still holds its actor at revision 0.
    const stale = new AuctionActorRegistry({ store: env.open() });
    cleanups.push(() => stale.close());
    await accepted(stale.send(placeBid(id, 'alice', 11_000)));
    await accepted(a.send(placeBid(id, 'bob', 12_000)));
    await accepted(a.send(placeBid(id, 'dave', 13_000)));
    // The stale actor decides on revision 1 (leading bid 11,000) and appends at it: a conflict,
    // so it reads the stream and decides again, where 12,500 no longer beats the leading bid.
    const late = await stale.send(placeBid(id, 'carol', 12_500));
    expect(late).toMatchObject({ ok: false, rejection: { code: 'BID_TOO_LOW' } });
    const events = await stream(env.store, id);
    expect(verifyChain(auctionStream(id), events)).toMatchObject({ ok: true });
    expect(events.map((e) => e.revision)).toEqual([0, 1, 2, 3]);
  }, 60_000);
});
