import { AuctionView, CategoryView, RETRACTIONS_SHOWN, rules } from '@auction/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { EventLog, T0, iso } from '../testing/event-log';
import { projectionHarness, expectSameOnceAndTwice } from '../testing/harness';
import {
  auctionDetail,
  catalogAuctions,
  catalogBids,
  catalogProjection,
  featuredAuctions,
  listCategories,
  liveAuctions,
  liveAuctionsPage,
  sellerAuctions,
  sellerAuctionsPage,
} from './index';
import { type CatalogAuctionDoc, catalogSummaryOf } from './catalog-projection';

type Harness = Awaited<ReturnType<typeof projectionHarness>>;

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const harness = async (): Promise<Harness> => {
  const h = await projectionHarness([catalogProjection]);
  open.push(h);
  return h;
};

const withCategories = (): EventLog => {
  const log = new EventLog();
  log.category('antiques', 'Antiques');
  log.category('watches', 'Jewelry & Watches');
  return log;
};

const project = async (log: EventLog): Promise<Harness> => {
  const h = await harness();
  await h.given(log.events);
  return h;
};

const detail = async (h: Harness, auctionId: string): Promise<AuctionView> => {
  const view = await auctionDetail(h.store, h.users, auctionId);
  if (!view) throw new Error(`no view of ${auctionId}`);
  return AuctionView.parse(view);
};

const ids = (views: readonly AuctionView[]): string[] => views.map((v) => AuctionView.parse(v)._id);

const bidBoard = (view: AuctionView) => view.bids.map((b) => [b._id, b.amount]);

describe('catalog projection: auctions', () => {
  it('creates a Live auction with its category name, prices in dollars', async () => {
    const log = withCategories();
    log.create('a1', {
      seller: 'sam',
      title: 'Vintage watch',
      description: 'Swiss, 1962',
      categoryId: 'watches',
      startingPrice: 12_345,
      image: '/uploads/watch.png',
      at: T0,
    });
    const h = await project(log);

    expect(await detail(h, 'a1')).toEqual({
      _id: 'a1',
      title: 'Vintage watch',
      description: 'Swiss, 1962',
      category: { _id: 'watches', name: 'Jewelry & Watches' },
      startingPrice: 123.45,
      currentBid: 0,
      image: { url: '/uploads/watch.png' },
      images: { url: '/uploads/watch.png' },
      seller: { _id: 'sam', firstName: 'Deleted', lastName: 'user', image: null },
      auctionEndTime: iso(T0 + 86_400_000),
      increments: 'one-dollar',
      softClose: null,
      extended: false,
      reserve: 'none',
      buyNowPrice: null,
      boughtNow: false,
      leadingBidId: null,
      status: 'Live',
      bids: [],
      bidsNextCursor: null,
      bidCount: 0,
      retractions: [],
      createdAt: iso(T0),
      winner: null,
      finalPrice: null,
      closedAt: null,
      revision: 0,
    });
  });

  it("shows the auction's increment rule, the table for one created before it was a choice", async () => {
    const log = withCategories();
    log.create('a1', { increments: 'table' });
    log.create('a2');
    log.append('auction-a3', 'AuctionCreated', {
      auctionId: 'a3',
      sellerId: 'sam',
      title: 'Carriage clock',
      description: 'Brass',
      categoryId: 'antiques',
      startingPrice: 10_000,
      endsAt: iso(T0 + 86_400_000),
      image: null,
      at: iso(T0),
    });
    const h = await project(log);
    expect((await detail(h, 'a1')).increments).toBe('table');
    expect((await detail(h, 'a2')).increments).toBe('one-dollar');
    expect((await detail(h, 'a3')).increments).toBe('table');
    // A document written before the rule was kept reads as the table too.
    const stored = (await h.store.get(catalogAuctions.name, 'a2')) as CatalogAuctionDoc;
    const { increments: _, ...older } = stored;
    expect(catalogSummaryOf(older as CatalogAuctionDoc).increments).toBe('table');
  });

  it('answers undefined for an unknown auction', async () => {
    const h = await project(withCategories());
    expect(await auctionDetail(h.store, h.users, 'nope')).toBeUndefined();
  });

  it('applies an edit of title, description, image, starting price and end time', async () => {
    const log = withCategories();
    log.create('a1', { title: 'Old title', image: '/uploads/a.png' });
    log.edit('a1', {
      title: 'New title',
      description: 'New description',
      image: null,
      startingPrice: 20_000,
      endsAt: iso(T0 + 2 * 86_400_000),
    });
    const view = await detail(await project(log), 'a1');

    expect(view).toMatchObject({
      title: 'New title',
      description: 'New description',
      image: null,
      images: null,
      startingPrice: 200,
      auctionEndTime: iso(T0 + 2 * 86_400_000),
      category: { _id: 'antiques', name: 'Antiques' },
      revision: 1,
    });
  });

  it('keeps a cancelled auction on the record but out of every list, the seller’s too', async () => {
    const log = withCategories();
    log.create('a1', { seller: 'sam', at: T0 });
    log.create('a2', { seller: 'sam', at: T0 + 1000, image: '/uploads/a2.png' });
    log.cancel('a2', 'seller', 'sam');
    const h = await project(log);

    // Its image is removed from the store once it is cancelled: the page shows none.
    expect(await detail(h, 'a2')).toMatchObject({ status: 'Cancelled', image: null });
    expect(ids(await liveAuctions(h.store, h.users))).toEqual(['a1']);
    expect(ids(await featuredAuctions(h.store, h.users))).toEqual(['a1']);
    expect(ids(await sellerAuctions(h.store, h.users, 'sam'))).toEqual(['a1']);
    expect(ids((await sellerAuctionsPage(h.store, h.users, 'sam')).items)).toEqual(['a1']);
  });
});

