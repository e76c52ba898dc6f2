import { watchlistStream, userStream } from '@auction/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { notificationsCollections, notificationsProjection } from '../notifications/index';
import { notificationCursors, userNotifications } from '../notifications/notifications-queries';
import { EventLog, T0, iso } from '../testing/event-log';
import { expectSameOnceAndTwice, projectionHarness } from '../testing/harness';
import { watchlistProjection } from './watchlist-projection';
import { watchListCount, watchedAmong, watcherCount, watchlistPage } from './watchlist-queries';
import { catalogProjection } from '../catalog/index';

type Harness = Awaited<ReturnType<typeof projectionHarness>>;
const open: Harness[] = [];
const projections = [catalogProjection, watchlistProjection, notificationsProjection];
const harness = async (): Promise<Harness> => {
  const h = await projectionHarness(projections);
  await notificationCursors(h.store).init();
  open.push(h);
  return h;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

const watched = (log: EventLog, userId: string, auctionId: string, at: number) =>
  log.append(watchlistStream(userId), 'AuctionWatched', { userId, auctionId, at: iso(at) }, userId);
const unwatched = (log: EventLog, userId: string, auctionId: string, at: number) =>
  log.append(
    watchlistStream(userId),
    'AuctionUnwatched',
    { userId, auctionId, at: iso(at) },
    userId,
  );

/** Three auctions; Ann watches a1, a2, a3 in turn, unwatches a2; Ben watches a1. */
const history = (): EventLog => {
  const log = new EventLog();
  for (const id of ['a1', 'a2', 'a3']) log.create(id, { title: `Lamp ${id}` });
  watched(log, 'ann', 'a1', T0 + 100);
  watched(log, 'ann', 'a2', T0 + 200);
  watched(log, 'ann', 'a3', T0 + 300);
  watched(log, 'ben', 'a1', T0 + 350);
  unwatched(log, 'ann', 'a2', T0 + 400);
  return log;
};

describe('watchlist projection', () => {
  it('lists what a user watches, most recently watched first, a page at a time', async () => {
    const h = await harness();
    await h.given(history().events);
    const first = await watchlistPage(h.store, h.users, 'ann', { limit: 1 });
    expect(first.items.map((a) => [a._id, a.title, a.watching])).toEqual([['a3', 'Lamp a3', true]]);
    expect(first.nextCursor).not.toBeNull();
    const rest = await watchlistPage(h.store, h.users, 'ann', {
      limit: 5,
      after: { values: [iso(T0 + 300)], id: 'ann:a3' },
    });
    expect(rest.items.map((a) => a._id)).toEqual(['a1']);
    expect(rest.nextCursor).toBeNull();
    expect(await watchListCount(h.store, 'ann')).toBe(2);
    expect(await watchListCount(h.store, 'ben')).toBe(1);
    expect([...(await watchedAmong(h.store, 'ann', ['a1', 'a2', 'a3']))].sort()).toEqual([
      'a1',
      'a3',
    ]);
    expect(await watcherCount(h.store, 'a1')).toBe(2);
  });

  it('drops a cancelled auction from every list, and an erased account’s whole list', async () => {
    const h = await harness();
    const log = history();
    log.send({
      type: 'CancelAuction',
      data: { auctionId: 'a3', reason: 'seller' },
      metadata: { commandId: 'cx', actorId: 'seller', correlationId: 'cx', at: iso(T0 + 500) },
    });
    log.append(userStream('ben'), 'AccountDeleted', {
      userId: 'ben',
      cancelledAuctions: 0,
      retractedBids: 0,
      at: iso(T0 + 600),
    });
    await h.given(log.events);
    expect((await watchlistPage(h.store, h.users, 'ann')).items.map((a) => a._id)).toEqual(['a1']);
    expect(await watchListCount(h.store, 'ann')).toBe(1);
    expect(await watchListCount(h.store, 'ben')).toBe(0);
    expect(await watcherCount(h.store, 'a1')).toBe(1);
  });

  it('notifies every watcher of the end once; a watcher who won hears only that she won', async () => {
    const h = await harness();
    const log = history();
    // Cat watches too, and wins: she hears that she won, not also that it ended.
    watched(log, 'cat', 'a1', T0 + 650);
    log.bid('a1', 'cat', 10_000, T0 + 700);
    log.send({
      type: 'CloseAuction',
      data: { auctionId: 'a1' },
      metadata: {
        commandId: 'cz',
        actorId: 'system',
        correlationId: 'cz',
        at: iso(T0 + 86_400_000),
      },
    });
    await h.given(log.events);
    const messages = async (userId: string) =>
      (await userNotifications(h.store, userId)).map((n) => n.message);
    expect(await messages('ann')).toEqual([
      '"Lamp a1", on your watchlist, has ended: sold for $100.00.',
    ]);
    expect(await messages('ben')).toEqual([
      '"Lamp a1", on your watchlist, has ended: sold for $100.00.',
    ]);
    expect(await messages('cat')).toEqual(['You won "Lamp a1" for $100.00!']);
  });

  it('gives the same documents when every event is delivered twice', async () => {
    const log = history();
    log.bid('a1', 'cat', 10_000, T0 + 700);
    log.send({
      type: 'CancelAuction',
      data: { auctionId: 'a3', reason: 'seller' },
      metadata: { commandId: 'cx', actorId: 'seller', correlationId: 'cx', at: iso(T0 + 800) },
    });
    const expected = await expectSameOnceAndTwice(projections, log.events);
    // A bid tells watchers nothing (the seller hears of it); the cancellation tells Ann.
    expect(expected[notificationsCollections.items.name]?.map((d) => [d.userId, d.kind])).toEqual(
      expect.arrayContaining([
        ['seller', 'new-bid'],
        ['ann', 'watched-cancelled'],
      ]),
    );
  });
});
