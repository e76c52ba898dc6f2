import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { allProjections } from '@auction/projections';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { STARTING_UP_MESSAGE } from '../http/middleware/readiness';
import { type RunningServer, startServer } from './server';
import { openLogAndReadModels } from './open-stores';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBid,
  signUpAndLogIn,
} from '../testing/fixtures';
import { TestClient, type TestServer, startTestServer } from '../testing/test-server';

let first: TestServer | undefined;
let again: RunningServer | undefined;
afterEach(async () => {
  await again?.close();
  again = undefined;
  await first?.cleanup();
  first = undefined;
});

/** Opens a gate the projections wait behind (`holdProjections`). */
const gate = () => {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

/**
 * A server with a seller's auction and a bid on it, stopped, then its read models lost: the read
 * store's file deleted (on MongoDB, every projection reset through the store's own `reset`).
 */
const historyWithoutReadModels = async () => {
  first = await startTestServer();
  const seller = await signUpAndLogIn(first);
  const bidder = await signUpAndLogIn(first);
  const auctionId = await createAuctionOverHttp(seller.client, { title: 'Barometer' });
  const bid = await placeBid(bidder, auctionId, 150);
  await first.close();
  const config = loadConfig({ ...first.storeEnv, DATA_DIR: first.dataDir });
  if (config.MONGODB_URL) {
    const { read, close } = await openLogAndReadModels(config);
    await read.ensureCollections(allProjections.flatMap((projection) => projection.collections));
    for (const projection of allProjections)
      await read.reset(
        projection.name,
        projection.collections.map((c) => c.name),
      );
    await close();
  } else {
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(first.dataDir, `read.sqlite${suffix}`), { force: true });
  }
  return { seller, bidder, auctionId, bidId: bid.newBid._id };
};

/** The same stores again, on a new port, with the projections held until `held` opens. */
const restart = async (held: Promise<void>, readinessWaitMs: number) => {
  const { storeEnv, dataDir } = first as TestServer;
  const logs: unknown[][] = [];
  again = await startServer(
    loadConfig({ ...storeEnv, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }),
    { holdProjections: held, readinessWaitMs, log: (...args) => logs.push(args) },
  );
  return { server: again, logs, guest: new TestClient(again.url) };
};

/** The user's session (kept in the session store) against the restarted server. */
const on = (user: TestUser, server: RunningServer) => user.client.at(server.url);

describe('start-up over a log whose read models are lost', () => {
  it('serves at once: health says catching up, reads answer 503, writes are taken; then all is served', async () => {
    const { bidder, seller, auctionId, bidId } = await historyWithoutReadModels();
    const projections = gate();
    const { server, logs, guest } = await restart(projections.opened, 100);
    const head = (await server.deps.events.headPosition()) as number;

    const health = await guest.get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      success: true,
      message: 'The read models are catching up',
      ready: false,
      readModels: { ready: false, startHead: head },
    });
    expect(health.body.readModels.projections.map((p: { name: string }) => p.name)).toEqual(
      allProjections.map((p) => p.name),
    );
    for (const projection of health.body.readModels.projections)
      expect(projection).toMatchObject({ position: 0, behind: head, role: 'running' });

    // Reads, and a write that looks up what it changes in the read models first, answer 503.
    const reads = [
      guest.get(`/api/v1/auction/fetchSpecificAuction?auctionId=${auctionId}`),
      guest.get('/api/v1/auction/fetchAllAuctions'),
      on(seller, server).get('/api/v1/user/profile'),
      on(bidder, server).put(`/api/v1/bid/editBid/${bidId}`, { json: { bidAmount: 170 } }),
    ];
    for (const res of await Promise.all(reads)) {
      expect(res).toMatchObject({
        status: 503,
        body: { success: false, message: STARTING_UP_MESSAGE },
      });
      expect(res.headers.get('retry-after')).toBe('5');
    }

    // The session, and a bid (the engine needs the log only), are served meanwhile.
    expect((await on(bidder, server).get('/api/v1/auth/me')).status).toBe(200);
    const raise = await on(bidder, server).post('/api/v1/bid/placeBid', {
      json: { productId: auctionId, bidAmount: 200 },
    });
    expect(raise).toMatchObject({ status: 201, body: { currentBid: 200 } });
    // A new auction is taken too, and its 201 carries the auction although no read model has it.
    const created = await on(seller, server).post('/api/v1/auction/createAuction', {
      json: {
        title: 'Sextant',
        description: 'Brass, with its case',
        category: 'antiques',
        startingPrice: 120,
        auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.auction).toMatchObject({
      title: 'Sextant',
      category: { _id: 'antiques', name: 'Antiques' },
      startingPrice: 120,
      currentBid: 0,
      status: 'Live',
      seller: { _id: seller.id, firstName: seller.firstName },
      bids: [],
      revision: 0,
    });

    projections.open();
    await server.caughtUp;
    const detail = await guest.get(`/api/v1/auction/fetchSpecificAuction?auctionId=${auctionId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.auctionDetails).toMatchObject({ title: 'Barometer', currentBid: 200 });
    expect(detail.body.auctionDetails.bids.map((b: { _id: string }) => b._id).sort()).toEqual(
      [bidId, raise.body.newBid._id].sort(),
    );
    const edited = await on(bidder, server).put(`/api/v1/bid/editBid/${bidId}`, {
      json: { bidAmount: 250 },
    });
    expect(edited.status).toBe(200);
    const healthy = await guest.get('/api/v1/health');
    expect(healthy.status).toBe(200);
    expect(healthy.body.message).toBe('OK');
    expect(healthy.body).not.toHaveProperty('ready');
    expect(logs).toEqual([]);
  });

  it('a read that arrives while the read models catch up waits for them, within its bound', async () => {
    const { auctionId } = await historyWithoutReadModels();
    const projections = gate();
    const { server, guest } = await restart(projections.opened, 60_000);

    let answered = false;
    const read = guest
      .get(`/api/v1/auction/fetchSpecificAuction?auctionId=${auctionId}`)
      .finally(() => (answered = true));
    // A request sent after the read is answered while the read still waits (it cannot be answered
    // before the projections run, and they are held).
    expect((await guest.get('/api/v1/health')).body.ready).toBe(false);
    expect(answered).toBe(false);

    projections.open();
    const res = await read;
    expect(res.status).toBe(200);
    expect(res.body.auctionDetails).toMatchObject({ _id: auctionId, title: 'Barometer' });
    await server.caughtUp;
  });
});