describe('catalog projection: bids', () => {
  const withBids = (): EventLog => {
    const log = withCategories();
    log.create('a1', { seller: 'sam', startingPrice: 10_000 });
    log.bid('a1', 'ann', 10_000, T0 + 1000, 'b1');
    log.bid('a1', 'bob', 12_550, T0 + 2000, 'b2');
    log.bid('a1', 'cat', 15_000, T0 + 3000, 'b3');
    return log;
  };

  it('raises the current bid and lists standing bids highest first', async () => {
    const view = await detail(await project(withBids()), 'a1');

    expect(view.currentBid).toBe(150);
    expect(view.bidCount).toBe(3);
    expect(view.revision).toBe(3);
    expect(bidBoard(view)).toEqual([
      ['b3', 150],
      ['b2', 125.5],
      ['b1', 100],
    ]);
    expect(view.bids[1]).toEqual({
      _id: 'b2',
      auctionId: 'a1',
      bidAmount: 125.5,
      amount: 125.5,
      bidder: { _id: 'bob', firstName: 'Deleted', lastName: 'user', image: null },
      createdAt: iso(T0 + 2000),
    });
  });

  it('re-sorts the board when a bid is raised', async () => {
    const log = withBids();
    log.editBid('a1', 'ann', 'b1', 20_000, T0 + 4000);
    const h = await project(log);
    const view = await detail(h, 'a1');

    expect(view.currentBid).toBe(200);
    expect(view.bidCount).toBe(3);
    expect(bidBoard(view)).toEqual([
      ['b1', 200],
      ['b3', 150],
      ['b2', 125.5],
    ]);
    expect(view.bids[0]?.createdAt).toBe(iso(T0 + 1000));
    expect(await h.store.get(catalogBids.name, 'b1')).toMatchObject({
      amount: 20_000,
      updatedAt: iso(T0 + 4000),
      retracted: false,
    });
  });

  it('falls back to the next bid when the leader retracts', async () => {
    const log = withBids();
    log.retract('a1', 'cat', 'b3', T0 + 4000);
    const h = await project(log);
    const view = await detail(h, 'a1');

    expect(view.currentBid).toBe(125.5);
    expect(view.bidCount).toBe(2);
    expect(bidBoard(view)).toEqual([
      ['b2', 125.5],
      ['b1', 100],
    ]);
    expect(await h.store.get(catalogBids.name, 'b3')).toMatchObject({
      retracted: true,
      amount: 15_000,
    });
    expect(await h.store.get(catalogAuctions.name, 'a1')).toMatchObject({ leadingBidId: 'b2' });
  });

  it('drops the current bid to 0 when the last bid is retracted', async () => {
    const log = withCategories();
    log.create('a1');
    log.bid('a1', 'ann', 10_000, T0 + 1000, 'b1');
    log.retract('a1', 'ann', 'b1', T0 + 2000);
    const view = await detail(await project(log), 'a1');

    expect(view).toMatchObject({ currentBid: 0, bidCount: 0, bids: [] });
  });
});

