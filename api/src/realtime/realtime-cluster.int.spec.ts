import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBid,
  signUpAndLogIn,
} from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';
import { dropTestStores } from '../testing/test-stores';
import {
  asSession,
  closeProbes,
  connect,
  eventually,
  logIn,
  notifications,
} from '../testing/realtime';
import { clusterTestEnv } from '../testing/cluster-env';

/**
 * Two nodes of a cluster (`KAFKA_BROKERS`, one MongoDB database, one DATA_DIR): a user's sockets
 * hear their notifications and are ended by a logout whichever node they are connected to, while
 * the notifications projection runs on one node only (the first to start holds its lease).
 */

const brokers = process.env.KAFKA_BROKERS;
const mongodbUrl = process.env.MONGODB_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'realtime-cluster-'));
const shared = clusterTestEnv('rt', dataDir, 4);

describe.skipIf(!brokers || !mongodbUrl)('realtime across the nodes of a cluster', () => {
  let a: TestServer;
  let b: TestServer;
  let seller: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    a = await startTestServer({ ...shared, NODE_ID: 'node-a' });
    b = await startTestServer({ ...shared, NODE_ID: 'node-b' });
    [seller, alice, bob] = await Promise.all([
      signUpAndLogIn(a),
      signUpAndLogIn(a),
      signUpAndLogIn(a),
    ]);
  }, 120_000);

  afterAll(async () => {
    closeProbes();
    await b?.cleanup();
    await a?.cleanup();
    await dropTestStores(shared);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('the projection runs on one node; notifications reach the sockets on both', async () => {
    const roles = async (server: TestServer) =>
      (await server.deps.runner.status()).find((s) => s.name === 'notifications')?.role;
    expect([await roles(a), await roles(b)].sort()).toEqual(['following', 'running']);

    const [sellerOnA, sellerOnB, aliceOnB] = await Promise.all([
      logIn(a, seller).then((cookie) => connect(a, { cookie })),
      logIn(b, seller).then((cookie) => connect(b, { cookie })),
      logIn(b, alice).then((cookie) => connect(b, { cookie })),
    ]);
    const auctionId = await createAuctionOverHttp(seller.client, { title: 'Sextant' });
    await placeBid(alice, auctionId, 110);
    await placeBid(bob, auctionId, 120);
    for (const tab of [sellerOnA, sellerOnB])
      await eventually(() =>
        expect(notifications(tab, auctionId).map((n) => n.message)).toEqual([
          'New bid of $110.00 on "Sextant".',
          'New bid of $120.00 on "Sextant".',
        ]),
      );
    await eventually(() =>
      expect(notifications(aliceOnB, auctionId).map((n) => n.message)).toEqual([
        'You have been outbid on "Sextant". The current bid is $120.00.',
      ]),
    );
  });

  it('a logout on one node ends that session’s sockets on the other', async () => {
    const cookie = await logIn(a, bob);
    const [onA, onB] = await Promise.all([connect(a, { cookie }), connect(b, { cookie })]);
    const res = await asSession(a, cookie, 'POST', '/api/v1/auth/logout', {});
    expect(res.status).toBe(200);
    for (const socket of [onA, onB])
      await eventually(() => expect(socket.disconnects).toEqual(['io server disconnect']));
  });
});
