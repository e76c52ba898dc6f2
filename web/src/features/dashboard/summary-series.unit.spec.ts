import type { WinningItem } from '@auction/contracts';
import { describe, expect, it } from 'vitest';
import { winningsSeries } from './summary-series';

const won = (id: string, wonDate: string, finalPrice: number): WinningItem => ({
  id,
  title: `Item ${id}`,
  description: '',
  image: null,
  finalPrice,
  originalPrice: 100,
  wonDate,
  category: null,
  categoryId: 'c',
  seller: null,
  sellerId: 's',
});

describe('the dashboard summary charts', () => {
  it('puts each win at its time and price, and the running total in time order', () => {
    const [total, each] = winningsSeries([
      won('b', '2030-01-02T00:00:00.000Z', 250),
      won('a', '2030-01-01T00:00:00.000Z', 120),
    ]);
    expect(each?.points.map((p) => [p.key, p.y])).toEqual([
      ['a', 120],
      ['b', 250],
    ]);
    expect(total?.points.map((p) => p.y)).toEqual([120, 370]);
    expect(total?.step).toBe(true);
  });
});