describe('catalog projection: retractions', () => {
  it('shows retracted bids, newest first, with when they were placed and retracted', async () => {
    const log = withCategories();
    log.create('a1');
    log.bid('a1', 'ann', 10_000, T0 + 1000, 'b1');
    log.bid('a1', 'bob', 12_550, T0 + 2000, 'b2');
    log.retract('a1', 'bob', 'b2', T0 + 3000);
    log.retract('a1', 'ann', 'b1', T0 + 4000);
    const view = await detail(await project(log), 'a1');

    expect(view).toMatchObject({ bids: [], bidCount: 0, currentBid: 0 });
    expect(view.retractions).toEqual([
      {
        _id: 'b1',
        bidder: { _id: 'ann', firstName: 'Deleted', lastName: 'user', image: null },
        amount: 100,
        createdAt: iso(T0 + 1000),
        retractedAt: iso(T0 + 4000),
      },
      {
        _id: 'b2',
        bidder: { _id: 'bob', firstName: 'Deleted', lastName: 'user', image: null },
        amount: 125.5,
        createdAt: iso(T0 + 2000),
        retractedAt: iso(T0 + 3000),
      },
    ]);
  });

  it(`keeps the latest ${RETRACTIONS_SHOWN} in a detail, and none in a list`, async () => {
    const log = withCategories();
    log.create('a1');
    const bidders = RETRACTIONS_SHOWN + 2;
    for (let i = 0; i < bidders; i++) {
      log.bid('a1', `bidder-${i}`, 10_000 + i * 1000, T0 + 1000 + i * 10, `b${i}`);
      log.retract('a1', `bidder-${i}`, `b${i}`, T0 + 1005 + i * 10);
    }
    const h = await project(log);
    const latestFirst = Array.from({ length: bidders }, (_, i) => `b${bidders - 1 - i}`);

    const view = await detail(h, 'a1');
    expect(view.retractions.map((r) => r._id)).toEqual(latestFirst.slice(0, RETRACTIONS_SHOWN));
    const [listed] = await liveAuctions(h.store, h.users);
    expect(listed?.retractions).toEqual([]);
  });

  it('tells a bidder which of their bids they may still retract, and until when', async () => {
    const log = withCategories();
    log.create('a1');
    log.bid('a1', 'ann', 10_000, T0 + 1000, 'b1');
    log.bid('a1', 'bob', 12_550, T0 + 2000, 'b2');
    log.editBid('a1', 'ann', 'b1', 15_000, T0 + 3000);
    const h = await project(log);
    const viewerOf = async (userId: string) =>
      (await auctionDetail(h.store, h.users, 'a1', undefined, userId))?.viewer?.retractable;
    const grace = rules.retraction.graceMs;

    expect(await viewerOf('ann')).toEqual([{ bidId: 'b1', until: iso(T0 + 3000 + grace) }]);
    expect(await viewerOf('bob')).toEqual([{ bidId: 'b2', until: iso(T0 + 2000 + grace) }]);

    // Once bob has retracted one, he may retract none.
    log.retract('a1', 'bob', 'b2', T0 + 4000);
    log.bid('a1', 'bob', 16_000, T0 + 5000, 'b3');
    await h.given(log.events.slice(-2));
    expect(await viewerOf('bob')).toEqual([]);
  });

  it('offers no retraction of a bid an automatic bid raised, nor to a bidder a maximum answered', async () => {
    const log = withCategories();
    log.create('a1');
    log.send({
      type: 'PlaceBid',
      data: { auctionId: 'a1', bidId: 'b1', amount: 10_000, maxAmount: 53_737 },
      metadata: { commandId: 'c-b1', actorId: 'ann', correlationId: 'c-b1', at: iso(T0 + 1000) },
    });
    log.bid('a1', 'bob', 20_000, T0 + 2000, 'b2');
    const h = await project(log);
    const retractable = async (userId: string) =>
      (await auctionDetail(h.store, h.users, 'a1', undefined, userId))?.viewer?.retractable;

    expect(await retractable('ann')).toEqual([]);
    expect(await retractable('bob')).toEqual([]);
  });
});

