import type { AuctionView, BidView } from '@auction/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auctionEvents, closeProbes, connect, eventually, watch } from '../../../testing/realtime';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

/** Proxy bids, reserve prices and Buy It Now over HTTP and the socket, and who sees what. */
let server: TestServer;
let seller: TestUser;
let alice: TestUser;
let bob: TestUser;
let auditor: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [seller, alice, bob, auditor] = await Promise.all([
    signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' }),
    signUpAndLogIn(server, { firstName: 'Alice', lastName: 'Able' }),
    signUpAndLogIn(server, { firstName: 'Bob', lastName: 'Baker' }),
    signUpAndLogIn(server, { firstName: 'Audrey', lastName: 'Auditor' }),
  ]);
  await server.deps.accounts.setRole(auditor.email, 'Auditor');
});
afterEach(() => closeProbes());
afterAll(() => server.cleanup());

const detailAs = async (user: TestUser, auctionId: string): Promise<AuctionView> => {
  const res = await user.client.get(`/api/v1/auction/fetchSpecificAuction?auctionId=${auctionId}`);
  expect(res.status).toBe(200);
  return (res.body as { auctionDetails: AuctionView }).auctionDetails;
};

const auditEvents = async (user: TestUser, auctionId: string) => {
  const res = await user.client.get(`/api/v1/audit/auctions/${auctionId}/events`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (
    res.body as { events: { type: string; data: Record<string, unknown>; redacted?: string[] }[] }
  ).events;
};

describe('proxy bids', () => {
  it('answer a lower bid with an automatic bid, live, and keep each maximum to its bidder', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      increments: 'table',
    });
    const watcher = await connect(server);
    await watch(watcher, { auctionId, afterRevision: 0 });

    const first = await placeBid(alice, auctionId, 100, 377.77);
    expect(first).toMatchObject({ leading: true, maxBid: 377.77, currentBid: 100 });
    const second = await placeBid(bob, auctionId, 150);
    // Placed, but Alice's maximum answered it at once: $150 plus the $2.50 increment.
    expect(second).toMatchObject({ leading: false, currentBid: 152.5 });

    await eventually(() =>
      expect(
        auctionEvents(watcher, auctionId).map(({ event, payload }) => [
          event,
          payload.type,
          payload.bid?.amount,
          payload.bid?.automatic ?? false,
          payload.currentBid,
        ]),
      ).toEqual([
        ['newBid', 'BidPlaced', 100, false, 100],
        ['newBid', 'BidPlaced', 150, false, 150],
        ['bidUpdated', 'AutomaticBidPlaced', 152.5, true, 152.5],
      ]),
    );

    const guest = await fetchAuction(server, auctionId);
    expect(guest).toMatchObject({ currentBid: 152.5, leadingBidId: first.newBid._id });
    expect(guest.viewer).toBeUndefined();
    expect(guest.bids.map((b) => [b.amount, b.automatic ?? false])).toEqual([
      [152.5, true],
      [150, false],
    ]);
    expect((await detailAs(alice, auctionId)).viewer).toMatchObject({ maxBid: 377.77 });
    expect((await detailAs(bob, auctionId)).viewer).toMatchObject({ maxBid: 150 });

    // Alice's maximum shows nowhere but in her own view: not to guests, Bob, the seller or watchers.
    for (const seen of [
      guest,
      await detailAs(bob, auctionId),
      await detailAs(seller, auctionId),
      watcher.heard,
    ])
      expect(JSON.stringify(seen)).not.toMatch(/377\.77|37777/);
  });

  it("bid one dollar over the rival's maximum on an auction created with the default rule", async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    const first = await placeBid(alice, auctionId, 100, 377.77);
    expect(await placeBid(bob, auctionId, 150)).toMatchObject({ leading: false, currentBid: 151 });
    const higher = await placeBid(bob, auctionId, 152, 1000);
    expect(higher).toMatchObject({ leading: true, currentBid: 378.77 });
    expect(await fetchAuction(server, auctionId)).toMatchObject({
      increments: 'one-dollar',
      currentBid: 378.77,
      leadingBidId: higher.newBid._id,
    });
    expect(first.newBid._id).not.toBe(higher.newBid._id);
  });

  it('answers an edit with the bid as the auction then shows it: automatic only when the edit called an automatic bid for it', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    const alices = await placeBid(alice, auctionId, 100, 300);
    // Alice's maximum answers Bob at once: an automatic bid sets her amount.
    const bobs = await placeBid(bob, auctionId, 150);
    const edit = async (user: TestUser, bidId: string, json: object) => {
      const res = await user.client.put(`/api/v1/bid/editBid/${bidId}`, { json });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { updatedBid: BidView; currentBid: number; maxBid: number };
    };
    const shown = async (bidId: string) =>
      (await fetchAuction(server, auctionId)).bids.find((b) => b._id === bidId);

    // Her own raise sets it now.
    const raised = await edit(alice, alices.newBid._id, { bidAmount: 200 });
    expect(raised).toMatchObject({ currentBid: 200, maxBid: 300, updatedBid: { amount: 200 } });
    expect(raised.updatedBid.automatic).toBeUndefined();
    expect(raised.updatedBid).toEqual(await shown(alices.newBid._id));
    // Bob's new maximum outranks hers: the automatic bid it calls for sets his amount.
    const answered = await edit(bob, bobs.newBid._id, { maxBidAmount: 500 });
    expect(answered).toMatchObject({
      currentBid: 301,
      maxBid: 500,
      updatedBid: { amount: 301, automatic: true },
    });
    expect(answered.updatedBid).toEqual(await shown(bobs.newBid._id));
  });

  it('lets the leader raise the maximum privately: the price stays, watchers hear nothing of it', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    const placed = await placeBid(alice, auctionId, 100, 200);
    const watcher = await connect(server);
    await watch(watcher, { auctionId, afterRevision: placed.revision });

    const res = await alice.client.put(`/api/v1/bid/editBid/${placed.newBid._id}`, {
      json: { maxBidAmount: 654.32 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ leading: true, maxBid: 654.32, currentBid: 100 });
    await eventually(() =>
      expect(auctionEvents(watcher, auctionId).map((e) => e.payload.type)).toEqual(['Revision']),
    );
    expect(JSON.stringify(watcher.heard)).not.toMatch(/654\.32|65432/);
    expect(await fetchAuction(server, auctionId)).toMatchObject({ currentBid: 100 });

    // The seller's audit shows visible prices only; an auditor's shows the maxima as stored.
    const sellers = await auditEvents(seller, auctionId);
    expect(JSON.stringify(sellers.map((e) => e.data))).not.toMatch(/65432|"maxAmount"/);
    expect(sellers.find((e) => e.type === 'BidMaximumRaised')?.redacted).toEqual([
      'maxAmount',
      'previousMaxAmount',
    ]);
    const auditors = await auditEvents(auditor, auctionId);
    expect(auditors.find((e) => e.type === 'BidMaximumRaised')?.data).toMatchObject({
      maxAmount: 65_432,
      previousMaxAmount: 20_000,
    });
  });

  it('refuses a maximum under the bid, and an edit that names neither, changing nothing', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    const below = await alice.client.post('/api/v1/bid/placeBid', {
      json: { productId: auctionId, bidAmount: 120, maxBidAmount: 110 },
    });
    expect(below.status).toBe(400);
    expect(below.body).toMatchObject({ message: 'Your maximum must be at least your bid' });
    const placed = await placeBid(alice, auctionId, 100);
    const empty = await alice.client.put(`/api/v1/bid/editBid/${placed.newBid._id}`, { json: {} });
    expect(empty.status).toBe(400);
    expect(await fetchAuction(server, auctionId)).toMatchObject({ currentBid: 100, bidCount: 1 });
  });
});

