import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuctionStateEvent, auctionStream, deletedUser } from '@auction/contracts';
import type { EventLog } from '@auction/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccountStore } from '../accounts/account-store';
import type { AppDeps } from '../app-deps';
import {
  type TestUser,
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
  auctionEvents,
  closeProbes,
  connect,
  eventually,
  pause,
  range,
  revisionsOf,
  watch,
} from '../testing/realtime';

/**
 * The gateway's cost per event (one encoding per room, profiles cached, one fold per auction)
 * and the guarantees it keeps meanwhile. Each test runs a gateway of its own on its own port,
 * beside the test server's and following the same event log, with the stores it is given (counted
 * or slowed down) and its own buffer sizes; bids go through the test server's HTTP API.
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
  vi.restoreAllMocks();
  closeProbes();
  for (const close of closing.splice(0)) await close();
});
afterAll(() => server.cleanup());

/** A gateway on its own port over the test server's stores, with some of them replaced. */
const gatewayOver = async (
  options: GatewayOptions = {},
  replaced: Partial<Pick<AppDeps, 'events' | 'accounts'>> = {},
) => {
  const http = createServer();
  const gateway = new RealtimeGateway({ ...server.deps, ...replaced }, http, [], () => [], options);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await gateway.start();
  closing.push(() => gateway.close());
  return { gateway, url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
};

/** `target` with some methods replaced; the others keep their `this`. */
const replacing = <T extends object>(target: T, methods: Partial<T>): T =>
  new Proxy(target, {
    get: (t, property) => {
      if (property in methods) return methods[property as keyof T];
      const value: unknown = Reflect.get(t, property, t);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });

const newAuction = (title = 'Carriage clock') => createAuctionOverHttp(seller.client, { title });

/** The `auction:state` messages the probe heard, parsed with the contract. */
const statesOf = (p: Probe): AuctionStateEvent[] =>
  p.heard.filter((h) => h.event === 'auction:state').map((h) => AuctionStateEvent.parse(h.payload));

const profile = (user: TestUser) => ({
  _id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  image: null,
});

describe('the cost of a broadcast', () => {
  it('encodes each event once for the whole room, however many watch', async () => {
    const { gateway, url } = await gatewayOver();
    const auctionId = await newAuction();
    const watchers = await Promise.all(range(1, 25).map(() => connect({ url })));
    for (const w of watchers)
      expect((await watch(w, { auctionId })).ack).toMatchObject({ ok: true });
    const encode = vi.spyOn(gateway.io.encoder, 'encode');

    for (const amount of [110, 120, 130]) await placeBid(alice, auctionId, amount);
    for (const w of watchers)
      await eventually(() => expect(revisionsOf(w, auctionId)).toEqual([1, 2, 3]));
    const encoded = encode.mock.calls.map(([packet]) => (packet.data as unknown[])[0]);
    expect(encoded.filter((name) => name === 'newBid')).toHaveLength(3);
  });

  it('looks a bidder up once for all their bids, and not for an auction nobody watches', async () => {
    const lookups: string[] = [];
    const accounts = replacing<AccountStore>(server.deps.accounts, {
      lookup: (ids) => {
        lookups.push(...ids);
        return server.deps.accounts.lookup(ids);
      },
    });
    const { url } = await gatewayOver({}, { accounts });
    const watched = await newAuction('Watched');
    const unwatched = await newAuction('Unwatched');
    const watcher = await connect({ url });
    await watch(watcher, { auctionId: watched });

    for (let i = 0; i < 6; i++) {
      await placeBid(alice, watched, 110 + 10 * i);
      await placeBid(bob, unwatched, 110 + 10 * i);
    }
    await eventually(() => expect(revisionsOf(watcher, watched)).toEqual(range(1, 6)));
    expect(auctionEvents(watcher, watched).map((e) => e.payload.bid?.bidder)).toEqual(
      range(1, 6).map(() => profile(alice)),
    );
    expect(lookups.filter((id) => id === alice.id)).toHaveLength(1);
    expect(lookups).not.toContain(bob.id);
  });

  it('reads the stream once for many watches of one auction, from the start or a revision', async () => {
    const reads: string[] = [];
    const events = replacing<EventLog>(server.deps.events, {
      // A read that takes a while (a networked store): the watches overlap.
      readStream: async (streamId, options) => {
        reads.push(streamId);
        await pause(50);
        return server.deps.events.readStream(streamId, options);
      },
    });
    const { url } = await gatewayOver({}, { events });
    const auctionId = await newAuction();
    await placeBid(alice, auctionId, 110);
    await placeBid(bob, auctionId, 120);

    const starts = [undefined, -1, 0, 1, 2];
    const watchers = await Promise.all(range(1, 20).map(() => connect({ url })));
    const answers = await Promise.all(
      watchers.map((w, i) => watch(w, { auctionId, afterRevision: starts[i % starts.length] })),
    );
    const expected = (i: number) =>
      range((starts[i % starts.length] ?? 2) + 1, 2).filter((r) => r > 0);
    expect(answers.map(({ ack }) => ack)).toEqual(watchers.map(() => ({ ok: true, revision: 2 })));
    expect(answers.map(({ replayed }) => replayed)).toEqual(watchers.map((_, i) => expected(i)));
    expect(reads.filter((id) => id === auctionStream(auctionId))).toHaveLength(1);

    await placeBid(alice, auctionId, 130);
    for (const [i, w] of watchers.entries())
      await eventually(() => expect(revisionsOf(w, auctionId)).toEqual([...expected(i), 3]));
    expect(reads.filter((id) => id === auctionStream(auctionId))).toHaveLength(1);
  });
});

describe('a deleted account', () => {
  it('reads as Deleted user in everything sent after its deletion, in replays and states alike', async () => {
    // A replay buffer of one event: a watcher from the start gets the state instead.
    const big = await gatewayOver();
    const small = await gatewayOver({ replayBuffer: 1 });
    const leaving = await signUpAndLogIn(server, { firstName: 'Lena', lastName: 'Leaving' });
    const auctionId = await newAuction();
    const first = await connect(big);
    const firstSmall = await connect(small);
    await watch(first, { auctionId });
    await watch(firstSmall, { auctionId });
    await placeBid(leaving, auctionId, 110);
    await placeBid(alice, auctionId, 120);
    await eventually(() => expect(revisionsOf(first, auctionId)).toEqual([1, 2]));
    expect(auctionEvents(first, auctionId)[0]?.payload.bid?.bidder).toEqual(profile(leaving));

    const res = await leaving.client.request('DELETE', '/api/v1/user/delete-account');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A bid after the deletion: once it is heard, the gateways have passed AccountDeleted.
    await placeBid(alice, auctionId, 130);
    for (const p of [first, firstSmall])
      await eventually(() => expect(revisionsOf(p, auctionId)).toEqual([1, 2, 3, 4]));
    // Revision 3 is the deletion retracting Lena's standing bid.
    expect(auctionEvents(first, auctionId).map((e) => e.event)).toEqual([
      'newBid',
      'newBid',
      'bidRetracted',
      'newBid',
    ]);

    const gone = deletedUser(leaving.id);
    const late = await connect(big);
    const { ack, replayed } = await watch(late, { auctionId, afterRevision: -1 });
    expect(ack).toEqual({ ok: true, revision: 4 });
    expect(replayed).toEqual([1, 2, 3, 4]);
    expect(auctionEvents(late, auctionId).map((e) => e.payload.bid?.bidder)).toEqual([
      gone,
      profile(alice),
      gone,
      profile(alice),
    ]);
    // Beyond the small buffer: the state at revision 4, as the detail shows it, and no replay.
    const lateSmall = await connect(small);
    const far = await watch(lateSmall, { auctionId, afterRevision: -1 });
    expect(far.ack).toEqual({ ok: true, revision: 4 });
    expect(far.replayed).toEqual([]);
    expect(statesOf(lateSmall).map((s) => s.auction)).toEqual([
      await fetchAuction(server, auctionId),
    ]);
    expect(statesOf(lateSmall)[0]?.auction.bids.map((b) => b.bidder)).toEqual([
      profile(alice),
      profile(alice),
    ]);
  });
});

describe('watching from beyond the buffer', () => {
  it('gives every watcher the state or the missed events, then each revision once, in order, while bids pour in', async () => {
    // Reads and lookups take a few ms, as over a network: watches and broadcasts interleave.
    const slow = () => pause(Math.floor(Math.random() * 4));
    const events = replacing<EventLog>(server.deps.events, {
      readStream: async (streamId, options) => {
        await slow();
        return server.deps.events.readStream(streamId, options);
      },
    });
    const accounts = replacing<AccountStore>(server.deps.accounts, {
      lookup: async (ids) => {
        await slow();
        return server.deps.accounts.lookup(ids);
      },
    });
    const { url } = await gatewayOver({ replayBuffer: 3, users: 1 }, { events, accounts });
    const auctionId = await newAuction('Grandfather clock');
    let amount = 100;
    let stopped = false;
    let accepted = 0;
    const bidLoop = async (user: TestUser) => {
      while (!stopped) {
        const res = await user.client.post('/api/v1/bid/placeBid', {
          json: { productId: auctionId, bidAmount: (amount += 1) },
        });
        if (res.status === 201) accepted++;
        else expect(res.status, JSON.stringify(res.body)).toBe(409);
      }
    };
    const loops = [alice, bob].map(bidLoop);

    const watchers: { probe: Probe; from: number; watched: ReturnType<typeof watch> }[] = [];
    const start = async (afterRevision: number) => {
      const probe = await connect({ url });
      const watched = watch(probe, { auctionId, afterRevision });
      watched.catch(() => undefined);
      watchers.push({ probe, from: Math.max(afterRevision, 0) + 1, watched });
    };
    await eventually(() => expect(accepted).toBeGreaterThan(8));
    for (let round = 0; round < 6; round++) {
      const latest = watchers.at(-1);
      const seen = latest ? (revisionsOf(latest.probe, auctionId).at(-1) ?? 0) : 0;
      // From the start, from early on, reconnect-style from what a watcher saw last, and near now.
      await Promise.all([start(-1), start(round), start(seen), start(accepted - 1)]);
      await pause(30 + 20 * (round % 3));
    }
    await eventually(() => expect(accepted).toBeGreaterThan(40), 30_000);
    stopped = true;
    await Promise.all(loops);

    const last = (await server.deps.events.streamRevision(auctionStream(auctionId))) ?? -1;
    expect(last).toBe(accepted);
    const firsts: number[] = [];
    for (const { probe, from, watched } of watchers) {
      const { ack, replayed } = await watched;
      expect(ack).toMatchObject({ ok: true });
      const joinedAt = ack.ok ? Number(ack.revision) : -1;
      // From beyond the buffer: first the state at the revision it joined at, then what follows.
      const states = statesOf(probe).map((s) => s.revision);
      const first = states.length > 0 ? joinedAt + 1 : from;
      if (states.length > 0) {
        expect(states, `state of a watcher from ${from}`).toEqual([joinedAt]);
        expect(probe.heard[0]?.event).toBe('auction:state');
      }
      expect(replayed, `replay of a watcher from ${from}`).toEqual(range(first, joinedAt));
      expect(replayed.length).toBeLessThanOrEqual(3);
      await eventually(() =>
        expect(revisionsOf(probe, auctionId), `watcher from ${from}`).toEqual(range(first, last)),
      );
      firsts.push(first);
    }
    // The watchers from the start were beyond a buffer of 3 events.
    expect(watchers.filter(({ probe }) => statesOf(probe).length > 0).length).toBeGreaterThan(5);
    await pause();
    for (const [i, { probe, from }] of watchers.entries())
      expect(revisionsOf(probe, auctionId), `watcher from ${from}`).toEqual(
        range(firsts[i] ?? from, last),
      );
  });
});
