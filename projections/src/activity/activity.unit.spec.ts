import { afterEach, describe, expect, it } from 'vitest';
import { HistoryEntry, ProfileStatistics, RecentActivity } from '@auction/contracts';
import { catalogProjection } from '../catalog/index';
import type { ReadStore } from '../read-store/read-store';
import type { Projection } from '../runner/projection';
import { EventLog, T0, iso } from '../testing/event-log';
import { projectionHarness, expectSameOnceAndTwice } from '../testing/harness';
import {
  activityAuctions,
  activityHistory,
  activityProfiles,
  activityProjection,
  userHistory,
  userProfile,
} from './index';
import type { HistoryOptions } from './index';

type Harness = Awaited<ReturnType<typeof projectionHarness>>;

const SELLER = 'seller';
const MINUTE = 60_000;
const END = T0 + 86_400_000;

const open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** The views join each entry's auction from the catalog: both read models run by default. */
const harness = async (
  projections: readonly Projection[] = [catalogProjection, activityProjection],
): Promise<Harness> => {
  const h = await projectionHarness(projections);
  open.push(h);
  return h;
};

const history = async (
  store: ReadStore,
  userId: string,
  options?: HistoryOptions,
): Promise<HistoryEntry[]> => {
  const entries = await userHistory(store, userId, options);
  expect(HistoryEntry.array().parse(entries)).toEqual(entries);
  return entries;
};

const profile = async (store: ReadStore, userId: string) => {
  const view = await userProfile(store, userId);
  expect(ProfileStatistics.parse(view.statistics)).toEqual(view.statistics);
  expect(RecentActivity.array().parse(view.recentActivity)).toEqual(view.recentActivity);
  return view;
};

const statusOf = async (store: ReadStore, userId: string, entryId: string) =>
  (await history(store, userId)).find((entry) => entry.id === entryId)?.status;

const counters = (changes: Partial<ProfileStatistics> = {}): ProfileStatistics => ({
  totalAuctions: 0,
  totalWinnings: 0,
  totalBids: 0,
  totalWinningsValue: 0,
  watchListCount: 0,
  activeAuctions: 0,
  completedAuctions: 0,
  ...changes,
});