describe('reserve price', () => {
  it('shows whether it is met, never its amount, and tells only the seller the amount', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      reservePrice: 432.1,
    });
    expect(await fetchAuction(server, auctionId)).toMatchObject({ reserve: 'not-met' });
    expect((await detailAs(seller, auctionId)).viewer).toMatchObject({ reservePrice: 432.1 });
    await placeBid(alice, auctionId, 100, 500);
    // Alice's maximum reaches the reserve: her bid jumps to it.
    const after = await fetchAuction(server, auctionId);
    expect(after).toMatchObject({ reserve: 'met', currentBid: 432.1 });
    expect(JSON.stringify(await detailAs(bob, auctionId))).not.toMatch(/"reservePrice":4/);
  });

  it('refuses a reserve under the starting price with the rule in words', async () => {
    const res = await seller.client.post('/api/v1/auction/createAuction', {
      json: {
        title: 'Clock',
        description: 'Brass',
        category: 'antiques',
        startingPrice: 200,
        reservePrice: 150,
        auctionDate: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      message: 'The reserve price must be at least the starting price',
    });
  });
});

describe('Buy It Now', () => {
  it('sells at once to the buyer at the price on offer, and is gone once sold', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      buyNowPrice: 250,
    });
    expect(await fetchAuction(server, auctionId)).toMatchObject({ buyNowPrice: 250 });
    const changed = await bob.client.post('/api/v1/bid/buyNow', {
      json: { productId: auctionId, price: 240 },
    });
    expect(changed.status).toBe(409);
    expect(changed.body).toEqual({
      success: false,
      message: 'The Buy It Now price has changed to $250.00',
    });

    const bought = await bob.client.post('/api/v1/bid/buyNow', {
      json: { productId: auctionId, price: 250 },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    // Answered once the catalog has it: the next read shows the sale.
    expect(await fetchAuction(server, auctionId)).toMatchObject({
      status: 'Sold',
      boughtNow: true,
      finalPrice: 250,
      buyNowPrice: null,
      winner: { firstName: 'Bob' },
    });
    const again = await alice.client.post('/api/v1/bid/buyNow', {
      json: { productId: auctionId, price: 250 },
    });
    expect(again.status).toBe(409);
  });

  it('tells the buyer who loses the race, and every bid after it, that it sold with Buy It Now', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      reservePrice: 300,
      buyNowPrice: 500,
    });
    const standing = await placeBid(alice, auctionId, 120);
    const race = await Promise.all(
      [alice, bob].map((buyer) =>
        buyer.client.post('/api/v1/bid/buyNow', { json: { productId: auctionId, price: 500 } }),
      ),
    );
    expect(race.map((res) => res.status).sort()).toEqual([201, 409]);
    const soldWithBuyNow = { success: false, message: 'This auction was sold with Buy It Now' };
    expect(race.find((res) => res.status === 409)?.body).toEqual(soldWithBuyNow);

    const after = [
      await bob.client.post('/api/v1/bid/placeBid', {
        json: { productId: auctionId, bidAmount: 600 },
      }),
      await alice.client.put(`/api/v1/bid/editBid/${standing.newBid._id}`, {
        json: { bidAmount: 600 },
      }),
      await alice.client.delete(`/api/v1/bid/deleteBid/${standing.newBid._id}`),
    ];
    for (const res of after) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual(soldWithBuyNow);
    }
  });

  it('disappears with the first bid when there is no reserve', async () => {
    const auctionId = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      buyNowPrice: 250,
    });
    await placeBid(alice, auctionId, 100);
    expect(await fetchAuction(server, auctionId)).toMatchObject({ buyNowPrice: null });
    const res = await bob.client.post('/api/v1/bid/buyNow', {
      json: { productId: auctionId, price: 250 },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      message: 'Buy It Now is no longer available for this auction',
    });
  });
});
