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
 * The one rule for money coming in: at most two digits after the point, judged exactly, and
 * nothing rounded for the client. A number is judged as JavaScript prints it (`0.1 + 0.2` fails);
 * text as written, trailing zeros aside (`"100.100"` passes). NaN and ±Infinity fail.
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
export const formatCents = (cents: Cents): string => {
  // Whole cents up to the largest amount (every amount an event carries) are printed by hand: the
  // messages a rebuild writes print one or two amounts per bid, and `Intl` costs microseconds each.
  // Beyond it `cents / 100` is not exact to the cent, and `Intl` prints what the division gives.
  if (!Number.isInteger(cents) || cents < 0 || cents > MAX_CENTS) return usd.format(cents / 100);
  const dollars = String(Math.floor(cents / 100));
  const rest = cents % 100;
  let grouped = dollars.slice(0, ((dollars.length - 1) % 3) + 1);
  for (let i = grouped.length; i < dollars.length; i += 3) grouped += `,${dollars.slice(i, i + 3)}`;
  return `$${grouped}.${rest < 10 ? '0' : ''}${rest}`;
};

/** `10000` → `"$100"`, `12345` → `"$123.45"`: whole dollars without cents, as the messages write limits. */
export const formatWholeCents = (cents: Cents): string =>
  cents % 100 === 0 ? usd.format(cents / 100).replace(/\.00$/, '') : usd.format(cents / 100);
