import type { AuctionView } from '@auction/contracts';
import { systemClock } from '@auction/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestUser,
  createAuctionOverHttp,
  fetchAuction,
  placeBid,
  signUpAndLogIn,
} from '../../../testing/fixtures';
import { type TestServer, startTestServer } from '../../../testing/test-server';

/**
 * Deleting one's own bid (a retraction) against a real server, as the attacks of issue 27 tried
 * it: probing a rival's secret maximum or the reserve by bidding and retracting, repeating it,
 * and holding a soft close open. Each retraction the rules refuse leaves the bid standing.
 */
let server: TestServer;
let shift = 0;
let seller: TestUser;

beforeAll(async () => {
  server = await startTestServer({}, { clock: { ...systemClock, now: () => Date.now() + shift } });
  seller = await signUpAndLogIn(server, { firstName: 'Sally', lastName: 'Seller' });
});
afterEach(() => {
  shift = 0;
});
afterAll(() => server.cleanup());

const bidder = (firstName: string) => signUpAndLogIn(server, { firstName, lastName: 'Bidder' });

const retract = (user: TestUser, bidId: string) =>
  user.client.delete(`/api/v1/bid/deleteBid/${bidId}`);

const refusal = (message: string) => ({ status: 409, body: { success: false, message } });
const ANSWERED =
  'This bid can no longer be deleted: an automatic bid raised it, or it extended the auction';
const ONCE = 'You have already deleted a bid on this auction; you can delete only one';
const LAST_HOUR = 'Bids cannot be deleted in the last hour of an auction';
const GRACE = 'A bid can be deleted only within 5 minutes of placing or raising it';

const detail = (auctionId: string): Promise<AuctionView> => fetchAuction(server, auctionId);
const standing = (view: AuctionView) => view.bids.map((b) => [b.bidder.firstName, b.amount]);

describe("a rival's secret maximum", () => {
  it('costs the prober: the bid its answer raised stays bound at that price', async () => {
    const [alice, bob] = await Promise.all([bidder('Alice'), bidder('Bob')]);
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    await placeBid(alice, auctionId, 100, 537.37);

    const probe = await placeBid(bob, auctionId, 102.5, 1e9);
    // The answer shows Alice's maximum plus one step (of the auction's increment rule).
    expect(probe.leading).toBe(true);
    expect([538.37, 547.37]).toContain(probe.currentBid);

    expect(await retract(bob, probe.newBid._id)).toMatchObject(refusal(ANSWERED));
    const after = await detail(auctionId);
    expect(after).toMatchObject({ currentBid: probe.currentBid, leadingBidId: probe.newBid._id });
    expect(standing(after)).toEqual([
      ['Bob', probe.currentBid],
      ['Alice', 100],
    ]);
    expect(after.retractions).toEqual([]);
  });

  it('cannot be walked up to by a second account that then escapes', async () => {
    const [alice, shill] = await Promise.all([bidder('Alice'), bidder('Shill')]);
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    await placeBid(alice, auctionId, 100, 537.37);

    // Each plain bid under her maximum is answered at once and raises her price...
    const walk = await placeBid(shill, auctionId, 500);
    expect(walk.leading).toBe(false);
    // ...and once answered, the shill can take back neither that bid nor the one that overshoots.
    const overshoot = await placeBid(shill, auctionId, 600);
    expect(overshoot.leading).toBe(true);
    expect(await retract(shill, overshoot.newBid._id)).toMatchObject(refusal(ANSWERED));
    expect(await retract(shill, walk.newBid._id)).toMatchObject(refusal(ANSWERED));
    expect((await detail(auctionId)).currentBid).toBe(600);
  });
});

describe('the reserve', () => {
  it('takes more than one probe per account: a second retraction is refused, the bid stands', async () => {
    const prober = await bidder('Probe');
    const auctionId = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      reservePrice: 4321.09,
    });
    const low = await placeBid(prober, auctionId, 100);
    expect(await detail(auctionId)).toMatchObject({ reserve: 'not-met' });
    expect((await retract(prober, low.newBid._id)).status).toBe(200);

    const high = await placeBid(prober, auctionId, 5000);
    expect(await detail(auctionId)).toMatchObject({ reserve: 'met', currentBid: 5000 });
    expect(await retract(prober, high.newBid._id)).toMatchObject(refusal(ONCE));
    const after = await detail(auctionId);
    expect(after).toMatchObject({ reserve: 'met', currentBid: 5000 });
    expect(after.retractions.map((r) => [r._id, r.bidder.firstName, r.amount])).toEqual([
      [low.newBid._id, 'Probe', 100],
    ]);
  });

  it('binds a maximum that lifted the bid to the reserve', async () => {
    const prober = await bidder('Probe');
    const auctionId = await createAuctionOverHttp(seller.client, {
      startingPrice: 100,
      reservePrice: 4321.09,
    });
    const probe = await placeBid(prober, auctionId, 100, 1_000_000);
    expect(probe.currentBid).toBe(4321.09);
    expect(await retract(prober, probe.newBid._id)).toMatchObject(refusal(ANSWERED));
    expect(await detail(auctionId)).toMatchObject({ reserve: 'met', currentBid: 4321.09 });
  });
});

