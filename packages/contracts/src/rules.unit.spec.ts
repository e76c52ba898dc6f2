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

  it('no bid that a soft close let move the end can be retracted before that end', () => {
    // A bid in the window leaves at most `extensionMs` (and the window at most `windowMs`) to
    // the end: both fit in the last stretch where retractions are refused, for every soft close
    // an auction may have.
    const { closingMs } = rules.retraction;
    expect(SoftClose.safeParse({ windowMs: closingMs, extensionMs: closingMs }).success).toBe(true);
    expect(SoftClose.safeParse({ windowMs: closingMs + 1, extensionMs: 1000 }).success).toBe(false);
    expect(SoftClose.safeParse({ windowMs: 1000, extensionMs: closingMs + 1 }).success).toBe(false);
  });

  it('the retraction refusals name the grace period and the closing stretch they enforce', () => {
    const { graceMs, closingMs } = rules.retraction;
    expect(graceMs).toBeGreaterThan(0);
    expect(graceMs).toBeLessThan(closingMs);
    expect(errorCatalog.RETRACTION_GRACE_OVER.message).toContain(`${graceMs / 60_000} minutes`);
    expect(closingMs).toBe(60 * 60_000);
    expect(errorCatalog.RETRACTION_CLOSING.message).toContain('last hour');
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
