import { randomUUID } from 'node:crypto';
import {
  type AuctionCommand,
  type CreateAuction,
  type IncrementRule,
  type PlaceBid,
  minimumRaise,
} from '@auction/contracts';

export const T0 = Date.parse('2030-01-01T12:00:00.000Z');
export const iso = (ms: number): string => new Date(ms).toISOString();

const meta = (actorId: string, at: number) => ({
  commandId: randomUUID(),
  correlationId: randomUUID(),
  actorId,
  at: iso(at),
});

export const createAuction = (
  auctionId: string,
  options: {
    seller?: string;
    startingPrice?: number;
    endsAt?: number;
    at?: number;
    categoryId?: string;
    softClose?: CreateAuction['data']['softClose'];
    increments?: IncrementRule;
  } = {},
): CreateAuction => ({
  type: 'CreateAuction',
  data: {
    auctionId,
    title: 'Vintage watch',
    description: 'A fine watch',
    categoryId: options.categoryId ?? 'jewelry-watches',
    startingPrice: options.startingPrice ?? 10_000,
    endsAt: iso(options.endsAt ?? T0 + 3_600_000),
    image: null,
    ...(options.softClose ? { softClose: options.softClose } : {}),
    ...(options.increments === undefined ? {} : { increments: options.increments }),
  },
  metadata: meta(options.seller ?? 'seller', options.at ?? T0),
});

export const placeBid = (
  auctionId: string,
  bidder: string,
  amount: number,
  at: number = T0 + 1000,
  bidId: string = randomUUID(),
): PlaceBid => ({
  type: 'PlaceBid',
  data: { auctionId, bidId, amount },
  metadata: meta(bidder, at),
});

export const closeAuction = (auctionId: string, at: number): AuctionCommand => ({
  type: 'CloseAuction',
  data: { auctionId },
  metadata: meta('system', at),
});

export const retractBid = (
  auctionId: string,
  bidder: string,
  bidId: string,
  at = T0 + 2000,
): AuctionCommand => ({
  type: 'RetractBid',
  data: { auctionId, bidId },
  metadata: meta(bidder, at),
});

/** `count` bids, each the smallest raise over the one before (by `rule`), the first at `from`. */
export const raises = (
  count: number,
  from: number,
  rule: IncrementRule = 'one-dollar',
): number[] => {
  const amounts: number[] = [];
  for (let amount = from; amounts.length < count; amount = minimumRaise(amount, rule))
    amounts.push(amount);
  return amounts;
};
