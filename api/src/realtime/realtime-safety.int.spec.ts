import { auctionStream } from '@auction/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  signUpAndLogIn,
} from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';
import {
  type Probe,
  ask,
  asSession,
  closeProbes,
  connect,
  eventually,
  logIn,
  pause,
  probe,
  revisionsOf,
  watch,
} from '../testing/realtime';

let server: TestServer;
let seller: TestUser;
let bidder: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, bidder] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);
});
afterEach(() => closeProbes());
afterAll(() => server.cleanup());

const validationFailed = {
  ok: false,
  error: { code: 'VALIDATION_FAILED', message: expect.any(String) },
};

const healthy = async () => {
  const res = await server.client().get('/api/v1/health');
  expect(res.status).toBe(200);
};

/** A fresh watcher hears the next bid live. */
const stillBroadcasts = async (auctionId: string, bidAmount: number) => {
  const fresh = await connect(server);
  expect((await watch(fresh, { auctionId })).ack).toMatchObject({ ok: true });
  const placed = await placeBid(bidder, auctionId, bidAmount);
  await eventually(() =>
    expect(fresh.heard).toContainEqual({
      event: 'newBid',
      payload: expect.objectContaining({ productId: auctionId, bid: placed.newBid }),
    }),
  );
};

describe('garbage from a client', () => {
  it('gets error acks for every bad shape, ignores a client newBid, and the server keeps serving', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    await placeBid(bidder, auctionId, 110);
    const before = await fetchAuction(server, auctionId);
    const revisionBefore = await server.deps.events.streamRevision(auctionStream(auctionId));
    const rogue = await connect(server);

    const badWatches: unknown[] = [
      undefined,
      null,
      5,
      'auction',
      [auctionId],
      {},
      { auctionId: 5 },
      { auctionId: '../x' },
      { auctionId: 'x'.repeat(500) },
      { auctionId, afterRevision: -5 },
      { auctionId, afterRevision: 1.5 },
      { auctionId, afterRevision: 'a' },
      { auctionId, afterRevision: null },
    ];
    for (const payload of badWatches)
      expect(await ask(rogue, 'auction:watch', payload), JSON.stringify(payload)).toEqual(
        validationFailed,
      );
    for (const payload of [
      undefined,
      null,
      5,
      'x',
      [],
      {},
      { auctionId: 5 },
      { auctionId: '../x' },
    ])
      expect(await ask(rogue, 'auction:unwatch', payload), JSON.stringify(payload)).toEqual(
        validationFailed,
      );
    expect(await ask(rogue, 'auction:unwatch', { auctionId })).toEqual({ ok: true });

    expect(await ask(rogue, 'newBid', { productId: auctionId, bidAmount: 5000 })).toEqual({
      ok: true,
      ignored: true,
    });
    for (const payload of [undefined, null, 5, 'bid', [1, 2]])
      expect(await ask(rogue, 'newBid', payload), JSON.stringify(payload)).toEqual(
        validationFailed,
      );

    for (const event of ['placeBid', 'auction:close', 'error', 'constructor', '__proto__'])
      expect(await ask(rogue, event, { auctionId }), event).toEqual(validationFailed);
    expect(await ask(rogue, 'x'.repeat(10_000))).toEqual(validationFailed);

    // The same without acknowledgements: nothing to answer, nothing breaks.
    for (const payload of badWatches) rogue.raw.emit('auction:watch', payload);
    rogue.raw.emit('auction:watch');
    rogue.raw.emit('auction:unwatch');
    rogue.raw.emit('auction:unwatch', 5);
    rogue.raw.emit('newBid');
    rogue.raw.emit('newBid', 5);
    rogue.raw.emit('newBid', { productId: auctionId, bidAmount: 6000 });
    rogue.raw.emit('somethingElse', 1, 2, 3);
    rogue.raw.emit('error', { boom: true });
    await pause();

    expect(rogue.socket.connected).toBe(true);
    await healthy();
    const after = await fetchAuction(server, auctionId);
    expect(after.bids).toEqual(before.bids);
    expect(after.currentBid).toBe(before.currentBid);
    expect(await server.deps.events.streamRevision(auctionStream(auctionId))).toBe(revisionBefore);
    expect(rogue.heard).toEqual([]);
    await stillBroadcasts(auctionId, 120);
  });

  it('answers an emit whose acknowledgement is not the second argument', async () => {
    const auctionId = await createAuctionOverHttp(seller.client);
    const rogue = await connect(server);
    const answer = (event: string, ...args: unknown[]) =>
      ask(rogue, event, ...args).catch((error: unknown) => String(error));
    // socket.io passes the acknowledgement as the last argument, whatever came before it.
    const answers = await Promise.all([
      answer('auction:watch'),
      answer('auction:unwatch'),
      answer('newBid'),
      answer('auction:watch', { auctionId }, 'extra'),
      answer('newBid', { productId: auctionId, bidAmount: 500 }, 'extra'),
    ]);
    expect(answers).toEqual([
      validationFailed,
      validationFailed,
      validationFailed,
      expect.objectContaining({ ok: expect.any(Boolean) }),
      expect.objectContaining({ ok: expect.any(Boolean) }),
    ]);
    await healthy();
    await stillBroadcasts(auctionId, 110);
  });
});

