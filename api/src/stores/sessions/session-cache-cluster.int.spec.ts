import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MockInstance,
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  it,
  vi,
} from 'vitest';
import { type TestUser, signUpAndLogIn } from '../../testing/fixtures';
import { asSession, logIn } from '../../testing/realtime';
import { cacheOf, me, sessionId } from '../../testing/session-cache';
import { type TestServer, startTestServer } from '../../testing/test-server';
import { dropTestStores } from '../../testing/test-stores';
import type { CachedSessionStore } from './session-cache';
import { clusterTestEnv } from '../../testing/cluster-env';

/**
 * Two nodes of a cluster (`KAFKA_BROKERS`, one MongoDB database, one DATA_DIR), each with its
 * sessions in memory: one cookie used on both; a logout or an account deletion through node A
 * ends the session for the very next request on node B, whose memory held it: the answer on A
 * leaves only once B confirmed it dropped the session (Kafka's acknowledgement alone is not
 * enough: B fetches the broadcast milliseconds later, often after the next request).
 */

const brokers = process.env.KAFKA_BROKERS;
const mongodbUrl = process.env.MONGODB_URL;
const dataDir = mkdtempSync(join(tmpdir(), 'session-cluster-'));
const shared = {
  ...clusterTestEnv('sc', dataDir, 2),
  // Long enough that only the broadcast can end a session on B within the test.
  SESSION_CACHE_MS: '120000',
};

describe.skipIf(!brokers || !mongodbUrl)('sessions cached on the nodes of a cluster', () => {
  let a: TestServer;
  let b: TestServer;
  let user: TestUser;
  /** Node B's reads of the shared store (it still answers them). */
  let readsOnB: MockInstance<CachedSessionStore['store']['get']>;

  beforeAll(async () => {
    a = await startTestServer({ ...shared, NODE_ID: 'node-a' });
    b = await startTestServer({ ...shared, NODE_ID: 'node-b' });
    user = await signUpAndLogIn(a);
    readsOnB = vi.spyOn(cacheOf(b).store, 'get');
  }, 120_000);

  afterEach(() => readsOnB.mockClear());

  afterAll(async () => {
    readsOnB?.mockRestore();
    await b?.cleanup();
    await a?.cleanup();
    await dropTestStores(shared);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** A cookie signed in through A, used on both, B's copy in its memory. */
  const signedInOnBoth = async (who: TestUser): Promise<string> => {
    const cookie = await logIn(a, who);
    for (const node of [a, b, a, b]) expect((await me(node, cookie)).status).toBe(200);
    readsOnB.mockClear();
    expect((await me(b, cookie)).status).toBe(200);
    // Served from B's memory.
    expect(readsOnB).not.toHaveBeenCalled();
    return cookie;
  };

  it('a logout through node A: the very next request on node B is anonymous', async () => {
    const cookie = await signedInOnBoth(user);
    const out = await asSession(a, cookie, 'POST', '/api/v1/auth/logout', {});
    expect(out.status).toBe(200);
    expect((await me(b, cookie)).status).toBe(401);
    expect((await asSession(b, cookie, 'GET', '/api/v1/user/profile')).status).toBe(401);
    expect(readsOnB).toHaveBeenCalledWith(sessionId(cookie), expect.any(Function));
  });

  it('an account deleted through node A: the very next request on node B is anonymous', async () => {
    const leaver = await signUpAndLogIn(a);
    const [first, second] = [await signedInOnBoth(leaver), await signedInOnBoth(leaver)];
    const deleted = await asSession(a, first, 'DELETE', '/api/v1/user/delete-account');
    expect(deleted.status).toBe(200);
    for (const cookie of [second, first]) expect((await me(b, cookie)).status).toBe(401);
    // Refused because B dropped the sessions (and found them gone from the store), not only
    // because the account is gone too.
    expect(readsOnB.mock.calls.map(([sid]) => sid)).toEqual([sessionId(second), sessionId(first)]);
  });

  it('a session changed on B (a new login under the same cookie) is seen on A at once', async () => {
    const cookie = await signedInOnBoth(user);
    const again = await asSession(b, cookie, 'POST', '/api/v1/auth/login', {
      email: user.email,
      password: user.password,
    });
    expect(again.status).toBe(200);
    // The login replaced the cookie's session with a new one: the old id is gone on every node.
    expect((await me(a, cookie)).status).toBe(401);
  });
});
