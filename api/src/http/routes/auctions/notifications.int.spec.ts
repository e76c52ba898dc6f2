import { DAY_MS } from '@auction/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  placeBidThroughEngine,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

const A = '/api/v1/auction';

let server: TestServer;
let seller: TestUser;
let bidder: TestUser;
let rival: TestUser;
let auctionId: string;

beforeAll(async () => {
  server = await startTestServer();
  seller = await signUpAndLogIn(server);
  bidder = await signUpAndLogIn(server);
  rival = await signUpAndLogIn(server);
  auctionId = await createAuctionOverHttp(seller.client, {
    title: 'Pocket watch',
    description: 'Silver, engraved',
    category: 'jewelry-watches',
    startingPrice: 100,
    endsInMs: DAY_MS,
  });
});
afterAll(() => server.cleanup());

const placeBid = (bidderId: string, dollars: number) =>
  placeBidThroughEngine(server, auctionId, bidderId, dollars);

const notifications = async (user: TestUser) => {
  const res = await user.client.get(`${A}/notifications`);
  expect(res.status).toBe(200);
  return res.body.data as { _id: string; message: string; isRead: boolean; auctionId: string }[];
};

describe('notifications', () => {
  it('answers 401 to a guest on every route', async () => {
    const guest = server.client();
    expect((await guest.get(`${A}/notifications`)).status).toBe(401);
    expect((await guest.patch(`${A}/notifications/mark-read`)).status).toBe(401);
    const clear = await guest.delete(`${A}/notifications/clear`);
    expect(clear.status).toBe(401);
    expect(clear.body).toEqual({ success: false, message: 'Please log in to continue' });
  });

  it('starts empty', async () => {
    const res = await seller.client.get(`${A}/notifications`);
    expect(res.body).toEqual({
      success: true,
      message: 'Notifications Fetched',
      data: [],
      nextCursor: null,
    });
  });

  it('tells the seller of a new bid, unread, and only the seller', async () => {
    await placeBid(bidder.id, 120);
    const list = await notifications(seller);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ isRead: false, auctionId });
    expect(list[0]?.message).toContain('$120.00');
    expect(await notifications(bidder)).toEqual([]);
  });

  it('marks every notification read; later ones arrive unread', async () => {
    const res = await seller.client.patch(`${A}/notifications/mark-read`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect((await notifications(seller)).map((n) => n.isRead)).toEqual([true]);

    await placeBid(rival.id, 130);
    expect((await notifications(seller)).map((n) => n.isRead)).toEqual([false, true]);
    const outbid = await notifications(bidder);
    expect(outbid).toHaveLength(1);
    expect(outbid[0]?.message).toContain('outbid');
  });

  it("clears every notification of the user and no one else's", async () => {
    const res = await seller.client.delete(`${A}/notifications/clear`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(await notifications(seller)).toEqual([]);
    expect(await notifications(bidder)).toHaveLength(1);

    await placeBid(bidder.id, 140);
    expect((await notifications(seller)).map((n) => n.isRead)).toEqual([false]);
  });

  it('refuses cross-site mark-read and clear', async () => {
    const before = await notifications(seller);
    const headers = { origin: 'https://evil.example' };
    expect((await seller.client.patch(`${A}/notifications/mark-read`, {}, headers)).status).toBe(
      403,
    );
    expect((await seller.client.delete(`${A}/notifications/clear`, {}, headers)).status).toBe(403);
    expect(await notifications(seller)).toEqual(before);
  });

  it('logged no unexpected errors', () => {
    expect(server.logs).toEqual([]);
  });
});
