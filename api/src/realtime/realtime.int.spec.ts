import { randomUUID } from 'node:crypto';
import { AuctionSocketEvent, BidNotification, auctionStream } from '@auction/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBid,
  signUpAndLogIn,
} from '../testing/fixtures';
import { type TestResponse, type TestServer, startTestServer } from '../testing/test-server';
import {
  type Probe,
  auctionEvents,
  closeProbes,
  connect,
  eventually,
  logIn,
  notifications,
  pause,
  range,
  revisionsOf,
  watch,
} from '../testing/realtime';

let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob, carol] = await Promise.all([
    signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' }),
    signUpAndLogIn(server, { firstName: 'Alice', lastName: 'Able' }),
    signUpAndLogIn(server, { firstName: 'Bob', lastName: 'Baker' }),
    signUpAndLogIn(server, { firstName: 'Carol', lastName: 'Cole' }),
  ]);
});
afterEach(() => {
  vi.restoreAllMocks();
  closeProbes();
});
afterAll(() => server.cleanup());

const newAuction = (title = 'Carriage clock', endsInMs?: number) =>
  // One that ends soon must close on time after a bid in its last seconds: no soft close.
  createAuctionOverHttp(seller.client, {
    title,
    ...(endsInMs ? { endsInMs, softClose: false } : {}),
  });

const streamRevision = async (auctionId: string): Promise<number> =>
  (await server.deps.events.streamRevision(auctionStream(auctionId))) ?? -1;

/**
 * The embedded stores answer within the same macrotask, which leaves the gateway no room for a
 * race; a networked store (EventStoreDB) takes real time. Until the test ends, event store reads
 * and account lookups take `ms()` milliseconds.
 */
const withStoreLatency = (ms: () => number) => {
  const { events, accounts } = server.deps;
  const readStream = events.readStream.bind(events);
  const lookup = accounts.lookup.bind(accounts);
  const latency = () => pause(ms());
  vi.spyOn(events, 'readStream').mockImplementation(async (...args) => {
    await latency();
    return readStream(...args);
  });
  vi.spyOn(accounts, 'lookup').mockImplementation(async (...args) => {
    await latency();
    return lookup(...args);
  });
};

/** Three bidders outbidding each other by $1 over HTTP as fast as they can, until stopped. */
const bidStorm = (auctionId: string) => {
  let amount = 100;
  let stopped = false;
  let accepted = 0;
  const bidLoop = async (user: TestUser) => {
    while (!stopped) {
      const res = await user.client.post('/api/v1/bid/placeBid', {
        json: { productId: auctionId, bidAmount: (amount += 1) },
      });
      if (res.status === 201) accepted++;
      // Concurrent bidders overtake each other: a bid that arrives after a higher one is refused.
      else expect(res.status, JSON.stringify(res.body)).toBe(409);
    }
  };
  const loops = [alice, bob, carol].map(bidLoop);
  return {
    accepted: () => accepted,
    /** Stops the bidders; resolves with how many bids were accepted. */
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return accepted;
    },
  };
};

