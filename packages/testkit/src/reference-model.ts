import { incrementAt, rules } from '@auction/contracts';
import type { AuctionCommand, ErrorCode } from '@auction/contracts';

/** Where the modelled auction stands; `None` until a CreateAuction is accepted. */
export type ModelStatus = 'None' | 'Live' | 'Sold' | 'Expired' | 'Cancelled';

/** One bid as the model remembers it: retracted bids stay in the list, flagged. */
export interface ModelBid {
  bidId: string;
  bidderId: string;
  amount: number;
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
  /** Sorted by bidId. */
  bids: ModelBid[];
}

/** What the model says about one command. */
export type ModelOutcome = { accepted: true } | { accepted: false; code: ErrorCode };

/** A reference model of one auction's rules (design §4): apply commands in order, then look. */
export interface ReferenceModel {
  apply(command: AuctionCommand): ModelOutcome;
  view(): ModelView;
}

interface Auction {
  sellerId: string;
  status: Exclude<ModelStatus, 'None'>;
  startingPrice: number;
  endsAt: string;
  /** Soft close: a bid this close to the end pushes the end to the bid's time plus `extensionMs`. */
  softClose: { windowMs: number; extensionMs: number } | null;
}

const accepted: ModelOutcome = { accepted: true };
const refused = (code: ErrorCode): ModelOutcome => ({ accepted: false, code });

const ms = (iso: string): number => Date.parse(iso);

/**
 * A deliberately naive model of the bidding rules, written from the design text alone: it keeps
 * a plain list of bids and rescans it for every question, so it can be checked by reading.
 */
export const createModel = (): ReferenceModel => {
  let auction: Auction | null = null;
  const bids: ModelBid[] = [];

  const activeBids = (): ModelBid[] => bids.filter((b) => !b.retracted);

  const highestActiveBid = (): ModelBid | null => {
    let best: ModelBid | null = null;
    for (const bid of activeBids()) {
      if (best === null || bid.amount > best.amount) best = bid;
    }
    return best;
  };

  const findBid = (bidId: string): ModelBid | undefined => bids.find((b) => b.bidId === bidId);

  const hasEnded = (a: Auction, now: string): boolean => ms(now) >= ms(a.endsAt);

  /** After an accepted bid or raise at `now`: the soft close, if any, pushes the end out. */
  const softClose = (a: Auction, now: string): void => {
    if (a.softClose === null) return;
    const remaining = ms(a.endsAt) - ms(now);
    if (remaining > a.softClose.windowMs) return;
    const pushed = ms(now) + a.softClose.extensionMs;
    if (pushed > ms(a.endsAt)) a.endsAt = new Date(pushed).toISOString();
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
      const problem = endTimeProblem(endsAt, now);
      if (problem !== null) return refused(problem);
      auction = {
        sellerId: actor,
        status: 'Live',
        startingPrice,
        endsAt,
        softClose: command.data.softClose ?? null,
      };
      return accepted;
    }

    if (auction === null) return refused('AUCTION_NOT_FOUND');
    const a: Auction = auction;

    switch (command.type) {
      case 'PlaceBid': {
        const { bidId, amount } = command.data;
        if (a.status !== 'Live') return refused('AUCTION_NOT_LIVE');
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        if (actor === a.sellerId) return refused('OWN_AUCTION');
        if (findBid(bidId) !== undefined) return refused('BID_ALREADY_EXISTS');
        const highest = highestActiveBid();
        const minimum =
          highest === null ? a.startingPrice : highest.amount + incrementAt(highest.amount);
        if (amount < minimum) return refused('BID_TOO_LOW');
        bids.push({ bidId, bidderId: actor, amount, retracted: false });
        softClose(a, now);
        return accepted;
      }

      case 'EditBid': {
        const { bidId, amount } = command.data;
        if (a.status !== 'Live') return refused('AUCTION_NOT_LIVE');
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        const bid = findBid(bidId);
        if (bid === undefined || bid.retracted) return refused('BID_NOT_FOUND');
        if (bid.bidderId !== actor) return refused('NOT_BID_OWNER');
        const highest = highestActiveBid() ?? bid;
        const isHighest = highest.bidId === bid.bidId;
        const tooLow = isHighest
          ? amount <= bid.amount
          : amount < highest.amount + incrementAt(highest.amount);
        if (tooLow) return refused('BID_TOO_LOW');
        bid.amount = amount;
        softClose(a, now);
        return accepted;
      }

      case 'RetractBid': {
        if (a.status !== 'Live') return refused('AUCTION_NOT_LIVE');
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        const bid = findBid(command.data.bidId);
        if (bid === undefined || bid.retracted) return refused('BID_NOT_FOUND');
        if (bid.bidderId !== actor) return refused('NOT_BID_OWNER');
        bid.retracted = true;
        return accepted;
      }

      case 'EditAuction': {
        const { startingPrice, endsAt } = command.data;
        if (actor !== a.sellerId) return refused('NOT_AUCTION_OWNER');
        if (a.status !== 'Live') return refused('AUCTION_NOT_LIVE');
        if (hasEnded(a, now)) return refused('AUCTION_ENDED');
        const anyActiveBid = activeBids().length > 0;
        const priceChanges = startingPrice !== undefined && startingPrice !== a.startingPrice;
        if (priceChanges) {
          if (anyActiveBid) return refused('STARTING_PRICE_LOCKED');
          if (startingPrice < rules.minStartingPriceCents) return refused('STARTING_PRICE_TOO_LOW');
        }
        const endChanges = endsAt !== undefined && ms(endsAt) !== ms(a.endsAt);
        if (endChanges) {
          const problem = endTimeProblem(endsAt, now);
          if (problem !== null) return refused(problem);
          if (anyActiveBid && ms(endsAt) < ms(a.endsAt)) return refused('END_TIME_EARLIER');
        }
        if (priceChanges) a.startingPrice = startingPrice;
        if (endChanges) a.endsAt = endsAt;
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
        a.status = highestActiveBid() === null ? 'Expired' : 'Sold';
        return accepted;
      }

      default: {
        const unexpected: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unexpected)}`);
      }
    }
  };

  const view = (): ModelView => {
    const highest = highestActiveBid();
    const sold = auction?.status === 'Sold' && highest !== null;
    return {
      status: auction?.status ?? 'None',
      currentBid: highest?.amount ?? 0,
      leadingBidId: highest?.bidId ?? null,
      winnerId: sold ? highest.bidderId : null,
      finalPrice: sold ? highest.amount : null,
      endsAt: auction?.endsAt ?? null,
      startingPrice: auction?.startingPrice ?? 0,
      bids: bids
        .map((b) => ({ ...b }))
        .sort((x, y) => (x.bidId < y.bidId ? -1 : x.bidId > y.bidId ? 1 : 0)),
    };
  };

  return { apply, view };
};
