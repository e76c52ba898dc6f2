import { type AuctionView, userStream } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type TestUser,
  signUpAndLogIn,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  waitForStatus,
} from '../../../testing/fixtures';
import {
  PNG_1X1,
  type TestClient,
  type TestServer,
  startTestServer,
} from '../../../testing/test-server';

let server: TestServer;

beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.cleanup());

const createAuction = (client: TestClient, endsInMs = 86_400_000): Promise<string> =>
  // Short ones must close on time with a bid in their last seconds: no soft close.
  createAuctionOverHttp(client, { title: 'Rocking chair', endsInMs, softClose: false });

const detail = (auctionId: string): Promise<AuctionView> => fetchAuction(server, auctionId);

const logIn = async (email: string, password: string) => {
  const client = server.client();
  const res = await client.post('/api/v1/auth/login', { json: { email, password } });
  return { client, res };
};

const accountDeletedEvents = async (userId: string) =>
  (await server.deps.events.readStream(userStream(userId))).filter(
    (event) => event.type === 'AccountDeleted',
  );

describe('DELETE /user/delete-account', () => {
  const email = `leaving-${Date.now()}@example.com`;
  const password = 'Secret123';
  let victimId: string;
  let imageUrl: string;
  let victim: TestClient;
  let otherTab: TestClient;
  let seller: TestUser;
  let bidder: TestUser;
  let ownAuction: string;
  let liveAuction: string;
  let closedAuction: string;
  let closedBid: string;
  let response: { status: number; body: unknown };

  beforeAll(async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      firstName: 'Lea',
      lastName: 'Ving',
      email,
      password,
      confirmPassword: password,
    }))
      form.set(key, value);
    form.set('image', new Blob([PNG_1X1], { type: 'image/png' }), 'me.png');
    expect((await server.client().post('/api/v1/auth/signup', { form })).status).toBe(201);
    const first = await logIn(email, password);
    const second = await logIn(email, password);
    victim = first.client;
    otherTab = second.client;
    victimId = first.res.body.user._id;
    imageUrl = first.res.body.user.image.url;
    [seller, bidder] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);

    ownAuction = await createAuction(victim);
    await placeBid(bidder.client, ownAuction, 150);
    liveAuction = await createAuction(seller.client);
    await placeBid(bidder.client, liveAuction, 150);
    await placeBid(victim, liveAuction, 200);
    closedAuction = await createAuction(seller.client, 2000);
    closedBid = (await placeBid(victim, closedAuction, 120)).newBid._id;
    await waitForStatus(server, closedAuction, 'Sold');
    expect(await server.deps.images.list()).toContain(imageUrl);

    response = await victim.delete('/api/v1/user/delete-account');
  }, 30_000);

  it("answers 200 'Account Removed' and clears the session cookie", () => {
    expect(response).toMatchObject({
      status: 200,
      body: { success: true, message: 'Account Removed' },
    });
    expect(victim.hasSession()).toBe(false);
  });

  it("cancels the user's live auction", async () => {
    expect((await detail(ownAuction)).status).toBe('Cancelled');
    const history = (await bidder.client.get('/api/v1/user/history?type=bid')).body.history;
    expect(history).toContainEqual(
      expect.objectContaining({ auctionId: ownAuction, status: 'cancelled' }),
    );
  });

  it("retracts the user's bid on a live auction: the current bid falls back", async () => {
    const view = await detail(liveAuction);
    expect(view.status).toBe('Live');
    expect(view.currentBid).toBe(150);
    expect(view.bids.map((b) => b.bidder._id)).toEqual([bidder.id]);
  });

  it("keeps the bid on a closed auction, under 'Deleted user'", async () => {
    const view = await detail(closedAuction);
    expect(view.status).toBe('Sold');
    const deleted = { _id: victimId, firstName: 'Deleted', lastName: 'user', image: null };
    expect(view.bids).toEqual([
      expect.objectContaining({ _id: closedBid, amount: 120, bidder: deleted }),
    ]);
    expect(view.winner).toEqual(deleted);
  });

  it('records AccountDeleted once, with what was settled, and no personal data', async () => {
    const events = await accountDeletedEvents(victimId);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({
      userId: victimId,
      cancelledAuctions: 1,
      retractedBids: 1,
      at: expect.any(String),
    });
    expect(JSON.stringify(events[0])).not.toContain(email);
  });

  it('erases the account and its image', async () => {
    expect(await server.deps.accounts.byId(victimId)).toBeUndefined();
    expect(await server.deps.accounts.byEmail(email)).toBeUndefined();
    expect(await server.deps.images.list()).not.toContain(imageUrl);
    expect((await server.client().get(imageUrl)).status).toBe(404);
  });

  it('ends every session: the other tab is logged out and the user cannot log in', async () => {
    expect(await server.deps.sessions.countForUser(victimId)).toBe(0);
    expect((await otherTab.get('/api/v1/auth/me')).status).toBe(401);
    expect((await otherTab.get('/api/v1/user/profile')).status).toBe(401);
    expect((await victim.get('/api/v1/user/profile')).status).toBe(401);
    const again = await logIn(email, password);
    expect(again.res.status).toBe(401);
    expect(again.res.body.message).toBe('Invalid email or password');
  });

  it('answers 401 to a guest and to the deleted session', async () => {
    expect((await server.client().delete('/api/v1/user/delete-account')).status).toBe(401);
    expect((await otherTab.delete('/api/v1/user/delete-account')).status).toBe(401);
  });
});

describe('a deletion that fails midway', () => {
  it('finishes on retry, skipping what was already done', async () => {
    const [leaver, bidder] = await Promise.all([signUpAndLogIn(server), signUpAndLogIn(server)]);
    const auctionId = await createAuction(leaver.client);
    const otherAuction = await createAuction(bidder.client);
    await placeBid(leaver.client, otherAuction, 300);

    const erase = vi.spyOn(server.deps.accounts, 'erase').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    try {
      const failed = await leaver.client.delete('/api/v1/user/delete-account');
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({ success: false, message: 'Something went wrong' });
    } finally {
      erase.mockRestore();
    }
    expect((await detail(auctionId)).status).toBe('Cancelled');
    expect((await detail(otherAuction)).currentBid).toBe(0);
    expect(await accountDeletedEvents(leaver.id)).toHaveLength(1);
    // Sessions end before anything else, so the user logs in again to retry.
    expect((await leaver.client.get('/api/v1/auth/me')).status).toBe(401);
    const again = await leaver.client.post('/api/v1/auth/login', {
      json: { email: leaver.email, password: leaver.password },
    });
    expect(again.status).toBe(200);

    const retried = await leaver.client.delete('/api/v1/user/delete-account');
    expect(retried.status).toBe(200);
    expect(retried.body.message).toBe('Account Removed');
    const events = await accountDeletedEvents(leaver.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ cancelledAuctions: 1, retractedBids: 1 });
    expect(await server.deps.accounts.byId(leaver.id)).toBeUndefined();
    expect((await leaver.client.get('/api/v1/auth/me')).status).toBe(401);
  });
});
