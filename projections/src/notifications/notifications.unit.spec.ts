import { afterEach, describe, expect, it } from 'vitest';
import { NotificationView } from '@auction/contracts';
import { EventLog, T0, iso } from '../testing/event-log';
import { projectionHarness, expectSameOnceAndTwice } from '../testing/harness';
import { notificationsCollections, notificationsProjection } from './notifications-projection';
import { notificationCursors, userNotifications } from './notifications-queries';

type Harness = Awaited<ReturnType<typeof projectionHarness>>;
const open: Harness[] = [];
const harness = async (): Promise<Harness> => {
  const h = await projectionHarness([notificationsProjection]);
  await notificationCursors(h.store).init();
  open.push(h);
  return h;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** "Vintage watch" by `seller`, starting at $100. */
const watchAuction = (): EventLog => {
  const log = new EventLog();
  log.create('watch', { title: 'Vintage watch', startingPrice: 10_000 });
  return log;
};

const notificationsOf = async (h: Harness, userId: string, limit?: number) => {
  const views = await userNotifications(h.store, userId, limit === undefined ? {} : { limit });
  expect(views.map((view) => NotificationView.parse(view))).toStrictEqual(views);
  return views;
};
const messagesOf = async (h: Harness, userId: string) =>
  (await notificationsOf(h, userId)).map((view) => view.message);

describe('notifications projection', () => {
  it('tells the seller about each new bid', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000, T0 + 1000);
    await h.given(log.events);

    expect(await notificationsOf(h, 'seller')).toEqual([
      {
        _id: `${log.events[1]?.id}:seller`,
        message: 'New bid of $150.00 on "Vintage watch".',
        timestamp: iso(T0 + 1000),
        isRead: false,
        auctionId: 'watch',
      },
    ]);
    expect(await notificationsOf(h, 'alice')).toEqual([]);
  });

  it('tells the previous leader when someone else outbids them', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.bid('watch', 'bob', 15_250);
    await h.given(log.events);

    expect(await messagesOf(h, 'alice')).toEqual([
      'You have been outbid on "Vintage watch". The current bid is $152.50.',
    ]);
    expect(await messagesOf(h, 'bob')).toEqual([]);
    expect(await messagesOf(h, 'seller')).toEqual([
      'New bid of $152.50 on "Vintage watch".',
      'New bid of $150.00 on "Vintage watch".',
    ]);
  });

  it('tells the leader when another bidder raises their bid above it', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000, T0 + 1000, 'alice-bid');
    log.bid('watch', 'bob', 16_000, T0 + 1000, 'bob-bid');
    log.editBid('watch', 'alice', 'alice-bid', 17_000);
    await h.given(log.events);

    expect(await messagesOf(h, 'bob')).toEqual([
      'You have been outbid on "Vintage watch". The current bid is $170.00.',
    ]);
    expect((await messagesOf(h, 'seller'))[0]).toBe(
      'A bid on "Vintage watch" was raised to $170.00.',
    );
  });

  it('does not tell the leader they are outbid when they raise their own bid', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000, T0 + 1000, 'alice-bid');
    log.editBid('watch', 'alice', 'alice-bid', 16_000);
    log.bid('watch', 'alice', 17_000);
    await h.given(log.events);

    expect(await messagesOf(h, 'alice')).toEqual([]);
    expect(await messagesOf(h, 'seller')).toEqual([
      'New bid of $170.00 on "Vintage watch".',
      'A bid on "Vintage watch" was raised to $160.00.',
      'New bid of $150.00 on "Vintage watch".',
    ]);
  });

  it('tells only the seller of a retraction, and outbids the leader it leaves', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.bid('watch', 'bob', 16_000, T0 + 1000, 'bob-bid');
    await h.given(log.events);
    const before = await h.store.count(notificationsCollections.items.name);

    const retraction = log.retract('watch', 'bob', 'bob-bid');
    await h.given(retraction);
    expect(await h.store.count(notificationsCollections.items.name)).toBe(before + 1);
    expect(await notificationsOf(h, 'seller')).toContainEqual({
      _id: `${retraction[0]?.id}:seller`,
      message: 'A bid of $160.00 on "Vintage watch" was retracted. The current bid is $150.00.',
      timestamp: iso(T0 + 2000),
      isRead: false,
      auctionId: 'watch',
    });

    const rebid = log.bid('watch', 'carol', 15_250, T0 + 3000);
    await h.given(rebid);
    expect((await messagesOf(h, 'alice'))[0]).toBe(
      'You have been outbid on "Vintage watch". The current bid is $152.50.',
    );
    expect(await messagesOf(h, 'bob')).toEqual([]);
  });

  it("tells the seller when an account's deletion withdraws a bid", async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000, T0 + 1000, 'alice-bid');
    log.send({
      type: 'RetractBid',
      data: { auctionId: 'watch', bidId: 'alice-bid', reason: 'account-deleted' },
      metadata: { commandId: 'gone', actorId: 'alice', correlationId: 'gone', at: iso(T0 + 9000) },
    });
    await h.given(log.events);

    expect((await messagesOf(h, 'seller'))[0]).toBe(
      'A bid of $150.00 on "Vintage watch" was withdrawn: its bidder\'s account was deleted. The current bid is $0.00.',
    );
  });

  it('tells the winner and the seller when the auction sells', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.bid('watch', 'bob', 15_250);
    log.close('watch');
    await h.given(log.events);

    expect((await messagesOf(h, 'bob'))[0]).toBe('You won "Vintage watch" for $152.50!');
    expect((await messagesOf(h, 'seller'))[0]).toBe(
      'Your auction "Vintage watch" sold for $152.50.',
    );
    expect(await messagesOf(h, 'alice')).toEqual([
      'You have been outbid on "Vintage watch". The current bid is $152.50.',
    ]);
  });

  it('tells the seller when the auction ends without bids', async () => {
    const h = await harness();
    const log = watchAuction();
    log.close('watch');
    await h.given(log.events);

    expect(await messagesOf(h, 'seller')).toEqual([
      'Your auction "Vintage watch" ended without bids.',
    ]);
  });

  it("tells the bidder a maximum answers that they are outbid by another bidder's maximum", async () => {
    const h = await harness();
    const log = watchAuction();
    log.send({
      type: 'PlaceBid',
      data: { auctionId: 'watch', bidId: 'alice-max', amount: 15_000, maxAmount: 20_000 },
      metadata: { commandId: 'max', correlationId: 'max', actorId: 'alice', at: iso(T0 + 500) },
    });
    log.bid('watch', 'bob', 16_000);
    await h.given(log.events);

    const [bobHears] = await messagesOf(h, 'bob');
    expect(bobHears).toMatch(
      /^You have been outbid on "Vintage watch" by another bidder's maximum\. The current bid is \$1\d\d\.\d\d\.$/,
    );
    expect((await messagesOf(h, 'seller'))[0]).toMatch(
      /^An automatic bid raised the price of "Vintage watch" to \$1\d\d\.\d\d\.$/,
    );
  });

  it('tells the seller and the leader when no bid reached the reserve', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch', { title: 'Vintage watch', startingPrice: 10_000, reservePrice: 20_000 });
    log.bid('watch', 'alice', 15_000);
    log.close('watch');
    await h.given(log.events);

    expect((await messagesOf(h, 'seller'))[0]).toBe(
      'Your auction "Vintage watch" ended without a sale: no bid reached your reserve price.',
    );
    expect(await messagesOf(h, 'alice')).toEqual([
      'The auction "Vintage watch" ended without a sale: the reserve price was not met.',
    ]);
  });

  it('tells the buyer, the seller and every other standing bidder of a Buy It Now', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch', {
      title: 'Vintage watch',
      startingPrice: 10_000,
      reservePrice: 20_000,
      buyNowPrice: 30_000,
    });
    log.bid('watch', 'alice', 15_000);
    log.send({
      type: 'BuyNow',
      data: { auctionId: 'watch', bidId: 'bob-buys', price: 30_000 },
      metadata: { commandId: 'buy', correlationId: 'buy', actorId: 'bob', at: iso(T0 + 2000) },
    });
    await h.given(log.events);

    expect((await messagesOf(h, 'bob'))[0]).toBe(
      'You bought "Vintage watch" for $300.00 with Buy It Now!',
    );
    // The purchase is no "new bid" to the seller, nor an outbid to the leader: its sale tells them.
    expect(await messagesOf(h, 'seller')).toEqual([
      'Your auction "Vintage watch" sold for $300.00 with Buy It Now.',
      'New bid of $150.00 on "Vintage watch".',
    ]);
    expect(await messagesOf(h, 'alice')).toEqual([
      '"Vintage watch" was bought with Buy It Now for $300.00; the auction has ended.',
    ]);
  });

  it('tells the seller, and only the seller, when a bid first meets the reserve', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch', { title: 'Vintage watch', startingPrice: 10_000, reservePrice: 20_000 });
    log.bid('watch', 'alice', 15_000, T0 + 1000);
    log.bid('watch', 'bob', 20_000, T0 + 2000);
    log.bid('watch', 'alice', 21_000, T0 + 3000);
    await h.given(log.events);

    expect(await messagesOf(h, 'seller')).toEqual([
      'New bid of $210.00 on "Vintage watch".',
      'Your reserve price on "Vintage watch" is met: the current bid is $200.00.',
      'New bid of $150.00 on "Vintage watch".',
    ]);
    expect(await notificationsOf(h, 'seller')).toHaveLength(3);
    for (const bidder of ['alice', 'bob'])
      for (const message of await messagesOf(h, bidder)) expect(message).not.toMatch(/reserve/i);
  });

  it('tells the seller when an automatic bid meets the reserve, and not again after', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch', { title: 'Vintage watch', startingPrice: 10_000, reservePrice: 20_000 });
    log.send({
      type: 'PlaceBid',
      data: { auctionId: 'watch', bidId: 'a1', amount: 10_000, maxAmount: 30_000 },
      metadata: { commandId: 'c1', correlationId: 'c1', actorId: 'alice', at: iso(T0 + 1000) },
    });
    log.bid('watch', 'bob', 25_000, T0 + 2000, 'b1');
    log.bid('watch', 'bob', 32_000, T0 + 3000, 'b2');
    await h.given(log.events);

    const reserve = (await messagesOf(h, 'seller')).filter((m) => /reserve/.test(m));
    expect(reserve).toHaveLength(1);
    expect(reserve[0]).toMatch(
      /^Your reserve price on "Vintage watch" is met: the current bid is \$2\d\d\.\d\d\.$/,
    );
  });

  it('says nothing of a reserve the seller lowered to the current bid themselves', async () => {
    const h = await harness();
    const log = new EventLog();
    log.create('watch', { title: 'Vintage watch', startingPrice: 10_000, reservePrice: 20_000 });
    log.bid('watch', 'alice', 15_000, T0 + 1000);
    log.edit('watch', { reservePrice: 15_000 }, 'seller', T0 + 2000);
    log.bid('watch', 'bob', 16_000, T0 + 3000);
    await h.given(log.events);

    expect((await messagesOf(h, 'seller')).filter((m) => /reserve/.test(m))).toEqual([]);
  });

  it('tells each distinct standing bidder once when the auction is cancelled', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.bid('watch', 'bob', 16_000);
    log.bid('watch', 'alice', 17_000);
    log.bid('watch', 'carol', 18_000, T0 + 1000, 'carol-bid');
    log.retract('watch', 'carol', 'carol-bid');
    log.cancel('watch');
    await h.given(log.events);

    const cancelled = 'The auction "Vintage watch" was cancelled.';
    expect((await messagesOf(h, 'alice')).filter((m) => m === cancelled)).toHaveLength(1);
    expect((await messagesOf(h, 'bob')).filter((m) => m === cancelled)).toHaveLength(1);
    expect(await messagesOf(h, 'carol')).not.toContain(cancelled);
    expect(await messagesOf(h, 'seller')).not.toContain(cancelled);
  });

  it('uses the title as edited at the time of each event', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.edit('watch', { title: 'Gold watch' }, 'seller', T0 + 1500);
    log.bid('watch', 'bob', 16_000, T0 + 2000);
    await h.given(log.events);

    expect(await messagesOf(h, 'seller')).toEqual([
      'New bid of $160.00 on "Gold watch".',
      'New bid of $150.00 on "Vintage watch".',
    ]);
  });

  it('lists newest first and at most `limit`', async () => {
    const h = await harness();
    const log = watchAuction();
    for (let i = 0; i < 5; i += 1) log.bid('watch', i % 2 ? 'alice' : 'bob', 15_000 + i * 500);
    await h.given(log.events);

    const all = await notificationsOf(h, 'seller');
    expect(all.map((n) => n.message)).toEqual(
      ['$170.00', '$165.00', '$160.00', '$155.00', '$150.00'].map(
        (price) => `New bid of ${price} on "Vintage watch".`,
      ),
    );
    expect(await notificationsOf(h, 'seller', 2)).toEqual(all.slice(0, 2));
  });

  it('marks as read only what the user had when they marked all read', async () => {
    const h = await harness();
    const cursors = notificationCursors(h.store);
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.bid('watch', 'bob', 16_000);
    await h.given(log.events);

    await cursors.markAllRead('seller');
    await h.given(log.bid('watch', 'alice', 17_000));

    expect((await notificationsOf(h, 'seller')).map((n) => n.isRead)).toEqual([false, true, true]);
    expect((await notificationsOf(h, 'alice')).map((n) => n.isRead)).toEqual([false]);
  });

  it('hides what the user had when they cleared all, but not what came later', async () => {
    const h = await harness();
    const cursors = notificationCursors(h.store);
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.bid('watch', 'bob', 16_000);
    await h.given(log.events);

    await cursors.clearAll('seller');
    expect(await notificationsOf(h, 'seller')).toEqual([]);
    await h.given(log.bid('watch', 'alice', 17_000));

    expect(await notificationsOf(h, 'seller')).toEqual([
      expect.objectContaining({ message: 'New bid of $170.00 on "Vintage watch".', isRead: false }),
    ]);
    expect(await notificationsOf(h, 'bob', 1)).toHaveLength(1);
  });

  it('keeps read and cleared state across a rebuild of the projection', async () => {
    const h = await harness();
    const cursors = notificationCursors(h.store);
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    log.bid('watch', 'bob', 16_000);
    log.bid('watch', 'alice', 17_000);
    await h.given(log.events.slice(0, 2));
    await cursors.clearAll('seller');
    await h.given(log.events.slice(2, 3));
    await cursors.markAllRead('seller');
    await h.given(log.events.slice(3));
    const before = await notificationsOf(h, 'seller');

    await h.store.reset(
      notificationsProjection.name,
      notificationsProjection.collections.map((c) => c.name),
    );
    expect(await notificationsOf(h, 'seller')).toEqual([]);
    await h.given(log.events);

    expect(await notificationsOf(h, 'seller')).toEqual(before);
    expect(before.map((n) => n.isRead)).toEqual([false, true]);
  });

  it('ends in the same documents when every event is delivered twice', async () => {
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000, T0 + 1000, 'alice-bid');
    log.bid('watch', 'bob', 16_000, T0 + 1000, 'bob-bid');
    log.editBid('watch', 'alice', 'alice-bid', 17_000);
    log.edit('watch', { title: 'Gold watch' }, 'seller', T0 + 2000);
    log.retract('watch', 'alice', 'alice-bid', T0 + 2500);
    log.bid('watch', 'carol', 16_250, T0 + 2600);
    log.close('watch');
    log.create('lamp', { title: 'Brass lamp' });
    log.bid('lamp', 'alice', 10_000);
    log.bid('lamp', 'bob', 10_250);
    log.cancel('lamp');
    const expected = await expectSameOnceAndTwice([notificationsProjection], log.events);
    // The seller hears of alice's retraction too.
    expect(expected[notificationsCollections.items.name]).toHaveLength(15);
  });

  it('ignores events of unrelated streams', async () => {
    const h = await harness();
    const log = watchAuction();
    log.bid('watch', 'alice', 15_000);
    await h.given(log.events);
    const before = await h.dump();

    log.category('antiques', 'Antiques');
    log.append('user-bob', 'UserRegistered', { userId: 'bob', at: iso(T0) });
    log.append('categoryname-antiques', 'CategoryNameReserved', {
      categoryId: 'antiques',
      name: 'Antiques',
      at: iso(T0),
    });
    await h.given(log.events.slice(-3));

    expect(await h.dump()).toEqual(before);
  });
});
