import { describe, expect, it } from 'vitest';
import { socketEventNames } from '../socket/socket';
import { AuctionEvent, auctionEventTypes } from './auction-events';
import { CategoryEvent } from './category-events';
import { EventMetadata } from './metadata';
import { UserEvent } from './user-events';
import { WatchlistEvent, watchlistEventTypes } from './watchlist-events';

const AT = '2030-01-02T03:04:05.678Z';
const bidPlaced = {
  type: 'BidPlaced',
  data: { auctionId: 'a1', at: AT, bidId: 'b1', bidderId: 'u1', amount: 10_250 },
};
const created = {
  type: 'AuctionCreated',
  data: {
    auctionId: 'a1',
    at: AT,
    sellerId: 'u1',
    title: '  A lamp ',
    description: 'Brass',
    categoryId: 'c1',
    startingPrice: 10_000,
    endsAt: '2030-01-09T03:04:05.678Z',
    image: null,
    softClose: { windowMs: 120_000, extensionMs: 120_000 },
  },
};
/** `event` with `data` changed. */
const withData = (event: { type: string; data: object }, data: Record<string, unknown>) => ({
  ...event,
  data: { ...event.data, ...data },
});

describe('auction events', () => {
  it('parse a valid BidPlaced and AuctionCreated (the title trimmed)', () => {
    expect(AuctionEvent.parse(bidPlaced)).toEqual(bidPlaced);
    const parsed = AuctionEvent.parse(created);
    expect(parsed.type === 'AuctionCreated' && parsed.data.title).toBe('A lamp');
  });

  it.each([
    ['an unknown type', { ...bidPlaced, type: 'BidWithdrawn' }],
    ['a negative amount', withData(bidPlaced, { amount: -1 })],
    ['a fraction of a cent', withData(bidPlaced, { amount: 10_250.5 })],
    ['an amount in dollars as text', withData(bidPlaced, { amount: '102.50' })],
    ['no bidder', withData(bidPlaced, { bidderId: undefined })],
    ['an id with a slash', withData(bidPlaced, { bidId: 'b/1' })],
    ['a time without milliseconds', withData(bidPlaced, { at: '2030-01-02T03:04:05Z' })],
    ['a time with an offset', withData(bidPlaced, { at: '2030-01-02T03:04:05.678+01:00' })],
    ['a blank title', withData(created, { title: '   ' })],
    [
      'a soft close under a second',
      withData(created, { softClose: { windowMs: 999, extensionMs: 120_000 } }),
    ],
    [
      'a soft close over an hour',
      withData(created, { softClose: { windowMs: 120_000, extensionMs: 3_600_001 } }),
    ],
  ])('refuse %s', (_name, event) => {
    expect(AuctionEvent.safeParse(event).success).toBe(false);
  });

  it('AuctionClosed: Sold names its winner and price, Expired names neither', () => {
    const closed = (data: Record<string, unknown>) => ({
      type: 'AuctionClosed',
      data: { auctionId: 'a1', at: AT, ...data },
    });
    const sold = { outcome: 'Sold', winnerId: 'u2', winningBidId: 'b1', finalPrice: 10_250 };
    expect(AuctionEvent.safeParse(closed(sold)).success).toBe(true);
    expect(AuctionEvent.safeParse(closed({ ...sold, boughtNow: true })).success).toBe(true);
    expect(AuctionEvent.safeParse(closed({ ...sold, boughtNow: false })).success).toBe(false);
    expect(AuctionEvent.safeParse(closed({ ...sold, winnerId: undefined })).success).toBe(false);
    expect(AuctionEvent.safeParse(closed({ outcome: 'Expired' })).success).toBe(true);
    expect(AuctionEvent.safeParse(closed({ outcome: 'Withdrawn' })).success).toBe(false);
  });

  it('AuctionEdited: a removed reserve is null, a blank new title is refused', () => {
    const edited = { type: 'AuctionEdited', data: { auctionId: 'a1', at: AT } };
    expect(AuctionEvent.safeParse(withData(edited, { reservePrice: null })).success).toBe(true);
    expect(AuctionEvent.safeParse(withData(edited, { title: '' })).success).toBe(false);
    expect(AuctionEvent.safeParse(withData(edited, { title: null })).success).toBe(false);
  });

  it('BidRetracted: one written before the reason existed still reads; only known reasons do', () => {
    const retracted = {
      type: 'BidRetracted',
      data: { auctionId: 'a1', at: AT, bidId: 'b1', bidderId: 'u1', amount: 10_250 },
    };
    const fallback = { currentBid: 0, leadingBidId: null };
    expect(AuctionEvent.parse(withData(retracted, fallback))).toEqual(
      withData(retracted, fallback),
    );
    const deleted = withData(retracted, { ...fallback, reason: 'account-deleted' });
    expect(AuctionEvent.safeParse(deleted).success).toBe(true);
    expect(AuctionEvent.safeParse(withData(deleted, { reason: 'typo' })).success).toBe(false);
  });

  it('auctionEventTypes names each event of the union once', () => {
    expect(new Set(auctionEventTypes).size).toBe(AuctionEvent.options.length);
    expect(auctionEventTypes).toContain('BidPlaced');
    expect(auctionEventTypes).toContain('AuctionEndingSoon');
  });

  it('every event after the creation has a socket event name, so watchers see no gap in revisions', () => {
    expect(Object.keys(socketEventNames).sort()).toEqual(
      auctionEventTypes.filter((type) => type !== 'AuctionCreated').sort(),
    );
  });
});

