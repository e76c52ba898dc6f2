import { normaliseCategoryName } from '@auction/contracts';
import unhomoglyph from 'unhomoglyph';

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The confusable skeleton of Unicode TR39 (section 4): two strings that look alike (`Е` and `E`,
 * `rn` and `m`) have the same one. The data is `confusables.txt` as the `unhomoglyph` package
 * ships it; its version is pinned, because other data gives other skeletons.
 */
export const confusableSkeleton = (text: string): string =>
  unhomoglyph(text.normalize('NFD').replace(DEFAULT_IGNORABLE, '')).normalize('NFD');

const collapse = (text: string): string => text.trim().replace(/\s+/g, ' ');

/** Skeleton and lower case in turn until neither changes anything (a few rounds at most). */
const settle = (text: string): string => {
  let key = text;
  for (let round = 0; round < 4; round += 1) {
    const next = collapse(confusableSkeleton(key).toLowerCase());
    if (next === key) break;
    key = next;
  }
  return key;
};

/**
 * The keys under which a category name is reserved: two names that share a key look alike. Both
 * orders of lower-casing and skeleton, because TR39's skeleton is case-sensitive ("VehicIes" needs
 * lower-casing after, "ЕLECTRONICS" before). The first key is a function of
 * `normaliseCategoryName`, so names that shared an old `categoryname-` key share this one too.
 */
export const categoryNameKeys = (name: string): string[] => {
  const lowerFirst = settle(normaliseCategoryName(name).normalize('NFKC'));
  const skeletonFirst = settle(collapse(name.normalize('NFKC')));
  return lowerFirst === skeletonFirst ? [lowerFirst] : [lowerFirst, skeletonFirst];
};

/** Reservation stream of one key: appended with expected revision "no_stream", first writer wins. */
export const categoryKeyStream = (key: string): string => `categoryskeleton-${key}`;