describe('room auction:{id}', () => {
  it('sends newBid for each bid to a guest and a logged-in watcher, as HTTP reported it', async () => {
    const auctionId = await newAuction();
    const guest = await connect(server);
    const member = await connect(server, { cookie: await logIn(server, carol) });
    expect((await watch(guest, { auctionId })).ack).toEqual({ ok: true, revision: 0 });
    expect((await watch(member, { auctionId, afterRevision: 0 })).ack).toEqual({
      ok: true,
      revision: 0,
    });

    const responses: TestResponse['body'][] = [];
    for (const [user, amount] of [
      [alice, 110],
      [bob, 120.5],
      [alice, 130],
    ] as const)
      responses.push(await placeBid(user, auctionId, amount));

    for (const probe of [guest, member]) {
      await eventually(() => expect(revisionsOf(probe, auctionId)).toHaveLength(3));
      const heard = auctionEvents(probe, auctionId);
      expect(heard.map((h) => h.event)).toEqual(['newBid', 'newBid', 'newBid']);
      heard.forEach(({ payload }, i) => {
        const response = responses[i];
        expect(AuctionSocketEvent.safeParse(payload).success).toBe(true);
        expect(payload).toMatchObject({
          productId: auctionId,
          revision: i + 1,
          type: 'BidPlaced',
          status: 'Live',
          currentBid: response.currentBid,
          bid: response.newBid,
        });
        expect(payload.bid?.bidder).toEqual({
          _id: response.newBid.bidder._id,
          firstName: i === 1 ? 'Bob' : 'Alice',
          lastName: i === 1 ? 'Baker' : 'Able',
          image: null,
        });
      });
    }
    expect(auctionEvents(guest, auctionId)).toEqual(auctionEvents(member, auctionId));
  });

  it('sends bidUpdated and bidRetracted with the current bid after each (falling back)', async () => {
    const auctionId = await newAuction('Music box');
    const watcher = await connect(server);
    await watch(watcher, { auctionId, afterRevision: 0 });

    const first = (await placeBid(alice, auctionId, 110)).newBid;
    const second = (await placeBid(bob, auctionId, 120)).newBid;
    const edited = await alice.client.put(`/api/v1/bid/editBid/${first._id}`, {
      json: { bidAmount: 135 },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const retracted = await alice.client.delete(`/api/v1/bid/deleteBid/${first._id}`);
    expect(retracted.status, JSON.stringify(retracted.body)).toBe(200);
    const lastOne = await bob.client.delete(`/api/v1/bid/deleteBid/${second._id}`);
    expect(lastOne.status, JSON.stringify(lastOne.body)).toBe(200);
    expect([edited.body.currentBid, retracted.body.currentBid, lastOne.body.currentBid]).toEqual([
      135, 120, 0,
    ]);

    await eventually(() => expect(revisionsOf(watcher, auctionId)).toEqual([1, 2, 3, 4, 5]));
    const heard = auctionEvents(watcher, auctionId);
    expect(heard.map((h) => h.event)).toEqual([
      'newBid',
      'newBid',
      'bidUpdated',
      'bidRetracted',
      'bidRetracted',
    ]);
    expect(heard[2]?.payload).toMatchObject({
      type: 'BidEdited',
      currentBid: 135,
      bid: { ...first, bidAmount: 135, amount: 135 },
    });
    expect(heard[3]?.payload).toMatchObject({
      type: 'BidRetracted',
      currentBid: 120,
      bid: { ...first, bidAmount: 135, amount: 135 },
    });
    expect(heard[4]?.payload).toMatchObject({ type: 'BidRetracted', currentBid: 0, bid: second });
  });
});

describe('replay on auction:watch', () => {
  it('replays exactly what a reconnecting watcher missed after afterRevision, then goes live', async () => {
    const auctionId = await newAuction('Pocket watch');
    const first = await connect(server);
    await watch(first, { auctionId, afterRevision: 0 });
    await placeBid(alice, auctionId, 110);
    await placeBid(bob, auctionId, 120);
    await eventually(() => expect(revisionsOf(first, auctionId)).toEqual([1, 2]));
    const last = revisionsOf(first, auctionId).at(-1) ?? 0;
    first.socket.disconnect();

    const missed = 4;
    for (let i = 0; i < missed; i++) await placeBid(i % 2 ? bob : alice, auctionId, 130 + 10 * i);

    const again = await connect(server);
    const { ack, replayed } = await watch(again, { auctionId, afterRevision: last });
    expect(ack).toEqual({ ok: true, revision: last + missed });
    expect(replayed).toEqual(range(last + 1, last + missed));
    await pause();
    expect(revisionsOf(again, auctionId)).toEqual(range(last + 1, last + missed));

    await placeBid(alice, auctionId, 500);
    await eventually(() =>
      expect(revisionsOf(again, auctionId)).toEqual(range(last + 1, last + missed + 1)),
    );
  });

  it('replays everything since creation for afterRevision -1 (creation itself has no event)', async () => {
    const auctionId = await newAuction('Sextant');
    await placeBid(alice, auctionId, 110);
    await placeBid(bob, auctionId, 120);
    const watcher = await connect(server);
    const { ack, replayed } = await watch(watcher, { auctionId, afterRevision: -1 });
    expect(ack).toEqual({ ok: true, revision: 2 });
    expect(replayed).toEqual([1, 2]);
    expect(auctionEvents(watcher, auctionId).map((h) => h.event)).toEqual(['newBid', 'newBid']);
    await placeBid(alice, auctionId, 130);
    await eventually(() => expect(revisionsOf(watcher, auctionId)).toEqual([1, 2, 3]));
  });

  it('replays nothing to a watcher without afterRevision, then sends live events', async () => {
    const auctionId = await newAuction('Barometer');
    await placeBid(alice, auctionId, 110);
    await placeBid(bob, auctionId, 120);
    const watcher = await connect(server);
    const { ack, replayed } = await watch(watcher, { auctionId });
    expect(ack).toEqual({ ok: true, revision: 2 });
    expect(replayed).toEqual([]);
    await placeBid(alice, auctionId, 130);
    await eventually(() => expect(revisionsOf(watcher, auctionId)).toContain(3));
    expect(revisionsOf(watcher, auctionId)).toEqual([3]);
  });

  it('gives every watcher each revision from its start to the end once, in order, while bids pour in', async () => {
    const auctionId = await newAuction('Grandfather clock');
    withStoreLatency(() => Math.floor(Math.random() * 4));
    const storm = bidStorm(auctionId);

    const watchers: { probe: Probe; from: number; watched: ReturnType<typeof watch> }[] = [];
    const start = async (afterRevision: number) => {
      const probe = await connect(server);
      const watched = watch(probe, { auctionId, afterRevision });
      // Awaited below; a rejection meanwhile is not unhandled.
      watched.catch(() => undefined);
      watchers.push({ probe, from: Math.max(afterRevision, 0) + 1, watched });
    };
    await start(0);
    await eventually(() => expect(storm.accepted()).toBeGreaterThan(5));
    for (let round = 0; round < 6; round++) {
      const lastSeen = (probe: Probe | undefined) =>
        probe ? (revisionsOf(probe, auctionId).at(-1) ?? 0) : 0;
      const latest = lastSeen(watchers[watchers.length - 1]?.probe);
      const reference = lastSeen(watchers[0]?.probe);
      // Several watches at once: from the start, from scratch, and reconnect-style from what an
      // earlier watcher saw last.
      await Promise.all([
        start(-1),
        start(round),
        start(latest),
        start(Math.max(0, reference - 2)),
      ]);
      await pause(30 + 20 * (round % 3));
    }
    await pause(300);
    // However fast the stores are, the storm runs until it has made a long enough history.
    await eventually(() => expect(storm.accepted()).toBeGreaterThan(40), 30_000);
    const accepted = await storm.stop();

    const last = await streamRevision(auctionId);
    expect(accepted).toBeGreaterThan(40);
    expect(last).toBe(accepted);
    for (const { probe, from, watched } of watchers) {
      const { ack, replayed } = await watched;
      expect(ack).toMatchObject({ ok: true });
      const joinedAt = ack.ok ? Number(ack.revision) : -1;
      expect(replayed, `replay of a watcher from ${from}`).toEqual(range(from, joinedAt));
      await eventually(() =>
        expect(revisionsOf(probe, auctionId), `watcher from ${from}`).toEqual(range(from, last)),
      );
    }
    await pause();
    for (const { probe, from } of watchers)
      expect(revisionsOf(probe, auctionId), `watcher from ${from}`).toEqual(range(from, last));
  });

  it("answers watches promptly while another auction's bids keep coming", async () => {
    const quiet = await newAuction('Quiet lot');
    const busy = await newAuction('Busy lot');
    // A read of the event store over the network: a few ms, in which several bids come in.
    withStoreLatency(() => 20);
    const storm = bidStorm(busy);
    await eventually(() => expect(storm.accepted()).toBeGreaterThan(50));
    const watchers = await Promise.all(range(1, 5).map(() => connect(server)));
    const asked = storm.accepted();
    const answers = await Promise.all(
      watchers.map((watcher) =>
        Promise.race([
          watch(watcher, { auctionId: quiet, afterRevision: 0 }).then(({ ack }) => ack),
          pause(1000).then(() => 'no answer within 1 s'),
        ]),
      ),
    );
    const during = storm.accepted() - asked;
    await storm.stop();
    expect(answers, `${during} bids on the other auction meanwhile`).toEqual(
      watchers.map(() => ({ ok: true, revision: 0 })),
    );
  });
});

describe('room user:{id}', () => {
  it("sends bidNotification to every tab of the seller and the outbid leader, and nobody else's", async () => {
    const [tabs, otherSession, aliceCookie, bobCookie, carolCookie] = await Promise.all([
      logIn(server, seller),
      logIn(server, seller),
      logIn(server, alice),
      logIn(server, bob),
      logIn(server, carol),
    ]);
    const sellerTabs = await Promise.all([
      connect(server, { cookie: tabs }),
      connect(server, { cookie: tabs }),
      connect(server, { cookie: otherSession }),
    ]);
    const [aliceSocket, bobSocket, carolSocket, guest] = await Promise.all([
      connect(server, { cookie: aliceCookie }),
      connect(server, { cookie: bobCookie }),
      connect(server, { cookie: carolCookie }),
      connect(server),
    ]);
    const auctionId = await newAuction('Telescope');

    await placeBid(alice, auctionId, 110);
    for (const tab of sellerTabs)
      await eventually(() => expect(notifications(tab, auctionId)).toHaveLength(1));
    await placeBid(bob, auctionId, 120);
    for (const tab of sellerTabs)
      await eventually(() => expect(notifications(tab, auctionId)).toHaveLength(2));
    await eventually(() => expect(notifications(aliceSocket, auctionId)).toHaveLength(1));
    await pause();

    const [newBid, raised] = notifications(sellerTabs[0], auctionId);
    for (const n of [newBid, raised]) expect(BidNotification.safeParse(n).success).toBe(true);
    expect(newBid).toEqual({
      _id: expect.any(String),
      message: 'New bid of $110.00 on "Telescope".',
      timestamp: expect.any(String),
      auctionId,
      isRead: false,
    });
    expect(raised).toMatchObject({ message: 'New bid of $120.00 on "Telescope".', isRead: false });
    for (const tab of sellerTabs) expect(notifications(tab, auctionId)).toEqual([newBid, raised]);
    expect(notifications(aliceSocket, auctionId)).toEqual([
      {
        _id: expect.any(String),
        message: 'You have been outbid on "Telescope". The current bid is $120.00.',
        timestamp: expect.any(String),
        auctionId,
        isRead: false,
      },
    ]);
    for (const other of [bobSocket, carolSocket, guest])
      expect(notifications(other, auctionId)).toEqual([]);
  });
});

describe('the close', () => {
  it('reaches the room as auctionClosed, Sold to the winner at the final price', async () => {
    const auctionId = await newAuction('Mantel clock', 3000);
    const watcher = await connect(server);
    await watch(watcher, { auctionId, afterRevision: 0 });
    await placeBid(alice, auctionId, 150);
    await eventually(
      () =>
        expect(auctionEvents(watcher, auctionId).map((h) => h.event)).toContain('auctionClosed'),
      15_000,
    );
    const heard = auctionEvents(watcher, auctionId);
    expect(heard.map((h) => h.event)).toEqual(['newBid', 'auctionClosed']);
    expect(heard[1]?.payload).toMatchObject({
      productId: auctionId,
      revision: 2,
      type: 'AuctionClosed',
      status: 'Sold',
      winnerId: alice.id,
      finalPrice: 150,
      currentBid: 150,
      bid: null,
    });
  });
});

describe('what it refuses', () => {
  it('answers a watch of an unknown auction with AUCTION_NOT_FOUND', async () => {
    const probe = await connect(server);
    const { ack } = await watch(probe, { auctionId: randomUUID() });
    expect(ack).toEqual({
      ok: false,
      error: { code: 'AUCTION_NOT_FOUND', message: expect.any(String) },
    });
  });
});