describe('catalog projection: closing', () => {
  it('closes Sold with the winner and the final price', async () => {
    const log = withCategories();
    log.create('a1');
    log.bid('a1', 'ann', 10_000, T0 + 1000, 'b1');
    log.bid('a1', 'bob', 12_345, T0 + 2000, 'b2');
    log.close('a1');
    const h = await project(log);
    const view = await detail(h, 'a1');

    expect(view).toMatchObject({
      status: 'Sold',
      finalPrice: 123.45,
      currentBid: 123.45,
      winner: { _id: 'bob', firstName: 'Deleted', lastName: 'user', image: null },
      revision: 3,
    });
    expect(await h.store.get(catalogAuctions.name, 'a1')).toMatchObject({ winningBidId: 'b2' });
    expect(await liveAuctions(h.store, h.users)).toEqual([]);
  });

  it('keeps when a Buy It Now sale closed it, before the planned end, which stays', async () => {
    const log = withCategories();
    log.create('a1', { buyNowPrice: 50_000 });
    log.send({
      type: 'BuyNow',
      data: { auctionId: 'a1', bidId: 'b2', price: 50_000 },
      metadata: { commandId: 'c-b2', actorId: 'bob', correlationId: 'c-b2', at: iso(T0 + 5000) },
    });
    const view = await detail(await project(log), 'a1');

    expect(view).toMatchObject({
      status: 'Sold',
      boughtNow: true,
      closedAt: iso(T0 + 5000),
      auctionEndTime: iso(T0 + 86_400_000),
    });
  });

  it('closes Expired without bids', async () => {
    const log = withCategories();
    log.create('a1');
    log.close('a1');
    const view = await detail(await project(log), 'a1');

    expect(view).toMatchObject({
      status: 'Expired',
      winner: null,
      finalPrice: null,
      closedAt: iso(T0 + 86_400_000),
    });
  });
});

