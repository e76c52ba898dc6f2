import { describe, expect, it } from 'vitest';
import { bidIncrements, incrementAt, minimumRaise } from './increments';

describe('the increment table rule', () => {
  it.each([
    [0, 5],
    [99, 5],
    [100, 25],
    [499, 25],
    [500, 50],
    [2_499, 50],
    [2_500, 100],
    [9_999, 100],
    [10_000, 250],
    [24_999, 250],
    [25_000, 500],
    [49_999, 500],
    [50_000, 1_000],
    [99_999, 1_000],
    [100_000, 2_500],
    [249_999, 2_500],
    [250_000, 5_000],
    [499_999, 5_000],
    [500_000, 10_000],
    [100_000_000_000, 10_000],
  ])('at %i cents the increment is %i cents', (price, increment) => {
    expect(incrementAt(price, 'table')).toBe(increment);
  });

  it('rows start at rising prices with rising increments', () => {
    for (const [index, row] of bidIncrements.entries()) {
      const before = bidIncrements[index - 1];
      if (!before) continue;
      expect(row.fromCents).toBeGreaterThan(before.fromCents);
      expect(row.incrementCents).toBeGreaterThan(before.incrementCents);
    }
  });

  it('the smallest raise is the price plus its increment', () => {
    expect(minimumRaise(10_000, 'table')).toBe(10_250);
    expect(minimumRaise(24_999, 'table')).toBe(25_249);
    expect(minimumRaise(25_000, 'table')).toBe(25_500);
  });
});

describe('the one-dollar rule', () => {
  it.each([0, 99, 10_000, 24_999, 25_000, 500_000, 100_000_000_000])(
    'at %i cents a bid must be $1 more',
    (price) => {
      expect(incrementAt(price, 'one-dollar')).toBe(100);
      expect(minimumRaise(price, 'one-dollar')).toBe(price + 100);
    },
  );
});
