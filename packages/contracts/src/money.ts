import { z } from 'zod';

/** The largest amount the product accepts: $1,000,000,000.00, in cents. */
export const MAX_CENTS = 100_000_000_000;

/** Money inside the system: a non-negative whole number of cents. */
export const Cents = z.number().int().min(0).max(MAX_CENTS);
export type Cents = z.infer<typeof Cents>;

/** Money at the API edge: dollars as a number with at most two decimals. */
export const Dollars = z
  .number()
  .finite()
  .min(0)
  .max(MAX_CENTS / 100)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, {
    message: 'Amounts may have at most two decimals',
  });

export const dollarsToCents = (dollars: number): Cents => Math.round(dollars * 100);
export const centsToDollars = (cents: Cents): number => cents / 100;

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
});
/** `12345` → `"$123.45"` */
export const formatCents = (cents: Cents): string => usd.format(cents / 100);