describe('activity projection: what it keeps of an auction', () => {
  it("keeps only each auction's seller, written when it is created: bids, edits and closes write none", async () => {
    const log = new EventLog();
    const h = await harness([activityProjection]);
    const [created] = log.create('a1');
    await h.given([
      ...log.events,
      ...log.edit('a1', { title: 'Renamed', startingPrice: 20_000 }),
      ...log.bid('a1', 'ann', 20_000, T0 + MINUTE, 'b1'),
      ...log.bid('a1', 'bob', 21_000, T0 + 2 * MINUTE, 'b2'),
      ...log.editBid('a1', 'ann', 'b1', 30_000, T0 + 3 * MINUTE),
      ...log.retract('a1', 'ann', 'b1', T0 + 4 * MINUTE),
      ...log.close('a1'),
    ]);
    expect((await h.dump())[activityAuctions.name]).toEqual([
      { _id: 'a1', _position: created?.position, sellerId: SELLER },
    ]);
  });

  it("reads an auction's document written by earlier versions, with the catalog's facts copied in it", async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given(log.create('a1'));
    await h.store.upsert(activityAuctions.name, {
      _id: 'a1',
      _position: 1,
      sellerId: SELLER,
      title: 'Stale copy',
      image: '/uploads/stale.png',
      startingPrice: 10_000,
      status: 'Live',
      leadingBidId: null,
      winningBidId: null,
      winnerId: null,
      finalPrice: null,
      closedAt: null,
    });
    await h.given([...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1'), ...log.close('a1')]);
    expect((await profile(h.store, SELLER)).statistics).toEqual(
      counters({ totalAuctions: 1, completedAuctions: 1 }),
    );
    const [won] = await history(h.store, 'ann', { type: 'won' });
    expect(won).toMatchObject({ title: 'Item a1', image: null, status: 'completed' });
  });
});

describe('activity projection: history status', () => {
  it('a created entry is active while Live, completed once Sold', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given(log.create('a1'));
    expect(await history(h.store, SELLER)).toEqual([
      {
        id: 'created:a1',
        type: 'created',
        auctionId: 'a1',
        title: 'Item a1',
        image: null,
        amount: 100,
        status: 'active',
        date: iso(T0),
      },
    ]);
    await h.given([...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1'), ...log.close('a1')]);
    expect(await statusOf(h.store, SELLER, 'created:a1')).toBe('completed');
  });

  it('a created entry is completed once Expired and cancelled once Cancelled', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([...log.create('a1'), ...log.create('a2')]);
    await h.given([...log.close('a1'), ...log.cancel('a2')]);
    expect(await statusOf(h.store, SELLER, 'created:a1')).toBe('completed');
    expect(await statusOf(h.store, SELLER, 'created:a2')).toBe('cancelled');
  });

  it('a bid is active while leading, outbid when topped, active again when the top bid is retracted, completed when it wins', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([...log.create('a1'), ...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1')]);
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('active');

    await h.given(log.bid('a1', 'bob', 11_000, T0 + 2 * MINUTE, 'b2'));
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('outbid');
    expect(await statusOf(h.store, 'bob', 'bid:b2')).toBe('active');

    await h.given(log.retract('a1', 'bob', 'b2', T0 + 3 * MINUTE));
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('active');
    expect(await statusOf(h.store, 'bob', 'bid:b2')).toBe('retracted');

    await h.given(log.close('a1'));
    expect(await history(h.store, 'ann')).toEqual([
      {
        id: 'won:a1',
        type: 'won',
        auctionId: 'a1',
        title: 'Item a1',
        image: null,
        amount: 100,
        status: 'completed',
        date: iso(END),
      },
      {
        id: 'bid:b1',
        type: 'bid',
        auctionId: 'a1',
        title: 'Item a1',
        image: null,
        amount: 100,
        status: 'completed',
        date: iso(T0 + MINUTE),
      },
    ]);
    expect(await statusOf(h.store, 'bob', 'bid:b2')).toBe('retracted');
  });

  it('a bid that loses is lost once the auction closes; the winning one is completed', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([
      ...log.create('a1'),
      ...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1'),
      ...log.bid('a1', 'bob', 12_000, T0 + 2 * MINUTE, 'b2'),
      ...log.close('a1'),
    ]);
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('lost');
    expect(await statusOf(h.store, 'bob', 'bid:b2')).toBe('completed');
    expect(await statusOf(h.store, 'bob', 'won:a1')).toBe('completed');
    expect(await statusOf(h.store, 'ann', 'won:a1')).toBeUndefined();
  });

  it('bids on an auction that closed without a sale (reserve not met) are lost', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([
      ...log.create('a1', { reservePrice: 50_000 }),
      ...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1'),
      ...log.bid('a1', 'bob', 12_000, T0 + 2 * MINUTE, 'b2'),
    ]);
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('outbid');
    await h.given(log.close('a1'));
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('lost');
    expect(await statusOf(h.store, 'bob', 'bid:b2')).toBe('lost');
  });

  it('bids on a cancelled auction are cancelled, a retracted one stays retracted', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([
      ...log.create('a1'),
      ...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1'),
      ...log.bid('a1', 'bob', 11_000, T0 + 2 * MINUTE, 'b2'),
      ...log.retract('a1', 'bob', 'b2', T0 + 3 * MINUTE),
      ...log.cancel('a1'),
    ]);
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('cancelled');
    expect(await statusOf(h.store, 'bob', 'bid:b2')).toBe('retracted');
  });

  it('an auction whose only bid was retracted expires with the bid still retracted', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([
      ...log.create('a1'),
      ...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1'),
      ...log.retract('a1', 'ann', 'b1', T0 + 2 * MINUTE),
      ...log.close('a1'),
    ]);
    expect(await statusOf(h.store, 'ann', 'bid:b1')).toBe('retracted');
    expect(await statusOf(h.store, SELLER, 'created:a1')).toBe('completed');
    expect(await history(h.store, 'ann', { type: 'won' })).toEqual([]);
  });
});

