import { incrementAt, rules } from '@auction/contracts';
import type { AuctionCommand, ErrorCode, IncrementRule } from '@auction/contracts';

/** Where the modelled auction stands; `None` until a CreateAuction is accepted. */
export type ModelStatus = 'None' | 'Live' | 'Sold' | 'Expired' | 'Cancelled';

/** One bid as the model remembers it: retracted bids stay in the list, flagged. */
export interface ModelBid {
  bidId: string;
  bidderId: string;
  amount: number;
  /** The secret maximum (the amount itself for a bid placed without one). */
  maxAmount: number;
  retracted: boolean;
}

/** Everything the model can tell about the auction, recomputed from its list of bids. */
export interface ModelView {
  status: ModelStatus;
  currentBid: number;
  leadingBidId: string | null;
  winnerId: string | null;
  finalPrice: number | null;
  endsAt: string | null;
  startingPrice: number;
  /** How much each bid must beat the current price by. */
  increments: IncrementRule | null;
  reservePrice: number | null;
  buyNowPrice: number | null;
  /** Sorted by bidId. */
  bids: ModelBid[];
}

/** What the model says about one command. */
export type ModelOutcome = { accepted: true } | { accepted: false; code: ErrorCode };

/** A reference model of one auction's rules: apply commands in order, then look. */
export interface ReferenceModel {
  apply(command: AuctionCommand): ModelOutcome;
  view(): ModelView;
}

interface Auction {
  sellerId: string;
  status: Exclude<ModelStatus, 'None'>;
  startingPrice: number;
  endsAt: string;
  increments: IncrementRule;
  /** Soft close: a bid this close to the end pushes the end to the bid's time plus `extensionMs`. */
  softClose: { windowMs: number; extensionMs: number } | null;
  reservePrice: number | null;
  buyNowPrice: number | null;
  /** Sold to a Buy It Now buyer: later bids, raises and purchases hear so. */
  boughtNow: boolean;
}

/**
 * A bid with the moment its maximum was set (on equal maxima the earlier one leads), and what
 * the retraction rules read: when its bidder last entered it, whether an automatic bid raised it,
 * whether it moved the end.
 */
interface Bid extends ModelBid {
  maxSetAt: number;
  enteredAt: number;
  raisedAutomatically: boolean;
  movedEnd: boolean;
}

const accepted: ModelOutcome = { accepted: true };
const refused = (code: ErrorCode): ModelOutcome => ({ accepted: false, code });

const ms = (iso: string): number => Date.parse(iso);

/** The least a bid must beat `price` by: one dollar, or the published table's step at that price. */
const step = (rule: IncrementRule, price: number): number =>
  rule === 'one-dollar' ? 100 : incrementAt(price, 'table');

/**
 * A deliberately naive model of the bidding rules, written from the rules' text alone: a plain list
 * of bids rescanned for every question, so it can be checked by reading. Proxy bidding: the leader
 * stands at the least that beats the second maximum by one step, never above its own maximum,
 * never below where it stood, and at least the reserve once its maximum reaches it.
 */