describe('bid-and-retract in a row', () => {
  it('accepts only the first of 30 retractions; every later bid stands', async () => {
    const cycler = await bidder('Cycler');
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    const statuses: number[] = [];
    let amount = 100;
    let last = '';
    for (let cycle = 0; cycle < 30; cycle++) {
      last = (await placeBid(cycler, auctionId, amount)).newBid._id;
      const res = await retract(cycler, last);
      statuses.push(res.status);
      if (cycle > 0) expect(res).toMatchObject(refusal(ONCE));
      // The starting price while no bid stands; then a raise of $2.50, enough under either
      // increment rule at these prices.
      const { currentBid } = await detail(auctionId);
      amount = currentBid === 0 ? 100 : currentBid + 2.5;
    }
    expect(statuses).toEqual([200, ...Array<number>(29).fill(409)]);
    const after = await detail(auctionId);
    expect(after.bidCount).toBe(29);
    expect(after.leadingBidId).toBe(last);
    expect(after.retractions).toHaveLength(1);
  }, 60_000);
});

describe('soft close', () => {
  it('cannot be held open by a bid that is then retracted: the retraction is refused', async () => {
    const holder = await bidder('Holder');
    const auctionId = await createAuctionOverHttp(seller.client, {
      endsInMs: 8_000,
      softClose: true,
    });
    const before = await detail(auctionId);
    const placed = await placeBid(holder, auctionId, 100);
    const moved = placed.auctionEndTime ?? '';
    expect(Date.parse(moved)).toBeGreaterThan(Date.parse(before.auctionEndTime));

    expect(await retract(holder, placed.newBid._id)).toMatchObject(refusal(LAST_HOUR));
    // The bid that moved the end stands, binding: only such a bid extends an auction.
    const after = await detail(auctionId);
    expect(after).toMatchObject({ auctionEndTime: moved, extended: true, currentBid: 100 });
    expect(after.bids.map((b) => b._id)).toEqual([placed.newBid._id]);
    expect(after.retractions).toEqual([]);
  });

  it('keeps a bid that moved the end binding even once the seller pushes the end away', async () => {
    const holder = await bidder('Holder');
    const auctionId = await createAuctionOverHttp(seller.client, {
      endsInMs: 8_000,
      softClose: true,
    });
    const placed = await placeBid(holder, auctionId, 100);
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const edit = await seller.client.patch(`/api/v1/auction/editAuction/${auctionId}`, {
      json: { auctionEndTime: later },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await retract(holder, placed.newBid._id)).toMatchObject(refusal(ANSWERED));
  });
});

describe('the five minutes of grace', () => {
  it('let a bidder take back a typo at once, and not once they have passed', async () => {
    const [typo, late] = await Promise.all([bidder('Typo'), bidder('Late')]);
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    const slip = await placeBid(typo, auctionId, 1000);
    expect((await retract(typo, slip.newBid._id)).status).toBe(200);
    expect((await detail(auctionId)).currentBid).toBe(0);

    const kept = await placeBid(late, auctionId, 100);
    shift = 5 * 60_000 + 1000;
    expect(await retract(late, kept.newBid._id)).toMatchObject(refusal(GRACE));
    expect((await detail(auctionId)).bids.map((b) => b._id)).toEqual([kept.newBid._id]);
  });
});

describe('account deletion', () => {
  it('takes back even a bid the rules bind, and shows it retracted', async () => {
    const [alice, leaver] = await Promise.all([bidder('Alice'), bidder('Leaver')]);
    const auctionId = await createAuctionOverHttp(seller.client, { startingPrice: 100 });
    await placeBid(alice, auctionId, 100, 537.37);
    const bound = await placeBid(leaver, auctionId, 102.5, 1e9);
    expect(await retract(leaver, bound.newBid._id)).toMatchObject(refusal(ANSWERED));

    const deleted = await leaver.client.delete('/api/v1/user/delete-account');
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const after = await detail(auctionId);
    expect(after.bids.map((b) => b.bidder.firstName)).toEqual(['Alice']);
    expect(after.retractions.map((r) => [r._id, r.bidder.firstName])).toEqual([
      [bound.newBid._id, 'Deleted'],
    ]);
  });
});