describe('catalog queries: the live list in other orders', () => {
  /** Prices (cents): a1 starts at 300, a2 at 100 with a bid of 500, a3 at 200, a4 at 100 bid 200. */
  const priced = (): EventLog => {
    const log = withCategories();
    log.create('a1', { startingPrice: 30_000, endsAt: iso(T0 + 3 * 86_400_000), at: T0 });
    log.create('a2', { startingPrice: 10_000, endsAt: iso(T0 + 1 * 86_400_000), at: T0 + 1 });
    log.create('a3', { startingPrice: 20_000, endsAt: iso(T0 + 4 * 86_400_000), at: T0 + 2 });
    log.create('a4', { startingPrice: 10_000, endsAt: iso(T0 + 2 * 86_400_000), at: T0 + 3 });
    log.bid('a2', 'ann', 50_000, T0 + 1000, 'b1');
    log.bid('a4', 'bob', 20_000, T0 + 1000, 'b2');
    return log;
  };

  /** Every item of every page of `limit`, following the cursors. */
  const everyPage = async (h: Harness, sort: Parameters<typeof liveAuctionsPage>[2], limit = 1) => {
    const seen: string[] = [];
    let after: Parameters<typeof liveAuctionsPage>[3] = {};
    for (let pages = 0; pages < 20; pages++) {
      const page = await liveAuctionsPage(h.store, h.users, sort, { limit, ...after });
      seen.push(...ids(page.items));
      if (page.nextCursor === null) return seen;
      const [, ...rest] = JSON.parse(Buffer.from(page.nextCursor, 'base64url').toString()) as [
        string,
        ...unknown[],
      ];
      after = { after: { values: rest.slice(0, -1) as number[], id: rest.at(-1) as string } };
    }
    throw new Error('too many pages');
  };

  it('keeps the current price on each auction: the leading bid, else the starting price', async () => {
    const log = priced();
    log.retract('a4', 'bob', 'b2', T0 + 2000);
    log.edit('a3', { startingPrice: 25_000 });
    const h = await project(log);
    const price = async (id: string) =>
      ((await h.store.get(catalogAuctions.name, id)) as CatalogAuctionDoc).price;
    expect(await price('a1')).toBe(30_000);
    expect(await price('a2')).toBe(50_000);
    expect(await price('a3')).toBe(25_000);
    // The last bid retracted: the starting price again.
    expect(await price('a4')).toBe(10_000);
  });

  it('pages by ending soonest, by price both ways, and newest first when no order is named', async () => {
    const h = await project(priced());
    expect(await everyPage(h, { sort: 'ending-soon' })).toEqual(['a2', 'a4', 'a1', 'a3']);
    expect(await everyPage(h, { sort: 'price-low' }, 3)).toEqual(['a3', 'a4', 'a1', 'a2']);
    expect(await everyPage(h, { sort: 'price-high' })).toEqual(['a2', 'a1', 'a3', 'a4']);
    expect(await everyPage(h, {}, 2)).toEqual(['a4', 'a3', 'a2', 'a1']);
    expect(await everyPage(h, { sort: 'price-low', search: 'a1' })).toEqual(['a1']);
  });
});