export const createModel = (): ReferenceModel => {
  let auction: Auction | null = null;
  const bids: Bid[] = [];
  let maxima = 0;
  /** Bids each bidder retracted themselves. */
  const retractions = new Map<string, number>();
  /** Bidders whose bid, raise or maximum raise another's automatic bid answered at once. */
  const answeredBidders = new Set<string>();

  const newBid = (bidId: string, bidderId: string, amount: number, now: string): Bid => ({
    bidId,
    bidderId,
    amount,
    maxAmount: -1,
    maxSetAt: 0,
    retracted: false,
    enteredAt: ms(now),
    raisedAutomatically: false,
    movedEnd: false,
  });

  const activeBids = (): Bid[] => bids.filter((b) => !b.retracted);

  /** Standing bids, the one that leads first. */
  const ranked = (): Bid[] =>
    activeBids().sort((x, y) => y.maxAmount - x.maxAmount || x.maxSetAt - y.maxSetAt);

  const leader = (): Bid | null => ranked()[0] ?? null;

  const findBid = (bidId: string): Bid | undefined => bids.find((b) => b.bidId === bidId);

  const setMaximum = (bid: Bid, maxAmount: number): void => {
    if (maxAmount <= bid.maxAmount) return;
    bid.maxAmount = maxAmount;
    maxima += 1;
    bid.maxSetAt = maxima;
  };

  /** Why a bid, raise, retraction or purchase is refused once the auction is not live. */
  const notLive = (a: Auction): ErrorCode =>
    a.boughtNow ? 'AUCTION_BOUGHT_NOW' : 'AUCTION_NOT_LIVE';

  /**
   * Brings the leader to the price the proxy rules give it. That is an automatic bid when the price
   * rises, or when the bid just placed or raised (`placed`) does not lead; like any bid, it may
   * push the end out. An automatic bid for someone other than the bidder who just entered a bid,
   * raise or maximum (`enteredBy`) answered that bidder.
   */
  const resolveProxies = (
    a: Auction,
    now: string,
    placed: Bid | null,
    enteredBy: string | null = null,
  ): void => {
    const [first, second] = ranked();
    if (first === undefined) return;
    let price = first.amount;
    if (second !== undefined) {
      const beat = second.maxAmount + step(a.increments, second.maxAmount);
      price = Math.max(price, Math.min(first.maxAmount, beat));
    }
    if (a.reservePrice !== null && first.maxAmount >= a.reservePrice) {
      price = Math.max(price, a.reservePrice);
    }
    const automatic = price > first.amount || (placed !== null && placed !== first);
    first.amount = price;
    if (!automatic) return;
    first.raisedAutomatically = true;
    if (softClose(a, now)) first.movedEnd = true;
    if (enteredBy !== null && enteredBy !== first.bidderId) answeredBidders.add(enteredBy);
  };

  const priceProblem = (
    startingPrice: number,
    reserve: number | null,
    buyNow: number | null,
  ): ErrorCode | null => {
    if (reserve !== null && reserve < startingPrice) return 'RESERVE_BELOW_STARTING_PRICE';
    if (buyNow !== null && (buyNow < startingPrice || (reserve !== null && buyNow < reserve)))
      return 'BUY_NOW_TOO_LOW';
    return null;
  };

  /** Buy It Now is on offer until a bid reaches the reserve, or until any bid without one. */
  const buyNowOpen = (a: Auction): boolean => {
    const top = leader();
    if (a.buyNowPrice === null) return false;
    if (top === null) return true;
    return a.reservePrice !== null && top.amount < a.reservePrice;
  };

  const hasEnded = (a: Auction, now: string): boolean => ms(now) >= ms(a.endsAt);

  /** After an accepted bid or raise at `now`: the soft close, if any, pushes the end out (true). */
  const softClose = (a: Auction, now: string): boolean => {
    if (a.softClose === null) return false;
    const remaining = ms(a.endsAt) - ms(now);
    if (remaining > a.softClose.windowMs) return false;
    const pushed = ms(now) + a.softClose.extensionMs;
    if (pushed <= ms(a.endsAt)) return false;
    a.endsAt = new Date(pushed).toISOString();
    return true;
  };

  /**
   * Why a bidder may not delete their own `bid` now, read from the rules' text: not in the
   * auction's last hour; once per auction; never once an automatic bid raised it, it moved the
   * end, or another's automatic bid answered its bidder at once; within five minutes of its
   * bidder last entering it.
   */
  const retractionProblem = (a: Auction, bid: Bid, now: string): ErrorCode | null => {
    if (ms(a.endsAt) - ms(now) <= rules.retraction.closingMs) return 'RETRACTION_CLOSING';
    if ((retractions.get(bid.bidderId) ?? 0) >= 1) return 'RETRACTION_LIMIT_REACHED';
    if (bid.raisedAutomatically || bid.movedEnd || answeredBidders.has(bid.bidderId))
      return 'BID_BINDING';
    if (ms(now) - bid.enteredAt > rules.retraction.graceMs) return 'RETRACTION_GRACE_OVER';
    return null;
  };

  const endTimeProblem = (endsAt: string, now: string): ErrorCode | null => {
    if (ms(endsAt) <= ms(now)) return 'END_TIME_NOT_IN_FUTURE';
    if (ms(endsAt) > ms(now) + rules.maxAuctionDurationMs) return 'END_TIME_TOO_FAR';
    return null;
  };

  const apply = (command: AuctionCommand): ModelOutcome => {
    const now = command.metadata.at;
    const actor = command.metadata.actorId;

    if (command.type === 'CreateAuction') {
      if (auction !== null) return refused('AUCTION_ALREADY_EXISTS');
      const { startingPrice, endsAt } = command.data;
      if (startingPrice < rules.minStartingPriceCents) return refused('STARTING_PRICE_TOO_LOW');
      const reservePrice = command.data.reservePrice ?? null;
      const buyNowPrice = command.data.buyNowPrice ?? null;
      const prices = priceProblem(startingPrice, reservePrice, buyNowPrice);
      if (prices !== null) return refused(prices);
      const problem = endTimeProblem(endsAt, now);
      if (problem !== null) return refused(problem);
      auction = {
        sellerId: actor,
        status: 'Live',
        startingPrice,
        endsAt,
        increments: command.data.increments ?? 'one-dollar',
        softClose: command.data.softClose ?? null,
        reservePrice,
        buyNowPrice,
        boughtNow: false,
      };
      return accepted;
    }

    if (auction === null) return refused('AUCTION_NOT_FOUND');
    const a: Auction = auction;

    switch (command.type) {
      case 'PlaceBid': {
        const { bidId, amount, maxAmount } = command.data;
        if (a.status !== 'Live') return refused(notLive(a));
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        if (actor === a.sellerId) return refused('OWN_AUCTION');
        if (findBid(bidId) !== undefined) return refused('BID_ALREADY_EXISTS');
        const highest = leader();
        const minimum =
          highest === null ? a.startingPrice : highest.amount + step(a.increments, highest.amount);
        if (amount < minimum) return refused('BID_TOO_LOW');
        if (maxAmount !== undefined && maxAmount < amount) return refused('MAXIMUM_BELOW_BID');
        const bid = newBid(bidId, actor, amount, now);
        setMaximum(bid, Math.max(amount, maxAmount ?? 0));
        bids.push(bid);
        bid.movedEnd = softClose(a, now);
        resolveProxies(a, now, bid, actor);
        return accepted;
      }

      case 'BuyNow': {
        const { bidId, price } = command.data;
        if (a.status !== 'Live') return refused(notLive(a));
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        if (actor === a.sellerId) return refused('OWN_AUCTION');
        if (!buyNowOpen(a)) return refused('BUY_NOW_UNAVAILABLE');
        if (price !== a.buyNowPrice) return refused('BUY_NOW_PRICE_CHANGED');
        if (findBid(bidId) !== undefined) return refused('BID_ALREADY_EXISTS');
        const bid = newBid(bidId, actor, price, now);
        setMaximum(bid, price);
        bids.push(bid);
        a.status = 'Sold';
        a.boughtNow = true;
        return accepted;
      }

      case 'EditBid': {
        const { bidId, amount, maxAmount } = command.data;
        if (a.status !== 'Live') return refused(notLive(a));
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        const bid = findBid(bidId);
        if (bid === undefined || bid.retracted) return refused('BID_NOT_FOUND');
        if (bid.bidderId !== actor) return refused('NOT_BID_OWNER');
        if (amount === undefined && maxAmount === undefined) return refused('BID_UNCHANGED');
        const highest = leader() ?? bid;
        const isHighest = highest.bidId === bid.bidId;
        const beat = highest.amount + step(a.increments, highest.amount);
        if (amount !== undefined && (isHighest ? amount <= bid.amount : amount < beat))
          return refused('BID_TOO_LOW');
        if (maxAmount !== undefined) {
          if (maxAmount < (amount ?? bid.amount)) return refused('MAXIMUM_BELOW_BID');
          if (maxAmount <= bid.maxAmount) return refused('MAXIMUM_NOT_RAISED');
          if (amount === undefined && !isHighest && maxAmount < beat) return refused('BID_TOO_LOW');
        }
        bid.enteredAt = ms(now);
        if (amount === undefined) {
          // Only the maximum moves: nothing visible, so the end stays unless an automatic bid follows.
          setMaximum(bid, maxAmount ?? bid.maxAmount);
          resolveProxies(a, now, null, actor);
          return accepted;
        }
        bid.amount = amount;
        setMaximum(bid, Math.max(amount, maxAmount ?? 0));
        if (softClose(a, now)) bid.movedEnd = true;
        resolveProxies(a, now, bid, actor);
        return accepted;
      }

      case 'RetractBid': {
        if (a.status !== 'Live') return refused(notLive(a));
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        const bid = findBid(command.data.bidId);
        if (bid === undefined || bid.retracted) return refused('BID_NOT_FOUND');
        if (bid.bidderId !== actor) return refused('NOT_BID_OWNER');
        // Deleting an account takes its bids back whatever the bidders' rules say.
        if (command.data.reason !== 'account-deleted') {
          const problem = retractionProblem(a, bid, now);
          if (problem !== null) return refused(problem);
          retractions.set(actor, (retractions.get(actor) ?? 0) + 1);
        }
        bid.retracted = true;
        resolveProxies(a, now, null);
        return accepted;
      }

      case 'EditAuction': {
        const { startingPrice, endsAt, reservePrice, buyNowPrice } = command.data;
        if (actor !== a.sellerId) return refused('NOT_AUCTION_OWNER');
        if (a.status !== 'Live') return refused('AUCTION_NOT_LIVE');
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        const anyActiveBid = activeBids().length > 0;
        const priceChanges = startingPrice !== undefined && startingPrice !== a.startingPrice;
        if (priceChanges) {
          if (anyActiveBid) return refused('STARTING_PRICE_LOCKED');
          if (startingPrice < rules.minStartingPriceCents) return refused('STARTING_PRICE_TOO_LOW');
        }
        const reserveChanges = reservePrice !== undefined && reservePrice !== a.reservePrice;
        if (reserveChanges && anyActiveBid) {
          const lowers =
            reservePrice === null || (a.reservePrice !== null && reservePrice < a.reservePrice);
          if (!lowers) return refused('RESERVE_LOCKED');
        }
        const buyNowChanges = buyNowPrice !== undefined && buyNowPrice !== a.buyNowPrice;
        if (buyNowChanges && anyActiveBid) return refused('BUY_NOW_LOCKED');
        const prices = priceProblem(
          priceChanges ? startingPrice : a.startingPrice,
          reserveChanges ? reservePrice : a.reservePrice,
          buyNowChanges ? buyNowPrice : a.buyNowPrice,
        );
        if (prices !== null) return refused(prices);
        const endChanges = endsAt !== undefined && ms(endsAt) !== ms(a.endsAt);
        if (endChanges) {
          const problem = endTimeProblem(endsAt, now);
          if (problem !== null) return refused(problem);
          if (anyActiveBid && ms(endsAt) < ms(a.endsAt)) return refused('END_TIME_EARLIER');
        }
        if (priceChanges) a.startingPrice = startingPrice;
        if (endChanges) a.endsAt = endsAt;
        if (reserveChanges) a.reservePrice = reservePrice;
        if (buyNowChanges) a.buyNowPrice = buyNowPrice;
        resolveProxies(a, now, null);
        return accepted;
      }

      case 'CancelAuction': {
        if (actor !== a.sellerId) return refused('NOT_AUCTION_OWNER');
        if (a.status === 'Cancelled') return accepted;
        if (a.status === 'Sold' || a.status === 'Expired') return refused('AUCTION_CLOSED');
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        a.status = 'Cancelled';
        return accepted;
      }

      case 'CloseAuction': {
        if (a.status !== 'Live') return accepted;
        if (!hasEnded(a, now)) return refused('AUCTION_NOT_ENDED');
        const top = leader();
        const reserveMet =
          a.reservePrice === null || (top !== null && top.amount >= a.reservePrice);
        a.status = top !== null && reserveMet ? 'Sold' : 'Expired';
        return accepted;
      }

      case 'AnnounceEndingSoon': {
        // The watchlist's "about to end": too early is refused; otherwise announced or a no-op.
        if (a.status !== 'Live' || hasEnded(a, now)) return accepted;
        if (ms(now) < ms(a.endsAt) - rules.endingSoonLeadMs) return refused('AUCTION_NOT_ENDED');
        return accepted;
      }

      default: {
        const unexpected: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
      }
    }
  };

  const view = (): ModelView => {
    const highest = leader();
    const sold = auction?.status === 'Sold' && highest !== null;
    return {
      status: auction?.status ?? 'None',
      currentBid: highest?.amount ?? 0,
      leadingBidId: highest?.bidId ?? null,
      winnerId: sold ? highest.bidderId : null,
      finalPrice: sold ? highest.amount : null,
      endsAt: auction?.endsAt ?? null,
      startingPrice: auction?.startingPrice ?? 0,
      increments: auction?.increments ?? null,
      reservePrice: auction?.reservePrice ?? null,
      buyNowPrice: auction?.buyNowPrice ?? null,
      bids: bids
        .map(({ bidId, bidderId, amount, maxAmount, retracted }) => ({
          bidId,
          bidderId,
          amount,
          maxAmount,
          retracted,
        }))
        .sort((x, y) => (x.bidId < y.bidId ? -1 : x.bidId > y.bidId ? 1 : 0)),
    };
  };

  return { apply, view };
};
