import { describe, expect, it } from 'vitest';
import { fixedCategories } from './categories';

describe('the fixed categories', () => {
  it('are the spec’s eight, in its order, each with its own id', () => {
    expect(fixedCategories.map(({ name }) => name)).toEqual([
      'Art & Collectibles',
      'Jewelry & Watches',
      'Vehicles',
      'Real Estate',
      'Fashion',
      'Electronics',
      'Gaming',
      'Antiques',
    ]);
    expect(new Set(fixedCategories.map(({ categoryId }) => categoryId)).size).toBe(8);
  });
});
