import { describe, expect, it } from 'vitest';
import { errorCatalog } from './errors';
import { SoftClose } from './events/auction-events';
import { Cents, formatCents } from './money';
import { rules } from './rules';
import { DAY_MS } from './time';

describe('the business rules', () => {
  it('the default soft close is one the event schema accepts', () => {
    expect(SoftClose.safeParse(rules.softClose).success).toBe(true);
    expect(rules.softClose.windowMs).toBeGreaterThan(0);
    expect(rules.softClose.extensionMs).toBeGreaterThan(0);
  });

  it('a soft-close extension stays within the ending-soon lead, so it is not announced again', () => {
    // `announceEndingSoon` treats a new end whose lead starts at or before the announced end as
    // the same closing stretch: a bid before the end moves it by at most `extensionMs`.
    expect(rules.softClose.extensionMs).toBeLessThanOrEqual(rules.endingSoonLeadMs);
  });

  it('the ending-soon lead is shorter than the longest auction', () => {
    expect(rules.endingSoonLeadMs).toBeGreaterThan(0);
    expect(rules.endingSoonLeadMs).toBeLessThan(rules.maxAuctionDurationMs);
  });

  it('the longest auction is the number of days the refusal names', () => {
    expect(Number.isInteger(rules.maxAuctionDurationMs / DAY_MS)).toBe(true);
    expect(errorCatalog.END_TIME_TOO_FAR.message).toContain(
      `at most ${rules.maxAuctionDurationMs / DAY_MS} days`,
    );
  });

  it('the smallest starting price is a valid amount, the one the refusal names', () => {
    expect(Cents.safeParse(rules.minStartingPriceCents).success).toBe(true);
    expect(rules.minStartingPriceCents).toBeGreaterThan(0);
    expect(errorCatalog.STARTING_PRICE_TOO_LOW.message).toContain(
      `at least ${formatCents(rules.minStartingPriceCents).replace(/\.00$/, '')}`,
    );
  });
});
