import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Cents,
  Dollars,
  MAX_CENTS,
  centsToDollars,
  dollarsToCents,
  formatCents,
  hasAtMostTwoDecimals,
} from './money';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 1000);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const params = { numRuns: NUM_RUNS, seed: SEED };

/** Every amount the product accepts, small ones and the largest ones drawn often. */
const cents = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }),
  fc.integer({ min: 0, max: MAX_CENTS }),
  fc.integer({ min: MAX_CENTS - 100_000, max: MAX_CENTS }),
);

describe('money, for every amount in cents', () => {
  it('cents → dollars → cents gives back the same cents', () => {
    fc.assert(
      fc.property(cents, (amount) => {
        expect(dollarsToCents(centsToDollars(amount))).toBe(amount);
      }),
      params,
    );
  });

  it('its dollars have at most two decimals and pass the API edge (Dollars)', () => {
    fc.assert(
      fc.property(cents, (amount) => {
        const dollars = centsToDollars(amount);
        expect(hasAtMostTwoDecimals(dollars)).toBe(true);
        expect(hasAtMostTwoDecimals(dollars.toFixed(2))).toBe(true);
        expect(Dollars.safeParse(dollars).success).toBe(true);
        expect(Cents.safeParse(dollarsToCents(dollars)).success).toBe(true);
      }),
      params,
    );
  });

  it('a sum worked out in binary floating point still rounds to the exact cents', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_CENTS / 2 }),
        fc.integer({ min: 0, max: MAX_CENTS / 2 }),
        (a, b) => {
          expect(dollarsToCents(centsToDollars(a) + centsToDollars(b))).toBe(a + b);
        },
      ),
      params,
    );
  });

  it('a third decimal digit is refused, as a number and as text', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_CENTS - 1 }),
        fc.integer({ min: 1, max: 9 }),
        (amount, thousandth) => {
          const text = `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}${thousandth}`;
          expect(hasAtMostTwoDecimals(text)).toBe(false);
          expect(hasAtMostTwoDecimals(Number(text))).toBe(false);
          expect(Dollars.safeParse(Number(text)).success).toBe(false);
        },
      ),
      params,
    );
  });

  it('formatCents prints what Intl.NumberFormat prints for US dollars, whatever the amount', () => {
    const usd = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
    });
    fc.assert(
      fc.property(
        fc.oneof(cents, fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer()),
        (amount) => {
          expect(formatCents(amount)).toBe(usd.format(amount / 100));
        },
      ),
      params,
    );
    for (const amount of [0, 1, 9, 10, 99, 100, 999, 1000, 99_999, 100_000, 123_456_789, MAX_CENTS])
      expect(formatCents(amount)).toBe(usd.format(amount / 100));
  });

  it('formatCents prints dollars, two decimals and thousands separators, that read back as the amount', () => {
    fc.assert(
      fc.property(cents, (amount) => {
        const printed = formatCents(amount);
        expect(printed).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(dollarsToCents(Number(printed.replace(/[$,]/g, '')))).toBe(amount);
      }),
      params,
    );
  });
});
