import { describe, expect, it } from 'vitest';
import {
  Cents,
  Dollars,
  MAX_CENTS,
  centsToDollars,
  dollarsToCents,
  formatCents,
  formatWholeCents,
  hasAtMostTwoDecimals,
} from './money';

describe('hasAtMostTwoDecimals', () => {
  it.each([
    ['a whole amount', 100],
    ['one decimal', 100.1],
    ['100.10, the same number as 100.1', 100.1],
    ['two decimals', 120.01],
    ['a cent', 0.01],
    ['zero', 0],
    ['negative zero', -0],
    ['a negative amount with two decimals (the sign is not its business)', -12.34],
    ['the largest amount', MAX_CENTS / 100],
    ['a large amount with cents', 123_456_789_012.34],
    ['1e21, printed with an exponent but whole', 1e21],
    ['1.5e300', 1.5e300],
    ['the largest number', Number.MAX_VALUE],
    ['100.3, which 100.1 + 0.2 happens to print as', 100.1 + 0.2],
  ])('accepts %s', (_name, amount) => {
    expect(hasAtMostTwoDecimals(amount)).toBe(true);
  });

  it.each([
    ['102.009999999 (within a tolerance of 1e-6 cents)', 102.009999999],
    ['three decimals', 100.125],
    ['1e-7', 1e-7],
    ['1.5e-7', 1.5e-7],
    ['the smallest number', Number.MIN_VALUE],
    ['0.1 + 0.2 (0.30000000000000004)', 0.1 + 0.2],
    ['150 + 0.1 + 0.2 (150.29999999999998)', 150 + 0.1 + 0.2],
    ['a negative amount with three decimals', -1.005],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
  ])('refuses %s', (_name, amount) => {
    expect(hasAtMostTwoDecimals(amount)).toBe(false);
  });

  it.each([
    ['100', true],
    ['100.1', true],
    ['100.10', true],
    ['100.100', true],
    [' 100.01 ', true],
    ['-100.01', true],
    ['100.001', false],
    ['102.009999999', false],
    // Number() reads it as 100.1: the text says what the sender meant.
    ['100.100000000000000000001', false],
    ['1e-7', false],
    ['1e2', true],
    ['', false],
    ['abc', false],
    ['NaN', false],
    ['Infinity', false],
    ['0x10', false],
    ['1.2.3', false],
  ])('judges the numeral %j as written: %s', (numeral, expected) => {
    expect(hasAtMostTwoDecimals(numeral)).toBe(expected);
  });
});

describe('Dollars', () => {
  it('refuses more than two decimals with the message users see', () => {
    const result = Dollars.safeParse(102.009999999);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Amounts may have at most two decimals');
  });

  it('accepts two decimals, and the cents are exact', () => {
    for (const amount of [100.1, 120.01, 999_999_999.99, 0.29, 1.15, 4.35]) {
      expect(Dollars.safeParse(amount).success).toBe(true);
      expect(dollarsToCents(amount)).toBe(Math.round(amount * 100));
      expect(Number.isInteger(dollarsToCents(amount))).toBe(true);
    }
    expect(dollarsToCents(4.35)).toBe(435);
    expect(dollarsToCents(1.15)).toBe(115);
  });
});

describe('the largest amount (MAX_CENTS)', () => {
  it('is $1,000,000,000.00, a whole number of cents that doubles keep exactly', () => {
    expect(formatCents(MAX_CENTS)).toBe('$1,000,000,000.00');
    expect(Number.isSafeInteger(MAX_CENTS)).toBe(true);
  });

  it('is the last amount Cents and Dollars accept', () => {
    expect(Cents.safeParse(MAX_CENTS).success).toBe(true);
    expect(Cents.safeParse(MAX_CENTS + 1).success).toBe(false);
    expect(Dollars.safeParse(MAX_CENTS / 100).success).toBe(true);
    expect(Dollars.safeParse(MAX_CENTS / 100 + 0.01).success).toBe(false);
  });

  it('Cents refuses a negative amount, a fraction of a cent and a non-number', () => {
    for (const value of [-1, 0.5, Number.NaN, '100', null])
      expect(Cents.safeParse(value).success).toBe(false);
    expect(Cents.safeParse(0).success).toBe(true);
  });

  it('Dollars refuses a negative amount and infinity', () => {
    for (const value of [-0.01, Number.POSITIVE_INFINITY, Number.NaN, '1.00'])
      expect(Dollars.safeParse(value).success).toBe(false);
  });
});

describe('dollarsToCents', () => {
  it('rounds to the nearest cent (half away from zero as Math.round does, read on the double)', () => {
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(150 + 0.1 + 0.2)).toBe(15_030);
    expect(dollarsToCents(1.239)).toBe(124);
    expect(dollarsToCents(1.231)).toBe(123);
    expect(dollarsToCents(0.005)).toBe(1);
    // 1.005 is stored as 1.00499999999999989…: it rounds down.
    expect(dollarsToCents(1.005)).toBe(100);
  });

  it('centsToDollars divides by a hundred', () => {
    expect(centsToDollars(12_345)).toBe(123.45);
    expect(centsToDollars(5)).toBe(0.05);
    expect(centsToDollars(0)).toBe(0);
  });
});

describe('formatCents', () => {
  it.each([
    [0, '$0.00'],
    [5, '$0.05'],
    [100, '$1.00'],
    [12_345, '$123.45'],
    [10_000, '$100.00'],
    [123_456_789, '$1,234,567.89'],
  ])('prints %i cents as %s', (amount, printed) => {
    expect(formatCents(amount)).toBe(printed);
  });
});

describe('formatWholeCents', () => {
  it.each([
    [10_000, '$100'],
    [100, '$1'],
    [MAX_CENTS, '$1,000,000,000'],
    [10_050, '$100.50'],
    [1, '$0.01'],
  ])('%d cents: %s', (cents, text) => {
    expect(formatWholeCents(cents)).toBe(text);
  });
});
