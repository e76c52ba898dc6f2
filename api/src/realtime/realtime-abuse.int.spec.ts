import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AuctionStateEvent,
  type AuctionView,
  auctionStream,
  watchRefusals,
} from '@auction/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  commandMetadata,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  sellerAliceBob,
  signUpAndLogIn,
} from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';
import { type GatewayOptions, RealtimeGateway } from './gateway';
import {
  type Probe,
  ask,
  closeProbes,
  connect,
  eventually,
  pause,
  range,
  revisionsOf,
  watch,
} from '../testing/realtime';

/**
 * A client that asks too much of the gateway (issue 15, replay floods): a watch from far behind
 * gets the auction's state and then only what follows, however long the history; watches beyond
 * the limits per socket and per address are refused with an error ack and change nothing.
 */

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
const closing: (() => Promise<void>)[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob] = await sellerAliceBob(server);
});
afterEach(async () => {
  closeProbes();
  for (const close of closing.splice(0)) await close();
});
// On FerretDB the projections' batch of the long histories below may take seconds to commit, and
// stopping waits for it.
afterAll(() => server.cleanup(), 60_000);

/** A gateway on its own port over the test server's stores (its own limits and counters). */
const gatewayOver = async (options: GatewayOptions = {}) => {
  const http = createServer();
  const gateway = new RealtimeGateway(server.deps, http, [], () => [], options);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await gateway.start();
  closing.push(() => gateway.close());
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
};

const newAuction = (title = 'Carriage clock') => createAuctionOverHttp(seller.client, { title });

const streamRevision = async (auctionId: string): Promise<number> =>
  (await server.deps.events.streamRevision(auctionStream(auctionId))) ?? -1;

/**
 * An auction with a long history and a small state: Bob bids and retracts, Alice's one standing
 * bid is raised by a cent `raises` times (through the engine: quick). Resolves with its last
 * revision and the global position of its last event.
 */
const longHistory = async (raises: number, title?: string) => {
  const auctionId = await newAuction(title);
  const bobs = (await placeBid(bob, auctionId, 110)).newBid;
  const alices = (await placeBid(alice, auctionId, 120)).newBid;
  expect((await bob.client.delete(`/api/v1/bid/deleteBid/${bobs._id}`)).status).toBe(200);
  const outcomes = await Promise.all(
    range(1, raises).map((i) =>
      server.deps.engine.send({
        type: 'EditBid',
        data: { auctionId, bidId: alices._id, amount: 12_000 + i },
        metadata: commandMetadata(alice.id),
      }),
    ),
  );
  expect(outcomes.filter((o) => !o.ok)).toEqual([]);
  const position = Math.max(...outcomes.map((o) => (o.ok ? (o.position ?? 0) : 0)));
  const last = await streamRevision(auctionId);
  expect(last).toBe(raises + 3);
  return { auctionId, last, position };
};

/** The `auction:state` messages of one auction the probe heard, parsed with the contract. */
const statesOf = (p: Probe, auctionId: string): AuctionStateEvent[] =>
  p.heard
    .filter((h) => h.event === 'auction:state')
    .map((h) => AuctionStateEvent.parse(h.payload))
    .filter((s) => s.productId === auctionId);

const refusedWith = (message: string) => ({
  ok: false,
  error: { code: 'RATE_LIMITED', message },
});

/** A replay buffer of 16 events: short histories are far behind already. */
const SMALL_BUFFER = 16;

