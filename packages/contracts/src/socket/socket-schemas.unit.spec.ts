import { describe, expect, it } from 'vitest';
import type { AuctionView, BidView } from '../http/views';
import {
  AuctionSocketEvent,
  AuctionStateEvent,
  BidNotification,
  UnwatchAuction,
  WatchAuction,
} from './socket';

const AT = '2030-01-02T03:04:05.678Z';
const person = { _id: 'u2', firstName: 'Ada', lastName: 'L', image: null };
const bid: BidView = {
  _id: 'b1',
  auctionId: 'a1',
  bidAmount: 102.5,
  amount: 102.5,
  bidder: person,
  createdAt: AT,
};
const newBid = {
  productId: 'a1',
  revision: 3,
  type: 'BidPlaced',
  bid,
  currentBid: 102.5,
  status: 'Live',
  leadingBidId: 'b1',
  reserve: 'none',
  buyNowPrice: null,
  at: AT,
};
const auction: AuctionView = {
  _id: 'a1',
  title: 'A lamp',
  description: 'Brass',
  category: { _id: 'c1', name: 'Antiques' },
  startingPrice: 100,
  currentBid: 102.5,
  image: null,
  images: null,
  seller: { ...person, _id: 'u1' },
  auctionEndTime: AT,
  increments: 'table',
  softClose: null,
  extended: false,
  reserve: 'none',
  buyNowPrice: null,
  boughtNow: false,
  leadingBidId: 'b1',
  status: 'Live',
  bids: [bid],
  bidsNextCursor: null,
  bidCount: 1,
  retractions: [],
  createdAt: AT,
  winner: null,
  finalPrice: null,
  closedAt: null,
  revision: 3,
};

describe('auction:watch and auction:unwatch', () => {
  it.each([
    ['no revision (replay nothing)', { auctionId: 'a1' }],
    ['-1 (replay everything)', { auctionId: 'a1', afterRevision: -1 }],
    ['a revision', { auctionId: 'a1', afterRevision: 41 }],
  ])('a watch with %s parses', (_name, watch) => {
    expect(WatchAuction.parse(watch)).toEqual(watch);
  });

  it.each([
    ['a revision below -1', { auctionId: 'a1', afterRevision: -2 }],
    ['a fractional revision', { auctionId: 'a1', afterRevision: 1.5 }],
    ['a revision as text', { auctionId: 'a1', afterRevision: '3' }],
    ['no auction', { afterRevision: 3 }],
    ['an auction id with a slash', { auctionId: '../a1' }],
  ])('a watch with %s is refused', (_name, watch) => {
    expect(WatchAuction.safeParse(watch).success).toBe(false);
  });

  it('an unwatch names an auction', () => {
    expect(UnwatchAuction.safeParse({ auctionId: 'a1' }).success).toBe(true);
    expect(UnwatchAuction.safeParse({}).success).toBe(false);
  });
});

describe('the server’s auction events', () => {
  it('a newBid with its bid parses; an auctionUpdated has no bid', () => {
    expect(AuctionSocketEvent.parse(newBid)).toEqual(newBid);
    const updated = {
      ...newBid,
      type: 'AuctionEdited',
      bid: null,
      changes: { title: 'A brass lamp' },
    };
    expect(AuctionSocketEvent.parse(updated)).toEqual(updated);
  });

  it.each([
    ['a status outside the four', { ...newBid, status: 'Open' }],
    ['a reserve amount instead of its state', { ...newBid, reserve: 150 }],
    ['a fractional revision', { ...newBid, revision: 3.5 }],
    ['no revision', { ...newBid, revision: undefined }],
    ['a bid without its bidder', { ...newBid, bid: { ...bid, bidder: undefined } }],
    ['no time', { ...newBid, at: undefined }],
  ])('one with %s is refused', (_name, event) => {
    expect(AuctionSocketEvent.safeParse(event).success).toBe(false);
  });

  it('auction:state carries the auction at a revision, with the first page of its bids', () => {
    const state = { productId: 'a1', revision: 3, auction };
    expect(AuctionStateEvent.parse(state)).toEqual(state);
    expect(AuctionStateEvent.safeParse({ productId: 'a1', revision: 3 }).success).toBe(false);
    expect(
      AuctionStateEvent.safeParse({ ...state, auction: { ...auction, bids: undefined } }).success,
    ).toBe(false);
    expect(
      AuctionStateEvent.safeParse({ ...state, auction: { ...auction, bidsNextCursor: undefined } })
        .success,
    ).toBe(false);
  });
});

describe('bidNotification', () => {
  const notification = {
    _id: 'n1',
    message: 'You have been outbid',
    timestamp: AT,
    auctionId: 'a1',
    isRead: false,
  };

  it('parses, with or without an auction', () => {
    expect(BidNotification.parse(notification)).toEqual(notification);
    expect(BidNotification.safeParse({ ...notification, auctionId: null }).success).toBe(true);
  });

  it('is refused without its read flag', () => {
    expect(BidNotification.safeParse({ ...notification, isRead: undefined }).success).toBe(false);
    expect(BidNotification.safeParse({ ...notification, isRead: 'no' }).success).toBe(false);
  });
});