describe('user, watchlist and category events', () => {
  it('parse valid ones', () => {
    expect(
      UserEvent.safeParse({
        type: 'AccountRegistered',
        data: { userId: 'u1', method: 'google', at: AT },
      }).success,
    ).toBe(true);
    expect(
      WatchlistEvent.safeParse({
        type: 'AuctionWatched',
        data: { userId: 'u1', auctionId: 'a1', at: AT },
      }).success,
    ).toBe(true);
    expect(
      CategoryEvent.safeParse({
        type: 'CategoryNameReserved',
        data: { categoryId: 'c1', name: 'Books', at: AT },
      }).success,
    ).toBe(true);
  });

  it('refuse wrong ones', () => {
    expect(
      UserEvent.safeParse({
        type: 'AccountRegistered',
        data: { userId: 'u1', method: 'facebook', at: AT },
      }).success,
    ).toBe(false);
    expect(
      UserEvent.safeParse({
        type: 'AccountDeleted',
        data: { userId: 'u1', cancelledAuctions: -1, retractedBids: 0, at: AT },
      }).success,
    ).toBe(false);
    expect(
      WatchlistEvent.safeParse({ type: 'AuctionWatched', data: { userId: 'u1', at: AT } }).success,
    ).toBe(false);
  });

  it('a blank category name is refused with the message the form shows', () => {
    const result = CategoryEvent.safeParse({
      type: 'CategoryCreated',
      data: { categoryId: 'c1', name: '  ', description: 'd', createdBy: 'u1', at: AT },
    });
    expect(result.error?.issues[0]?.message).toBe('Please enter Name of Category');
  });

  it('watchlistEventTypes are the two watch events', () => {
    expect(watchlistEventTypes).toEqual(['AuctionWatched', 'AuctionUnwatched']);
  });
});

describe('event metadata', () => {
  const hash = 'ab'.repeat(32);
  const metadata = {
    commandId: 'c1',
    actorId: 'system',
    correlationId: 'k1',
    prevHash: hash,
    hash,
  };

  it('parses ids and hex SHA-256 hashes', () => {
    expect(EventMetadata.parse(metadata)).toEqual(metadata);
  });

  it.each([
    ['an upper-case hash', { ...metadata, hash: 'AB'.repeat(32) }],
    ['a short hash', { ...metadata, prevHash: 'ab'.repeat(31) }],
    ['no actor', { ...metadata, actorId: undefined }],
  ])('refuses %s', (_name, value) => {
    expect(EventMetadata.safeParse(value).success).toBe(false);
  });
});