describe('a watch from far behind', () => {
  it('gets the state at a revision and then only later events, however long the history', async () => {
    const gateway = await gatewayOver({ replayBuffer: SMALL_BUFFER });
    const short = await longHistory(40, 'Short history');
    const long = await longHistory(160, 'Long history');
    // The catalog, to compare with.
    await server.deps.runner.waitFor(long.position, undefined, 30_000);
    const sizes: number[] = [];
    for (const { auctionId, last } of [short, long]) {
      const watcher = await connect(gateway);
      const { ack, replayed } = await watch(watcher, { auctionId, afterRevision: -1 });
      expect(ack).toEqual({ ok: true, revision: last });
      // No replay: one state, at the revision the watch joined at, as the detail shows it.
      expect(replayed).toEqual([]);
      expect(watcher.heard.map((h) => h.event)).toEqual(['auction:state']);
      const [state] = statesOf(watcher, auctionId);
      expect(state?.revision).toBe(last);
      const detail: AuctionView = await fetchAuction(server, auctionId);
      expect(detail.revision).toBe(last);
      expect(state?.auction).toEqual(detail);
      expect(state?.auction.bids.map((b) => b.bidder.firstName)).toEqual(['Alice']);
      sizes.push(JSON.stringify(watcher.heard).length);

      // Then each later revision once, in order.
      await placeBid(bob, auctionId, 200);
      await placeBid(alice, auctionId, 210);
      await eventually(() => expect(revisionsOf(watcher, auctionId)).toEqual([last + 1, last + 2]));
      await pause();
      expect(revisionsOf(watcher, auctionId)).toEqual([last + 1, last + 2]);
      expect(statesOf(watcher, auctionId)).toHaveLength(1);
    }
    // Four times the history, the same answer.
    expect(sizes[1]).toBeLessThan((sizes[0] ?? 0) * 1.2);
  });

  it('from within the replay buffer (256 events) still gets exactly the missed events, no state', async () => {
    const { auctionId, last } = await longHistory(300);
    const watcher = await connect(server);
    const { ack, replayed } = await watch(watcher, { auctionId, afterRevision: last - 5 });
    expect(ack).toEqual({ ok: true, revision: last });
    expect(replayed).toEqual(range(last - 4, last));
    expect(statesOf(watcher, auctionId)).toEqual([]);

    // From just beyond the buffer (256 events): the state.
    const behind = await connect(server);
    const far = await watch(behind, { auctionId, afterRevision: last - 257 });
    expect(far.replayed).toEqual([]);
    expect(statesOf(behind, auctionId).map((s) => s.revision)).toEqual([last]);
  });

  it('asked again and again on one socket, costs a state each time up to the rate, then a refusal', async () => {
    // The flood: the same watch from -1, repeated (default: 20 per socket per 10 s).
    const gateway = await gatewayOver({ replayBuffer: SMALL_BUFFER });
    const { auctionId, last } = await longHistory(40);
    const watcher = await connect(gateway);
    const answers = [];
    for (let i = 0; i < 25; i++)
      answers.push((await watch(watcher, { auctionId, afterRevision: -1 })).ack);
    expect(answers.slice(0, 20)).toEqual(range(1, 20).map(() => ({ ok: true, revision: last })));
    expect(answers.slice(20)).toEqual(range(1, 5).map(() => refusedWith(watchRefusals.socketRate)));
    expect(revisionsOf(watcher, auctionId)).toEqual([]);
    expect(statesOf(watcher, auctionId)).toHaveLength(20);

    // Refused, it still watches as before: the next bid arrives once.
    await placeBid(bob, auctionId, 300);
    await eventually(() => expect(revisionsOf(watcher, auctionId)).toEqual([last + 1]));
  });
});