describe('catalog queries', () => {
  const market = (): EventLog => {
    const log = withCategories();
    log.create('a1', { title: 'Vintage watch', categoryId: 'watches', at: T0 });
    log.create('a2', { title: 'Oak chair', categoryId: 'antiques', at: T0 + 1000 });
    log.create('a3', { title: 'Pocket Watch', categoryId: 'antiques', at: T0 + 2000 });
    log.create('a4', { title: 'Ring', categoryId: 'watches', seller: 'sue', at: T0 + 3000 });
    return log;
  };

  it('lists Live auctions newest first', async () => {
    const h = await project(market());
    expect(ids(await liveAuctions(h.store, h.users))).toEqual(['a4', 'a3', 'a2', 'a1']);
  });

  it('searches titles case-insensitively', async () => {
    const h = await project(market());
    expect(ids(await liveAuctions(h.store, h.users, { search: 'WATCH' }))).toEqual(['a3', 'a1']);
    expect(ids(await liveAuctions(h.store, h.users, { search: '' }))).toHaveLength(4);
  });

  it('filters by the exact category name', async () => {
    const h = await project(market());
    const watches = await liveAuctions(h.store, h.users, { category: 'Jewelry & Watches' });
    expect(ids(watches)).toEqual(['a4', 'a1']);
    expect(await liveAuctions(h.store, h.users, { category: 'jewelry & watches' })).toEqual([]);
    expect(await liveAuctions(h.store, h.users, { category: 'Jewelry' })).toEqual([]);
    expect(
      ids(await liveAuctions(h.store, h.users, { search: 'watch', category: 'Antiques' })),
    ).toEqual(['a3']);
  });

  it('answers [] when there are no auctions', async () => {
    const h = await project(withCategories());
    expect(await liveAuctions(h.store, h.users)).toEqual([]);
    expect(await featuredAuctions(h.store, h.users)).toEqual([]);
    expect(await sellerAuctions(h.store, h.users, 'sam')).toEqual([]);
  });

  it('features the 3 most recently created Live auctions', async () => {
    const log = market();
    log.create('a5', { at: T0 + 4000 });
    log.cancel('a5');
    const h = await project(log);
    expect(ids(await featuredAuctions(h.store, h.users))).toEqual(['a4', 'a3', 'a2']);
  });

  it("lists a seller's auctions of every status, newest first", async () => {
    const log = market();
    log.close('a1');
    const h = await project(log);
    const mine = await sellerAuctions(h.store, h.users, 'seller');
    expect(ids(mine)).toEqual(['a3', 'a2', 'a1']);
    expect(mine.map((a) => a.status)).toEqual(['Live', 'Live', 'Expired']);
    expect(ids(await sellerAuctions(h.store, h.users, 'sue'))).toEqual(['a4']);
  });

  it('fills the bids of list views like the detail', async () => {
    const log = market();
    log.bid('a2', 'ann', 10_000, T0 + 5000, 'b1');
    log.bid('a2', 'bob', 11_000, T0 + 6000, 'b2');
    const h = await project(log);
    const [, , oak] = await liveAuctions(h.store, h.users);
    expect(oak).toEqual(await detail(h, 'a2'));
    expect(oak && bidBoard(oak)).toEqual([
      ['b2', 110],
      ['b1', 100],
    ]);
  });

  it('joins known users with their image and shows unknown ones as Deleted user', async () => {
    const log = withCategories();
    log.create('a1', { seller: 'sam' });
    log.bid('a1', 'ann', 10_000, T0 + 1000, 'b1');
    log.bid('a1', 'gone', 11_000, T0 + 2000, 'b2');
    const h = await project(log);
    await h.users.save({
      _id: 'sam',
      firstName: 'Sam',
      lastName: 'Seller',
      imageUrl: '/u/sam.png',
    });
    await h.users.save({ _id: 'ann', firstName: 'Ann', lastName: 'Bidder', imageUrl: null });
    const view = await detail(h, 'a1');

    expect(view.seller).toEqual({
      _id: 'sam',
      firstName: 'Sam',
      lastName: 'Seller',
      image: { url: '/u/sam.png' },
    });
    expect(view.bids.map((b) => b.bidder)).toEqual([
      { _id: 'gone', firstName: 'Deleted', lastName: 'user', image: null },
      { _id: 'ann', firstName: 'Ann', lastName: 'Bidder', image: null },
    ]);

    await h.users.erase('sam');
    expect((await detail(h, 'a1')).seller).toEqual({
      _id: 'sam',
      firstName: 'Deleted',
      lastName: 'user',
      image: null,
    });
  });

  it('looks users up once per query', async () => {
    const log = market();
    log.bid('a1', 'ann', 10_000, T0 + 5000, 'b1');
    log.bid('a2', 'bob', 10_000, T0 + 5000, 'b2');
    const h = await project(log);
    const calls: string[][] = [];
    const users = {
      lookup: (requested: readonly string[]) => {
        calls.push([...requested].sort());
        return h.users.lookup(requested);
      },
    };
    await liveAuctions(h.store, users);
    expect(calls).toEqual([['ann', 'bob', 'seller', 'sue']]);
  });

  it('lists categories by name', async () => {
    const log = new EventLog();
    log.category('vehicles', 'Vehicles', 'Cars and bikes');
    log.category('art', 'Art & Collectibles', 'Paintings');
    log.category('gaming', 'Gaming', 'Consoles');
    const categories = await listCategories((await project(log)).store);

    expect(categories.map((c) => CategoryView.parse(c))).toEqual([
      { _id: 'art', name: 'Art & Collectibles', description: 'Paintings' },
      { _id: 'gaming', name: 'Gaming', description: 'Consoles' },
      { _id: 'vehicles', name: 'Vehicles', description: 'Cars and bikes' },
    ]);
  });

  it('names the category of an auction created before its category event', async () => {
    const log = new EventLog();
    log.create('a1', { categoryId: 'late' });
    log.category('late', 'Latecomers');
    const h = await project(log);
    expect((await detail(h, 'a1')).category).toEqual({ _id: 'late', name: 'Latecomers' });
    expect(ids(await liveAuctions(h.store, h.users, { category: 'Latecomers' }))).toEqual(['a1']);
  });
});

