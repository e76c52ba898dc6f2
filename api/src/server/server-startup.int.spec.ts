import { randomUUID } from 'node:crypto';
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
const historyWithoutReadModels = async <More = undefined>(
  more?: (server: TestServer, seller: TestUser, bidder: TestUser) => Promise<More>,
) => {
  first = await startTestServer();
  const seller = await signUpAndLogIn(first);
  const bidder = await signUpAndLogIn(first);
  const auctionId = await createAuctionOverHttp(seller.client, { title: 'Barometer' });
  const bid = await placeBid(bidder, auctionId, 150);
  const extra = await more?.(first, seller, bidder);
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
  return { seller, bidder, auctionId, bidId: bid.newBid._id, more: extra as More };
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

    // Reads of the read models, and a write that looks up what it changes in them first, answer
    // 503 (the auction page is answered from the engine: the next test).
    const reads = [
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
    const read = guest.get('/api/v1/auction/fetchAllAuctions').finally(() => (answered = true));
    // A request sent after the read is answered while the read still waits (it cannot be answered
    // before the projections run, and they are held).
    expect((await guest.get('/api/v1/health')).body.ready).toBe(false);
    expect(answered).toBe(false);

    projections.open();
    const res = await read;
    expect(res.status).toBe(200);
    expect(res.body.auctions).toMatchObject([{ _id: auctionId, title: 'Barometer' }]);
    await server.caughtUp;
  });

  it('answers the auction page and its bid pages from the engine meanwhile, as the caught-up catalog does', async () => {
    // More of a history: the seller's reserve, a rival with a secret maximum that outbids the
    // bidder, a retraction, and a watch star.
    const { bidder, seller, auctionId, bidId, more } = await historyWithoutReadModels(
      async (server, seller, bidder) => {
        const reserved = await createAuctionOverHttp(seller.client, {
          title: 'Orrery',
          reservePrice: 500,
        });
        const rival = await signUpAndLogIn(server);
        const third = await signUpAndLogIn(server);
        await placeBid(bidder, reserved, 110);
        await placeBid(rival, reserved, 130, 400);
        await placeBid(bidder, reserved, 150);
        const retracted = await placeBid(third, reserved, 450);
        const retraction = await third.client.delete(
          `/api/v1/bid/deleteBid/${retracted.newBid._id}`,
        );
        expect(retraction.status, JSON.stringify(retraction.body)).toBe(200);
        const watched = await bidder.client.post(`/api/v1/auction/watch/${reserved}`);
        expect(watched.status, JSON.stringify(watched.body)).toBe(200);
        return { reserved, rival };
      },
    );
    const { reserved, rival } = more;
    const projections = gate();
    const { server, logs, guest } = await restart(projections.opened, 100);
    const pages = (id: string) =>
      [
        ['guest', guest.get(`/api/v1/auction/fetchSpecificAuction?auctionId=${id}`)],
        ['bidder', on(bidder, server).get(`/api/v1/auction/fetchSpecificAuction?auctionId=${id}`)],
        ['seller', on(seller, server).get(`/api/v1/auction/fetchSpecificAuction?auctionId=${id}`)],
        ['rival', on(rival, server).get(`/api/v1/auction/fetchSpecificAuction?auctionId=${id}`)],
        ['bids', guest.get(`/api/v1/auction/bids?auctionId=${id}&limit=1`)],
      ] as const;
    const answers = async () => {
      const all: Record<string, unknown> = {};
      for (const id of [auctionId, reserved])
        for (const [who, answer] of pages(id)) {
          const res = await answer;
          expect(res.status, `${who} ${JSON.stringify(res.body)}`).toBe(200);
          all[`${id} ${who}`] = res.body;
        }
      // The second page of bids, from the first page's cursor.
      const cursor = (all[`${reserved} bids`] as { nextCursor: string }).nextCursor;
      expect(cursor).toEqual(expect.any(String));
      const next = await guest.get(
        `/api/v1/auction/bids?auctionId=${reserved}&limit=1&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(next.status).toBe(200);
      all.next = next.body;
      return all;
    };

    // The read models are held: health says so, and the auction pages are served all the same.
    expect((await guest.get('/api/v1/health')).body).toMatchObject({ ready: false });
    const during = await answers();
    expect((await guest.get('/api/v1/health')).body).toMatchObject({ ready: false });
    const detail = (key: string) =>
      (during[key] as { auctionDetails: Record<string, unknown> }).auctionDetails;
    expect(detail(`${auctionId} guest`)).toMatchObject({ title: 'Barometer', currentBid: 150 });
    expect(detail(`${reserved} seller`)).toMatchObject({
      title: 'Orrery',
      category: { _id: 'antiques', name: 'Antiques' },
      viewer: { reservePrice: 500 },
      watching: false,
    });
    expect(detail(`${reserved} bidder`)).toMatchObject({ watching: true });
    expect(detail(`${reserved} rival`)).toMatchObject({ viewer: { maxBid: 400 } });
    expect(detail(`${reserved} guest`).retractions).toHaveLength(1);
    expect(detail(`${reserved} guest`)).not.toHaveProperty('viewer');
    expect(detail(`${auctionId} bidder`)).toMatchObject({
      viewer: { bidId, retractable: [{ bidId }] },
    });
    // An unknown auction is a 404, as ever.
    expect(
      (await guest.get(`/api/v1/auction/fetchSpecificAuction?auctionId=${randomUUID()}`)).status,
    ).toBe(404);

    // Every other read still waits for the read models: 503, Retry-After, the starting-up message.
    const gated = [
      guest.get('/api/v1/auction/fetchAllAuctions'),
      guest.get('/api/v1/auction/featured'),
      guest.get('/api/v1/auction/getAllCategories'),
      on(seller, server).get('/api/v1/auction/getAuctions'),
      on(bidder, server).get('/api/v1/user/profile'),
      on(bidder, server).get('/api/v1/user/history'),
      on(bidder, server).get('/api/v1/user/winnings'),
      on(bidder, server).get('/api/v1/user/watchlist'),
      on(bidder, server).get('/api/v1/auction/notifications'),
    ];
    for (const res of await Promise.all(gated)) {
      expect(res).toMatchObject({
        status: 503,
        body: { success: false, message: STARTING_UP_MESSAGE },
      });
      expect(res.headers.get('retry-after')).toBe('5');
    }

    projections.open();
    await server.caughtUp;
    expect((await guest.get('/api/v1/health')).body).not.toHaveProperty('ready');
    // The same revisions, now from the catalog: the very same answers.
    expect(await answers()).toEqual(during);
    expect(logs).toEqual([]);
  });
});
