import { z } from 'zod';

/** The largest amount the product accepts: $1,000,000,000.00, in cents. */
export const MAX_CENTS = 100_000_000_000;

/** Money inside the system: a non-negative whole number of cents. */
export const Cents = z.number().int().min(0).max(MAX_CENTS);
export type Cents = z.infer<typeof Cents>;

/** A numeral: sign, digits, an optional fraction, an optional exponent (as JavaScript prints numbers). */
const NUMERAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e([+-]?\d+))?$/i;

/** How many digits a numeral has after the point, trailing zeros not counted; NaN for other text. */
const decimalPlaces = (numeral: string): number => {
  const text = numeral.trim();
  const match = NUMERAL.exec(text);
  if (!match) return Number.NaN;
  const fraction = (text.split(/e/i)[0]?.split('.')[1] ?? '').replace(/0+$/, '');
  return Math.max(0, fraction.length - Number(match[1] ?? 0));
};

/**
 * The one rule for money coming in: at most two digits after the point, judged exactly.
 *
 * A number is judged by its shortest decimal representation, the one JavaScript prints
 * (`String(n)`, exponent included): `100.1` and `100.10` (the same number) pass; `102.009999999`,
 * `1e-7` and `0.1 + 0.2` (which prints `0.30000000000000004`) do not. So a client that does
 * arithmetic in binary floating point must round to cents before it sends an amount: nothing is
 * rounded for it here. NaN and ±Infinity do not pass; the sign is not this rule's business.
 *
 * Text (a form field) is judged as written, trailing zeros of the fraction not counted:
 * `"100.100"` passes, `"100.100000000000000000001"` does not, although `Number()` reads it as
 * exactly `100.1`. A JSON number cannot be judged as written: the parser has already read it as
 * the nearest double, so a literal with more digits than a double holds is judged as that double.
 */
export const hasAtMostTwoDecimals = (amount: number | string): boolean =>
  typeof amount === 'number'
    ? Number.isFinite(amount) && decimalPlaces(String(amount)) <= 2
    : decimalPlaces(amount) <= 2;

/** Money at the API edge: dollars as a number with at most two decimals. */
export const Dollars = z
  .number()
  .finite()
  .min(0)
  .max(MAX_CENTS / 100)
  .refine(hasAtMostTwoDecimals, { message: 'Amounts may have at most two decimals' });

export const dollarsToCents = (dollars: number): Cents => Math.round(dollars * 100);
export const centsToDollars = (cents: Cents): number => cents / 100;

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
});
/** `12345` → `"$123.45"` */
export const formatCents = (cents: Cents): string => usd.format(cents / 100);

/** `10000` → `"$100"`, `12345` → `"$123.45"`: whole dollars without cents, as the messages write limits. */
export const formatWholeCents = (cents: Cents): string =>
  cents % 100 === 0 ? usd.format(cents / 100).replace(/\.00$/, '') : usd.format(cents / 100);
