import { afterEach, describe, expect, it } from 'vitest';
import { WinningItem, WinningsStatistics } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import { EventLog, T0, iso } from '../testing/event-log';
import { projectionHarness, expectSameOnceAndTwice } from '../testing/harness';
import { userWinnings } from './winnings-queries';
import { winningsProjection } from './winnings-projection';

type Harness = Awaited<ReturnType<typeof projectionHarness>>;
const open: Harness[] = [];
const harness = async (): Promise<Harness> => {
  const h = await projectionHarness([winningsProjection]);
  open.push(h);
  return h;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

const endingAfter = (days: number) => iso(T0 + days * DAY_MS);

/** Antiques exists; "watch" sells to bob for $150 (starting $100), closing after one day. */
const oneSale = (): EventLog => {
  const log = new EventLog();
  log.category('antiques', 'Antiques');
  log.create('watch', {
    title: 'Vintage watch',
    description: 'A 1950s wristwatch',
    image: '/uploads/watch.png',
    startingPrice: 10_000,
    endsAt: endingAfter(1),
  });
  log.bid('watch', 'alice', 12_000);
  log.bid('watch', 'bob', 15_000);
  log.close('watch');
  return log;
};

const winningsOf = async (h: Harness, userId: string) => {
  const result = await userWinnings(h.store, h.users, userId);
  expect(result.winnings.map((item) => WinningItem.parse(item))).toStrictEqual(result.winnings);
  expect(WinningsStatistics.parse(result.statistics)).toStrictEqual(result.statistics);
  return result;
};

describe('winnings projection', () => {
  it('gives a user who won nothing no items and zero statistics', async () => {
    const h = await harness();
    await h.given(oneSale().events);

    expect(await winningsOf(h, 'carol')).toEqual({
      winnings: [],
      statistics: { totalItems: 0, totalValue: 0, totalSavings: 0, averageSavings: 0 },
    });
  });

  it('shows one won item with its seller, category and savings (original minus final)', async () => {
    const h = await harness();
    await h.users.save({
      _id: 'seller',
      firstName: 'Sam',
      lastName: 'Seller',
      imageUrl: '/uploads/sam.png',
    });
    await h.given(oneSale().events);

    expect(await winningsOf(h, 'bob')).toEqual({
      winnings: [
        {
          id: 'watch',
          title: 'Vintage watch',
          description: 'A 1950s wristwatch',
          image: { url: '/uploads/watch.png' },
          finalPrice: 150,
          originalPrice: 100,
          wonDate: endingAfter(1),
          category: 'Antiques',
          categoryId: 'antiques',
          seller: 'Sam Seller',
          sellerId: 'seller',
        },
      ],
      statistics: { totalItems: 1, totalValue: 150, totalSavings: -50, averageSavings: -50 },
    });
  });

  it('lists two wins newest first and sums their statistics', async () => {
    const h = await harness();
    const log = oneSale();
    log.create('lamp', { title: 'Brass lamp', startingPrice: 20_000, endsAt: endingAfter(3) });
    log.bid('lamp', 'bob', 20_010);
    log.close('lamp');
    await h.given(log.events);

    const { winnings, statistics } = await winningsOf(h, 'bob');
    expect(winnings.map((item) => [item.id, item.finalPrice, item.originalPrice])).toEqual([
      ['lamp', 200.1, 200],
      ['watch', 150, 100],
    ]);
    expect(statistics).toEqual({
      totalItems: 2,
      totalValue: 350.1,
      totalSavings: -50.1,
      averageSavings: -25.05,
    });
  });

  it('rounds the average savings to cents', async () => {
    const h = await harness();
    const log = new EventLog();
    for (const [id, amount] of [
      ['a', 10_001],
      ['b', 10_001],
      ['c', 10_000],
    ] as const) {
      log.create(id);
      log.bid(id, 'bob', amount);
      log.close(id);
    }
    await h.given(log.events);

    expect((await winningsOf(h, 'bob')).statistics).toEqual({
      totalItems: 3,
      totalValue: 300.02,
      totalSavings: -0.02,
      averageSavings: -0.01,
    });
  });

  it('gives losers nothing, and expired or cancelled auctions nothing to anyone', async () => {
    const h = await harness();
    const log = oneSale();
    log.create('vase');
    log.close('vase');
    log.create('clock');
    log.bid('clock', 'carol', 10_000);
    log.cancel('clock');
    await h.given(log.events);

    expect((await winningsOf(h, 'alice')).winnings).toEqual([]);
    expect((await winningsOf(h, 'carol')).winnings).toEqual([]);
    expect((await winningsOf(h, 'seller')).winnings).toEqual([]);
    expect(await h.store.count('winnings_items')).toBe(1);
  });

  it('goes to the highest standing bid when the leader retracted', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch');
    log.bid('watch', 'alice', 12_000);
    log.bid('watch', 'bob', 15_000, T0 + 1000, 'bob-bid');
    log.retract('watch', 'bob', 'bob-bid');
    log.close('watch');
    await h.given(log.events);

    expect((await winningsOf(h, 'bob')).winnings).toEqual([]);
    expect((await winningsOf(h, 'alice')).winnings.map((item) => item.finalPrice)).toEqual([120]);
  });

  it('shows the title, description and image as edited before the close', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch', { title: 'Old title', description: 'Old text', image: '/uploads/a.png' });
    log.edit('watch', { title: 'New title', image: null });
    log.bid('watch', 'bob', 10_000);
    log.edit('watch', { description: 'New text' }, 'seller', T0 + 1500);
    log.close('watch');
    await h.given(log.events);

    const [item] = (await winningsOf(h, 'bob')).winnings;
    expect(item).toMatchObject({ title: 'New title', description: 'New text', image: null });
  });

  it('shows an unknown or deleted seller as "Deleted user" and an unknown category as null', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch', { categoryId: 'nowhere' });
    log.bid('watch', 'bob', 10_000);
    log.close('watch');
    await h.given(log.events);

    const [item] = (await winningsOf(h, 'bob')).winnings;
    expect(item).toMatchObject({ seller: 'Deleted user', sellerId: 'seller' });
    expect(item).toMatchObject({ category: null, categoryId: 'nowhere' });
  });

  it('ends in the same documents when every event is delivered twice', async () => {
    const log = oneSale();
    log.create('lamp', { title: 'Lamp', endsAt: endingAfter(2) });
    log.edit('lamp', { title: 'Brass lamp' });
    log.bid('lamp', 'alice', 11_000, T0 + 1000, 'alice-bid');
    log.editBid('lamp', 'alice', 'alice-bid', 13_000);
    log.close('lamp');
    const expected = await expectSameOnceAndTwice([winningsProjection], log.events);
    expect(expected['winnings_items']).toHaveLength(2);
  });

  it('ignores events of unrelated streams', async () => {
    const h = await harness();
    const log = oneSale();
    await h.given(log.events);
    const before = await h.dump();

    const unrelated = new EventLog();
    unrelated.append('user-bob', 'UserRegistered', { userId: 'bob', at: iso(T0) });
    unrelated.append('categoryname-antiques', 'CategoryNameReserved', {
      categoryId: 'antiques-2',
      name: 'Antiques',
      at: iso(T0),
    });
    unrelated.append('auction-watch', 'SomethingElse', { auctionId: 'watch' });
    const shifted = unrelated.events.map((e, i) => ({ ...e, position: 1000 + i, id: `x-${i}` }));
    await h.given(shifted);

    expect(await h.dump()).toEqual(before);
  });
});
