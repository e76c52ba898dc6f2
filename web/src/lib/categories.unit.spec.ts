import { fixedCategories } from '@auction/contracts';
import { describe, expect, it } from 'vitest';
import { filterCategoryNames } from './categories';

const FIXED = fixedCategories.map(({ name }) => name);
const named = (...names: string[]) => names.map((name) => ({ name }));

describe('the All Auctions category filter', () => {
  it("lists the spec's eight in its order even with no categories fetched", () => {
    expect(filterCategoryNames([])).toEqual(FIXED);
  });

  it('lists the categories users made after the eight, by name, each once', () => {
    const fetched = named('Vintage Radios', 'Antiques', 'board games', 'Art & Collectibles');
    expect(filterCategoryNames([...fetched, ...named('Vintage Radios')])).toEqual([
      ...FIXED,
      'board games',
      'Vintage Radios',
    ]);
  });

  it('keeps a chosen category no list holds (a link to a filter), and adds nothing otherwise', () => {
    expect(filterCategoryNames(named('Radios'), 'Clocks')).toEqual([...FIXED, 'Radios', 'Clocks']);
    expect(filterCategoryNames(named('Radios'), 'Radios')).toEqual([...FIXED, 'Radios']);
    expect(filterCategoryNames([], 'Gaming')).toEqual(FIXED);
  });
});
