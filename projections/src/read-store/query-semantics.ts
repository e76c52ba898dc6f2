import type { Condition, Doc, FindOptions, IndexValue, Where } from './read-store';

/** Case folding for `contains`: every adapter compares folded text. */
export const fold = (text: string): string => text.toLowerCase();

const isObject = (c: Condition): c is { contains: string } | { in: readonly IndexValue[] } =>
  typeof c === 'object' && c !== null;

/** The meaning of a `where` clause, evaluated in memory (adapters must agree with it). */
export const matches = (doc: Doc, where: Where | undefined): boolean => {
  if (!where) return true;
  for (const [field, condition] of Object.entries(where)) {
    const value = doc[field] as IndexValue | undefined;
    if (isObject(condition)) {
      if ('contains' in condition) {
        if (typeof value !== 'string' || !fold(value).includes(fold(condition.contains)))
          return false;
      } else if (!condition.in.includes(value ?? null)) return false;
    } else if ((value ?? null) !== condition) return false;
  }
  return true;
};

const rank = (v: unknown): number =>
  v === null || v === undefined ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : 3;

/** Nulls first, then booleans, numbers, strings (as SQLite orders them); `_id` breaks ties. */
export const compareValues = (a: unknown, b: unknown): number => {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  const x = a as string | number | boolean;
  const y = b as string | number | boolean;
  return x < y ? -1 : x > y ? 1 : 0;
};

export const compareBy =
  (orderBy: NonNullable<FindOptions['orderBy']>) =>
  (a: Doc, b: Doc): number => {
    for (const { field, direction } of orderBy) {
      const c = compareValues(a[field], b[field]);
      if (c !== 0) return direction === 'asc' ? c : -c;
    }
    return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
  };
