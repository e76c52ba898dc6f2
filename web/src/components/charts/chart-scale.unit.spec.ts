import { describe, expect, it } from 'vitest';
import { extentOf, linearScale, niceTicks, timeTicks } from './chart-scale';

describe('chart scale', () => {
  it('spans the values, widens a single one and pads on request', () => {
    expect(extentOf([3, 9, 5])).toEqual({ min: 3, max: 9 });
    expect(extentOf([])).toEqual({ min: 0, max: 1 });
    expect(extentOf([100])).toEqual({ min: 90, max: 110 });
    expect(extentOf([0, 10], 0.1)).toEqual({ min: -1, max: 11 });
    expect(extentOf([1000], 0, 5)).toEqual({ min: 995, max: 1005 });
  });

  it('maps linearly, also onto a reversed range (SVG y grows downwards)', () => {
    const y = linearScale({ min: 0, max: 100 }, 200, 0);
    expect(y(0)).toBe(200);
    expect(y(100)).toBe(0);
    expect(y(25)).toBe(150);
  });

  it('gives round ticks inside the extent', () => {
    expect(niceTicks({ min: 0, max: 100 }, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks({ min: 143, max: 261 }, 4)).toEqual([150, 200, 250]);
    expect(niceTicks({ min: 0.1, max: 0.35 }, 5)).toEqual([0.1, 0.15, 0.2, 0.25, 0.3, 0.35]);
  });

  it('spaces time ticks evenly, ends included', () => {
    expect(timeTicks({ min: 0, max: 30 }, 4)).toEqual([0, 10, 20, 30]);
    expect(timeTicks({ min: 5, max: 5 }, 4)).toEqual([5]);
  });
});