describe('the handshake', () => {
  it("refuses another site's Origin and accepts the site's own and none (a Node client)", async () => {
    const evil = probe(server, { origin: 'https://evil.example' });
    const refused = await new Promise<string>((resolve) => {
      evil.socket.once('connect', () => resolve('connected'));
      evil.socket.once('connect_error', (error) => resolve(`connect_error: ${error.message}`));
    });
    expect(refused).toMatch(/^connect_error/);
    expect(evil.socket.connected).toBe(false);

    const own = await connect(server, { origin: server.url });
    const none = await connect(server);
    expect(own.socket.connected && none.socket.connected).toBe(true);
  });
});

describe('ending sockets', () => {
  const session = async (user: TestUser) => {
    const cookie = await logIn(server, user);
    return { cookie, sockets: await Promise.all([1, 2].map(() => connect(server, { cookie }))) };
  };
  const disconnectedByServer = (p: Probe) =>
    eventually(() => expect(p.disconnects).toEqual(['io server disconnect']));

  it("logout ends that session's sockets; another session of the same user keeps its socket", async () => {
    const user = await signUpAndLogIn(server);
    const [leaving, staying] = await Promise.all([session(user), session(user)]);
    const bystander = await connect(server, { cookie: await logIn(server, bidder) });

    const res = await asSession(server, leaving.cookie, 'POST', '/api/v1/auth/logout', {});
    expect(res.status).toBe(200);
    for (const p of leaving.sockets) await disconnectedByServer(p);
    await pause();
    for (const p of [...staying.sockets, bystander]) {
      expect(p.socket.connected).toBe(true);
      expect(p.disconnects).toEqual([]);
    }

    // The remaining session still hears its notifications.
    const auctionId = await createAuctionOverHttp(user.client);
    await placeBid(bidder, auctionId, 110);
    for (const p of staying.sockets)
      await eventually(() => expect(p.heard.map((h) => h.event)).toContain('bidNotification'));
    for (const p of leaving.sockets) expect(p.heard).toEqual([]);
  });

  it("account deletion ends every socket of the user, and nobody else's", async () => {
    const user = await signUpAndLogIn(server);
    const [first, second] = await Promise.all([session(user), session(user)]);
    const auctionId = await createAuctionOverHttp(seller.client);
    const watcher = await connect(server, { cookie: await logIn(server, bidder) });
    await watch(watcher, { auctionId });
    for (const p of [...first.sockets, ...second.sockets]) await watch(p, { auctionId });

    const res = await asSession(server, first.cookie, 'DELETE', '/api/v1/user/delete-account');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const p of [...first.sockets, ...second.sockets]) await disconnectedByServer(p);
    await pause();
    expect(watcher.socket.connected).toBe(true);
    expect(watcher.disconnects).toEqual([]);
    await placeBid(bidder, auctionId, 110);
    await eventually(() => expect(revisionsOf(watcher, auctionId)).toEqual([1]));
  });
});