describe('the limits', () => {
  it('refuse the flood of many sockets from one address beyond its rate, sending nothing more', async () => {
    const { url } = await gatewayOver({
      replayBuffer: SMALL_BUFFER,
      limits: { ratePerAddress: 50 },
    });
    const { auctionId, last } = await longHistory(40);
    const sockets = await Promise.all(range(1, 10).map(() => connect({ url })));
    const answers = (
      await Promise.all(
        sockets.map(async (p) => {
          const mine = [];
          for (let i = 0; i < 10; i++)
            mine.push((await watch(p, { auctionId, afterRevision: -1 })).ack);
          return mine;
        }),
      )
    ).flat();
    expect(answers.filter((a) => a.ok)).toHaveLength(50);
    expect(answers.filter((a) => !a.ok)).toEqual(
      range(1, 50).map(() => refusedWith(watchRefusals.addressRate)),
    );
    // 50 states and not one replayed event (before: 100 replays of the whole history).
    expect(sockets.flatMap((p) => revisionsOf(p, auctionId))).toEqual([]);
    expect(sockets.flatMap((p) => statesOf(p, auctionId))).toHaveLength(50);
    expect(sockets.flatMap((p) => statesOf(p, auctionId).map((s) => s.revision))).toEqual(
      range(1, 50).map(() => last),
    );
  });

  it('bound the auctions a socket watches at once; a refused watch joins nothing', async () => {
    const { url } = await gatewayOver({ limits: { perSocket: 3 } });
    const auctions = await Promise.all(range(1, 4).map((i) => newAuction(`Lot ${i}`)));
    const [a1, a2, a3, a4] = auctions as [string, string, string, string];
    const watcher = await connect({ url });
    for (const auctionId of [a1, a2, a3])
      expect((await watch(watcher, { auctionId })).ack).toEqual({ ok: true, revision: 0 });
    expect((await watch(watcher, { auctionId: a4 })).ack).toEqual(
      refusedWith(watchRefusals.socketWatching),
    );
    // Watching one it watches already takes no new slot.
    expect((await watch(watcher, { auctionId: a2, afterRevision: 0 })).ack).toEqual({
      ok: true,
      revision: 0,
    });
    await placeBid(alice, a4, 110);
    await placeBid(alice, a1, 110);
    await eventually(() => expect(revisionsOf(watcher, a1)).toEqual([1]));
    expect(revisionsOf(watcher, a4)).toEqual([]);

    // Unwatching frees a slot.
    expect(await ask(watcher, 'auction:unwatch', { auctionId: a1 })).toEqual({ ok: true });
    expect((await watch(watcher, { auctionId: a4, afterRevision: 0 })).ack).toEqual({
      ok: true,
      revision: 1,
    });
    expect(revisionsOf(watcher, a4)).toEqual([1]);
  });

  it('bound the auctions all sockets of one address watch at once; a closed socket frees its slots', async () => {
    const { url } = await gatewayOver({ limits: { perAddress: 4 } });
    const auctions = await Promise.all(range(1, 5).map((i) => newAuction(`Lot ${i}`)));
    const [first, second] = await Promise.all([connect({ url }), connect({ url })]);
    for (const auctionId of auctions.slice(0, 2))
      expect((await watch(first, { auctionId })).ack).toMatchObject({ ok: true });
    for (const auctionId of auctions.slice(2, 4))
      expect((await watch(second, { auctionId })).ack).toMatchObject({ ok: true });
    const fifth = auctions[4] as string;
    expect((await watch(second, { auctionId: fifth })).ack).toEqual(
      refusedWith(watchRefusals.addressWatching),
    );
    const third = await connect({ url });
    expect((await watch(third, { auctionId: fifth })).ack).toEqual(
      refusedWith(watchRefusals.addressWatching),
    );

    first.socket.disconnect();
    // Once the server has seen the socket go (a few ms), its two slots are free.
    let ack = (await watch(third, { auctionId: fifth })).ack;
    for (let i = 0; i < 10 && !ack.ok; i++) {
      await pause(100);
      ack = (await watch(third, { auctionId: fifth })).ack;
    }
    expect(ack).toEqual({ ok: true, revision: 0 });
    await placeBid(alice, fifth, 110);
    await eventually(() => expect(revisionsOf(third, fifth)).toEqual([1]));
    expect(revisionsOf(second, fifth)).toEqual([]);
  });

  it('come from the configuration (WATCH_*)', async () => {
    const limited = await startTestServer({
      WATCH_LIMIT_PER_SOCKET: '1',
      WATCH_RATE_PER_SOCKET: '3',
    });
    try {
      const sellerThere = await signUpAndLogIn(limited);
      const [one, two] = await Promise.all([
        createAuctionOverHttp(sellerThere.client, { title: 'One' }),
        createAuctionOverHttp(sellerThere.client, { title: 'Two' }),
      ]);
      const p = await connect(limited);
      expect((await watch(p, { auctionId: one })).ack).toMatchObject({ ok: true });
      expect((await watch(p, { auctionId: two })).ack).toEqual(
        refusedWith(watchRefusals.socketWatching),
      );
      expect((await watch(p, { auctionId: one })).ack).toMatchObject({ ok: true });
      expect((await watch(p, { auctionId: one })).ack).toEqual(
        refusedWith(watchRefusals.socketRate),
      );
    } finally {
      closeProbes();
      await limited.cleanup();
    }
  });
});
