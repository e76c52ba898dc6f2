import { type AutomaticBidPlaced, buyNowOnOffer, minimumRaise } from '@auction/contracts';
import type { AuctionState, BidState } from './decider-types';

/** Whether `a` outranks `b` for the lead: the higher maximum, or on equal maxima the earlier one. */
const outranks = (a: BidState, b: BidState): boolean =>
  a.maxAmount > b.maxAmount || (a.maxAmount === b.maxAmount && a.maxSeq < b.maxSeq);

/** The two standing bids that rank first, kept in the state so a decision never scans the bids. */
export type Ranking = Pick<AuctionState, 'rankFirst' | 'rankSecond'>;

/** The ranking of `bids` from scratch (after one of the two first was retracted). */
export const rankAll = (bids: AuctionState['bids']): Ranking => {
  let first: BidState | null = null;
  let second: BidState | null = null;
  for (const bid of bids.values()) {
    if (bid.retracted) continue;
    if (first === null || outranks(bid, first)) {
      second = first;
      first = bid;
    } else if (second === null || outranks(bid, second)) {
      second = bid;
    }
  }
  return { rankFirst: first?.bidId ?? null, rankSecond: second?.bidId ?? null };
};

/**
 * The ranking once `bidId` was placed or its maximum raised (`state` already holds it): a maximum
 * only rises, so the bid can only move up; the first keeps its place if it is the one raised.
 */
export const rankRaised = (state: AuctionState, bidId: string): Ranking => {
  const bid = state.bids.get(bidId);
  const first = state.rankFirst === null ? undefined : state.bids.get(state.rankFirst);
  const second = state.rankSecond === null ? undefined : state.bids.get(state.rankSecond);
  if (bid === undefined || first?.bidId === bidId)
    return { rankFirst: state.rankFirst, rankSecond: state.rankSecond };
  if (first === undefined) return { rankFirst: bidId, rankSecond: null };
  if (outranks(bid, first)) return { rankFirst: bidId, rankSecond: first.bidId };
  if (second === undefined || second.bidId === bidId || outranks(bid, second))
    return { rankFirst: first.bidId, rankSecond: bidId };
  return { rankFirst: state.rankFirst, rankSecond: state.rankSecond };
};

/** The ranking once `bidId` was retracted (`state` already marks it). */
export const rankRetracted = (state: AuctionState, bidId: string): Ranking =>
  state.rankFirst === bidId || state.rankSecond === bidId
    ? rankAll(state.bids)
    : { rankFirst: state.rankFirst, rankSecond: state.rankSecond };

/** The standing bid that leads by the proxy rules, and the best of the others (its rival). */
export const proxyRanking = (
  state: AuctionState,
): { leader: BidState; rival: BidState | null } | null => {
  const leader = state.rankFirst === null ? undefined : state.bids.get(state.rankFirst);
  if (leader === undefined) return null;
  const rival = state.rankSecond === null ? undefined : state.bids.get(state.rankSecond);
  return { leader, rival: rival ?? null };
};

/**
 * What the leader's bid must stand at: one step of the auction's increment rule above the rival's
 * maximum (the second price), lifted to the reserve when the leader's maximum reaches it, never
 * above the leader's maximum and never below what the leader already bid.
 */
export const proxyPrice = (
  state: AuctionState,
  leader: BidState,
  rival: BidState | null,
): number => {
  let price = leader.amount;
  if (rival !== null)
    price = Math.max(
      price,
      Math.min(leader.maxAmount, minimumRaise(rival.maxAmount, state.increments)),
    );
  const reserve = state.reservePrice;
  if (reserve !== null && leader.maxAmount >= reserve) price = Math.max(price, reserve);
  return price;
};

/**
 * The automatic bid the state calls for after a bid, raise, retraction or reserve change: the
 * leader by maximum brought to its proxy price, and made the leading bid. Null when the leading
 * bid already stands where it should.
 */
export const automaticBid = (
  state: AuctionState,
  now: string,
  endsAt: string | undefined,
): AutomaticBidPlaced | null => {
  const ranking = proxyRanking(state);
  if (ranking === null) return null;
  const { leader, rival } = ranking;
  const price = proxyPrice(state, leader, rival);
  if (price === leader.amount && state.leadingBidId === leader.bidId) return null;
  return {
    type: 'AutomaticBidPlaced',
    data: {
      amount: price,
      at: now,
      auctionId: state.auctionId ?? '',
      bidId: leader.bidId,
      bidderId: leader.bidderId,
      ...(endsAt === undefined ? {} : { endsAt }),
      previousAmount: leader.amount,
    },
  };
};

/** Whether Buy It Now is still on offer (the rule lives in the contracts, for every view). */
export const buyNowOpen = (state: AuctionState): boolean => buyNowOnOffer(state);
