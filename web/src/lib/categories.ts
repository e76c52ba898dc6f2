import { fixedCategories } from '@auction/contracts';

const presentation = {
  'art-collectibles': { label: '2.5k+', icon: 'palette' },
  'jewelry-watches': { label: '1.8k+', icon: 'gem' },
  vehicles: { label: '950+', icon: 'car' },
  'real-estate': { label: '420+', icon: 'house' },
  fashion: { label: '3.2k+', icon: 'shirt' },
  electronics: { label: '1.5k+', icon: 'laptop' },
  gaming: { label: '890+', icon: 'gamepad' },
  antiques: { label: '670+', icon: 'vase' },
} as const satisfies Record<(typeof fixedCategories)[number]['categoryId'], object>;

/** The fixed categories of spec §2, with the home page's approximate item counts and icons. */
export const FIXED_CATEGORIES = fixedCategories.map(({ categoryId, name }) => ({
  name,
  ...presentation[categoryId],
}));

/**
 * The All Auctions category filter's names: the spec's eight in its order, then every other
 * category (those users made) by name, and `chosen` (a filter from the URL) if no list holds it.
 */
export const filterCategoryNames = (
  categories: readonly { readonly name: string }[],
  chosen = '',
): string[] => {
  const fixed: string[] = FIXED_CATEGORIES.map(({ name }) => name);
  const others = [...new Set(categories.map(({ name }) => name))]
    .filter((name) => !fixed.includes(name))
    .sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : 1));
  const names = [...fixed, ...others];
  return chosen && !names.includes(chosen) ? [...names, chosen] : names;
};
