import { DAY_MS } from './time';

/**
 * Business constants shared by the decider, the API and the web app. How much a bid must beat the
 * current price by is the increment table (`increments.ts`).
 */
export const rules = {
  /** $100 */
  minStartingPriceCents: 10_000,
  maxAuctionDurationMs: 90 * DAY_MS,
} as const;
