import { type AutomaticBidPlaced, buyNowOnOffer, minimumRaise } from '@auction/contracts';
import type { AuctionState, BidState } from './decider-types';

/** Whether `a` outranks `b` for the lead: the higher maximum, or on equal maxima the earlier one. */
const outranks = (a: BidState, b: BidState): boolean =>
  a.maxAmount > b.maxAmount || (a.maxAmount === b.maxAmount && a.maxSeq < b.maxSeq);

/** The standing bid that leads by the proxy rules, and the best of the others (its rival). */
export const proxyRanking = (
  state: AuctionState,
): { leader: BidState; rival: BidState | null } | null => {
  let leader: BidState | null = null;
  let rival: BidState | null = null;
  for (const bid of state.bids.values()) {
    if (bid.retracted) continue;
    if (leader === null || outranks(bid, leader)) {
      rival = leader;
      leader = bid;
    } else if (rival === null || outranks(bid, rival)) {
      rival = bid;
    }
  }
  return leader === null ? null : { leader, rival };
};

/**
 * What the leader's bid must stand at: one increment above the rival's maximum (the second price),
 * lifted to the reserve when the leader's maximum reaches it, never above the leader's maximum and
 * never below what the leader already bid.
 */
export const proxyPrice = (
  state: AuctionState,
  leader: BidState,
  rival: BidState | null,
): number => {
  let price = leader.amount;
  if (rival !== null)
    price = Math.max(price, Math.min(leader.maxAmount, minimumRaise(rival.maxAmount)));
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
