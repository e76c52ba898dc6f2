import { DAY_MS } from './time';

/** Business constants of design §4 and spec §9, shared by the decider, the API and the web app. */
export const rules = {
  /** $100 */
  minStartingPriceCents: 10_000,
  /** Later bids must beat the current highest by at least $1. */
  minIncrementCents: 100,
  maxAuctionDurationMs: 90 * DAY_MS,
} as const;