describe('catalog projection: idempotency', () => {
  const everything = (): EventLog => {
    const log = withCategories();
    log.create('a1', { seller: 'sam', categoryId: 'watches', at: T0 });
    log.create('a2', { seller: 'sue', at: T0 + 100 });
    log.create('a3', { seller: 'sam', at: T0 + 200 });
    log.create('a4', { categoryId: 'late', at: T0 + 300 });
    log.category('late', 'Latecomers');
    log.edit('a1', { title: 'Edited', image: '/uploads/x.png' }, 'sam', T0 + 500);
    log.bid('a1', 'ann', 10_000, T0 + 1000, 'b1');
    log.bid('a1', 'bob', 11_000, T0 + 1100, 'b2');
    log.bid('a1', 'cat', 12_000, T0 + 1200, 'b3');
    log.editBid('a1', 'ann', 'b1', 13_000, T0 + 1300);
    log.retract('a1', 'ann', 'b1', T0 + 1400);
    log.retract('a1', 'bob', 'b2', T0 + 1500);
    log.bid('a2', 'ann', 10_000, T0 + 1600, 'b4');
    log.cancel('a3', 'seller', 'sam');
    log.append('user-x', 'SomethingElse', {});
    log.close('a1');
    log.close('a2');
    return log;
  };

  it('changes nothing when every event is delivered twice', async () => {
    const expected = await expectSameOnceAndTwice([catalogProjection], everything().events);
    expect(expected[catalogAuctions.name]).toHaveLength(4);
    expect(expected[catalogBids.name]).toHaveLength(4);
  });

  it('ignores events of other streams and unknown types', async () => {
    const log = everything();
    const h = await project(log);
    const before = await h.dump();

    await h.given([
      log.append('user-x', 'SomethingElse', {}),
      log.append('user-x', 'BidPlaced', { auctionId: 'a2', bidId: 'b9', amount: 1 }),
      log.append('auction-a2', 'SomethingElse', { auctionId: 'a2' }),
      log.append('categoryname-x', 'CategoryNameReserved', { categoryId: 'x', name: 'X' }),
    ]);

    expect(await h.dump()).toEqual(before);
  });
});

describe('bids in lists and in the detail', () => {
  it('lists carry the three highest standing bids and the total count; the detail carries all', async () => {
    const log = withCategories();
    log.create('hot', { title: 'Hot item' });
    for (const [i, bidder] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      log.bid('hot', bidder, 10_000 + i * 1_000, T0 + 1000 + i, `bid-${bidder}`);
    }
    const h = await project(log);
    const [listed] = await liveAuctions(h.store, h.users);
    expect(listed?.bidCount).toBe(5);
    expect(listed?.bids.map((b) => b._id)).toEqual(['bid-e', 'bid-d', 'bid-c']);
    const [featured] = await featuredAuctions(h.store, h.users);
    expect(featured?.bids).toHaveLength(3);
    const detail = await auctionDetail(h.store, h.users, 'hot');
    expect(detail?.bids.map((b) => b._id)).toEqual(['bid-e', 'bid-d', 'bid-c', 'bid-b', 'bid-a']);
  });
});