describe('activity projection: edits', () => {
  it("an edit of the auction's title and image shows in every entry", async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([...log.create('a1'), ...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1')]);
    expect((await history(h.store, 'ann'))[0]?.title).toBe('Item a1');
    await h.given([
      ...log.edit(
        'a1',
        { title: 'Brass lamp', image: '/uploads/lamp.png' },
        SELLER,
        T0 + 2 * MINUTE,
      ),
      ...log.close('a1'),
    ]);
    const shown = [...(await history(h.store, SELLER)), ...(await history(h.store, 'ann'))];
    expect(shown.map((entry) => entry.id).sort()).toEqual(['bid:b1', 'created:a1', 'won:a1']);
    for (const entry of shown) {
      expect(entry.title).toBe('Brass lamp');
      expect(entry.image).toBe('/uploads/lamp.png');
    }
  });

  it("an edit of the starting price changes the created entry's amount", async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([...log.create('a1'), ...log.edit('a1', { startingPrice: 25_050 })]);
    expect((await history(h.store, SELLER))[0]?.amount).toBe(250.5);
  });

  it('an edit of a bid changes its amount, not the bid count, and it leads again', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([
      ...log.create('a1'),
      ...log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1'),
      ...log.bid('a1', 'bob', 11_000, T0 + 2 * MINUTE, 'b2'),
    ]);
    await h.given(log.editBid('a1', 'ann', 'b1', 12_345, T0 + 3 * MINUTE));
    const [entry] = await history(h.store, 'ann');
    expect(entry).toMatchObject({ id: 'bid:b1', amount: 123.45, status: 'active' });
    expect(entry?.date).toBe(iso(T0 + MINUTE));
    expect(await statusOf(h.store, 'bob', 'bid:b2')).toBe('outbid');
    expect((await profile(h.store, 'ann')).statistics.totalBids).toBe(1);
  });
});

describe('activity queries: history filter and limit', () => {
  it('filters by type, newest first', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([
      ...log.create('a1', { at: T0 }),
      ...log.create('mine', { seller: 'ann', at: T0 + MINUTE }),
      ...log.bid('a1', 'ann', 10_000, T0 + 2 * MINUTE, 'b1'),
      ...log.bid('a1', 'ann', 10_500, T0 + 3 * MINUTE, 'b2'),
      ...log.close('a1'),
    ]);
    const ids = async (options?: HistoryOptions) =>
      (await history(h.store, 'ann', options)).map((entry) => entry.id);
    expect(await ids()).toEqual(['won:a1', 'bid:b2', 'bid:b1', 'created:mine']);
    expect(await ids({ type: 'all' })).toEqual(await ids());
    expect(await ids({ type: 'created' })).toEqual(['created:mine']);
    expect(await ids({ type: 'won' })).toEqual(['won:a1']);
    expect(await ids({ type: 'bid' })).toEqual(['bid:b2', 'bid:b1']);
    expect(await ids({ type: 'bid', limit: 1 })).toEqual(['bid:b2']);
  });

  it('returns the 20 newest entries by default, and as many as the limit asks', async () => {
    const log = new EventLog();
    const h = await harness();
    const events = log.create('a1');
    for (let n = 1; n <= 25; n += 1) {
      events.push(...log.bid('a1', 'ann', 10_000 + n * 500, T0 + n * MINUTE, `b${n}`));
    }
    await h.given(events);
    const all = await history(h.store, 'ann');
    expect(all.map((entry) => entry.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `bid:b${25 - i}`),
    );
    expect(all[0]).toMatchObject({ amount: 225, status: 'active' });
    expect(all[1]).toMatchObject({ amount: 220, status: 'outbid' });
    expect(await history(h.store, 'ann', { limit: 3 })).toEqual(all.slice(0, 3));
    expect(await history(h.store, 'ann', { limit: 30 })).toHaveLength(25);
  });

  it('a user with no activity has an empty history', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given(log.create('a1'));
    expect(await history(h.store, 'nobody')).toEqual([]);
  });
});

