import { DAY_MS } from './time';

/**
 * Business constants, read by the decider and the ending-soon scheduler (engine), the API (the soft
 * close of new auctions), the web app (the create form's latest end date) and the testkit's
 * reference model and arbitraries. How much a bid must beat the current price by is the auction's
 * increment rule (`increments.ts`).
 */
export const rules = {
  /** $100 */
  minStartingPriceCents: 10_000,
  /**
   * The longest texts people type, in characters once normalised and trimmed: what the API
   * accepts, the web forms check first and the events hold.
   */
  maxLength: {
    title: 200,
    description: 5000,
    categoryName: 80,
    categoryDescription: 1000,
    /** A first or last name, which must also hold at least `minNameLength` characters. */
    name: 60,
  },
  minNameLength: 2,
  maxAuctionDurationMs: 90 * DAY_MS,
  /**
   * The soft close a new auction gets when its seller (or the operator's default) turns it on: a
   * bid in the last 2 minutes moves the end to 2 minutes after it, so nobody wins by bidding in the
   * final second.
   */
  softClose: { windowMs: 2 * 60_000, extensionMs: 2 * 60_000 },
  /** Watchers hear that an auction is about to end this long before its end (`AuctionEndingSoon`). */
  endingSoonLeadMs: 15 * 60_000,
  /**
   * When a bidder may delete (retract) their own bid: within `graceMs` of last entering it, never
   * in the last `closingMs` before the end (at least the longest soft-close window and extension),
   * at most once per auction, and never once an automatic bid raised it or it moved the end.
   */
  retraction: { graceMs: 5 * 60_000, closingMs: 60 * 60_000 },
} as const;