describe('activity queries: profile', () => {
  it('counts auctions, bids and winnings for seller, bidders and winner', async () => {
    const log = new EventLog();
    const h = await harness();
    await h.given([
      ...log.create('sold'),
      ...log.create('expired'),
      ...log.create('cancelled'),
      ...log.create('live', { endsAt: iso(END + 86_400_000) }),
    ]);
    expect((await profile(h.store, SELLER)).statistics).toEqual(
      counters({ totalAuctions: 4, activeAuctions: 4 }),
    );

    await h.given([
      ...log.bid('sold', 'ann', 10_000, T0 + MINUTE, 'b1'),
      ...log.bid('sold', 'bob', 15_025, T0 + 2 * MINUTE, 'b2'),
      ...log.editBid('sold', 'bob', 'b2', 20_050, T0 + 3 * MINUTE),
      ...log.bid('cancelled', 'ann', 10_000, T0 + 4 * MINUTE, 'b3'),
      ...log.bid('live', 'ann', 10_000, T0 + 5 * MINUTE, 'b4'),
      ...log.retract('live', 'ann', 'b4', T0 + 6 * MINUTE),
      ...log.cancel('cancelled'),
      ...log.close('sold'),
      ...log.close('expired'),
    ]);
    expect((await profile(h.store, SELLER)).statistics).toEqual(
      counters({ totalAuctions: 4, activeAuctions: 1, completedAuctions: 2 }),
    );
    expect((await profile(h.store, 'ann')).statistics).toEqual(counters({ totalBids: 3 }));
    expect((await profile(h.store, 'bob')).statistics).toEqual(
      counters({ totalBids: 1, totalWinnings: 1, totalWinningsValue: 200.5 }),
    );
  });

  it('a user with no activity has zero statistics and no recent activity', async () => {
    const h = await harness();
    expect(await profile(h.store, 'nobody')).toEqual({
      statistics: counters(),
      recentActivity: [],
    });
  });

  it('recent activity is the 5 newest bids, in dollars, with the current title', async () => {
    const log = new EventLog();
    const h = await harness();
    const events = [...log.create('a1'), ...log.create('a2', { title: 'Clock' })];
    for (let n = 1; n <= 7; n += 1) {
      const auctionId = n % 2 === 0 ? 'a2' : 'a1';
      events.push(...log.bid(auctionId, 'ann', 10_000 + n * 511, T0 + n * MINUTE, `b${n}`));
    }
    events.push(...log.edit('a2', { title: 'Wall clock' }, SELLER, T0 + 8 * MINUTE));
    await h.given(events);
    const { recentActivity } = await profile(h.store, 'ann');
    expect(recentActivity).toEqual(
      [7, 6, 5, 4, 3].map((n) => ({
        _id: `b${n}`,
        product: n % 2 === 0 ? { _id: 'a2', title: 'Wall clock' } : { _id: 'a1', title: 'Item a1' },
        amount: (10_000 + n * 511) / 100,
        createdAt: iso(T0 + n * MINUTE),
      })),
    );
  });
});

describe('activity projection: redelivery and foreign events', () => {
  const histories: [string, (log: EventLog) => void][] = [
    [
      'a close with a winner',
      (log) => {
        log.create('a1');
        log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1');
        log.bid('a1', 'bob', 11_000, T0 + 2 * MINUTE, 'b2');
        log.close('a1');
      },
    ],
    [
      'edits, retractions, a cancel and an expiry',
      (log) => {
        log.create('a1');
        log.create('a2', { seller: 'ann' });
        log.create('a3');
        log.edit('a1', { title: 'Renamed', startingPrice: 20_000 });
        log.bid('a1', 'ann', 20_000, T0 + MINUTE, 'b1');
        log.bid('a2', 'bob', 10_000, T0 + MINUTE, 'b2');
        log.bid('a1', 'bob', 21_000, T0 + 2 * MINUTE, 'b3');
        log.editBid('a1', 'ann', 'b1', 30_000, T0 + 3 * MINUTE);
        log.retract('a1', 'ann', 'b1', T0 + 4 * MINUTE);
        log.cancel('a2', 'seller', 'ann');
        log.close('a1');
        log.close('a3');
      },
    ],
  ];

  it.each(histories)('delivering every event twice changes nothing: %s', async (_, write) => {
    const log = new EventLog();
    write(log);
    const expected = await expectSameOnceAndTwice([activityProjection], log.events);
    expect(expected[activityHistory.name]?.length).toBeGreaterThan(0);
  });

  it('events of other streams change nothing', async () => {
    const log = new EventLog();
    log.create('a1');
    log.bid('a1', 'ann', 10_000, T0 + MINUTE, 'b1');
    const h = await harness([activityProjection]);
    await h.given(log.events);
    const before = await h.dump();
    await h.given([
      log.category('antiques', 'Antiques'),
      log.append('user-ann', 'UserRegistered', { userId: 'ann', at: iso(T0) }),
      log.append('auction-a1', 'AuctionWatched', { auctionId: 'a1', at: iso(T0) }),
    ]);
    expect(await h.dump()).toEqual(before);

    const empty = await harness([activityProjection]);
    await empty.given(log.events.slice(2));
    expect(await empty.dump()).toEqual({
      [activityAuctions.name]: [],
      [activityHistory.name]: [],
      [activityProfiles.name]: [],
    });
  });
});
