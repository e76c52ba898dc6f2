import type { Condition, Doc, FindAfter, FindOptions, IndexValue, Where } from './read-store';

/*
 * The meaning of queries, evaluated in memory: the contract suite checks every adapter against it.
 * Adapters do not trust their servers' case-insensitive matching (SQLite folds ASCII only; MongoDB
 * and FerretDB each have their own tables), so both fold with the one table built here: SQLite
 * compares `fold`ed text, MongoDB gets each letter as the alternation of its `caseVariants`.
 */

/** No code point above this has a case mapping (Unicode 16). */
const LAST_CASED = 0x1ffff;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const sameIgnoringCase = (a: number, b: number): boolean =>
  new RegExp(`^${escapeRegExp(String.fromCodePoint(a))}$`, 'iu').test(String.fromCodePoint(b));
const singleCodePoint = (text: string): number | undefined => {
  const first = text.codePointAt(0);
  return first !== undefined && text.length === String.fromCodePoint(first).length
    ? first
    : undefined;
};

interface CaseTable {
  /** Every code point that has case variants → all of them, itself included, lowest first. */
  readonly variants: ReadonlyMap<number, readonly number[]>;
}

let caseTable: CaseTable | undefined;

/**
 * Groups the code points that fold alike. Candidates come from the case mappings (a character's
 * lower, upper, and their round trips; characters with the same multi-character upper case) and
 * are joined only when an `iu` regex says they are equal, so `ı` and `I` stay apart as simple
 * folding keeps them. Built once, on first use (some tens of milliseconds).
 */
const buildCaseTable = (): CaseTable => {
  const parent = new Map<number, number>();
  const root = (x: number): number => {
    let r = x;
    for (let p = parent.get(r); p !== undefined && p !== r; p = parent.get(r)) r = p;
    return r;
  };
  const join = (a: number, b: number): void => {
    const ra = root(a);
    const rb = root(b);
    parent.set(ra, Math.min(ra, rb));
    parent.set(rb, Math.min(ra, rb));
  };
  const byMultiUpper = new Map<string, number>();
  for (let cp = 0; cp <= LAST_CASED; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const text = String.fromCodePoint(cp);
    const lower = text.toLowerCase();
    const upper = text.toUpperCase();
    if (lower === text && upper === text) continue;
    if (!parent.has(cp)) parent.set(cp, cp);
    for (const mapped of [lower, upper, upper.toLowerCase(), lower.toUpperCase()]) {
      const other = singleCodePoint(mapped);
      if (other !== undefined && other !== cp && sameIgnoringCase(cp, other)) join(cp, other);
    }
    if (singleCodePoint(upper) === undefined) {
      const other = byMultiUpper.get(upper);
      if (other === undefined) byMultiUpper.set(upper, cp);
      else if (sameIgnoringCase(cp, other)) join(cp, other);
    }
  }
  const classes = new Map<number, number[]>();
  for (const cp of [...parent.keys()].sort((a, b) => a - b)) {
    const r = root(cp);
    const members = classes.get(r);
    if (members) members.push(cp);
    else classes.set(r, [cp]);
  }
  const variants = new Map<number, readonly number[]>();
  for (const members of classes.values()) {
    if (members.length > 1) for (const cp of members) variants.set(cp, members);
  }
  return { variants };
};

/** The code points `contains` treats as the same letter as `codePoint`, lowest first. */
export const caseVariants = (codePoint: number): readonly number[] =>
  (caseTable ??= buildCaseTable()).variants.get(codePoint) ?? [codePoint];

const ASCII = /^\p{ASCII}*$/u;

/**
 * Maps every code point to the lowest of its case variants, one for one, so that
 * `fold(text).includes(fold(needle))` is `contains`. Not a display form (`fold('a') === 'A'`).
 */
export const fold = (text: string): string => {
  // The lowest variant of an ASCII letter is its upper case (`k`, `K` and the Kelvin sign `K`).
  if (ASCII.test(text)) return text.toUpperCase();
  let folded = '';
  for (const char of text) folded += String.fromCodePoint(caseVariants(char.codePointAt(0)!)[0]!);
  return folded;
};

const containsPatterns = new Map<string, RegExp>();

/** Whether `text` contains `needle` as a literal substring, ignoring case (see above). */
export const containsIgnoringCase = (text: string, needle: string): boolean => {
  let pattern = containsPatterns.get(needle);
  if (!pattern) {
    if (containsPatterns.size >= 256) containsPatterns.clear();
    pattern = new RegExp(escapeRegExp(needle), 'iu');
    containsPatterns.set(needle, pattern);
  }
  return pattern.test(text);
};

const isObject = (c: Condition): c is { contains: string } | { in: readonly IndexValue[] } =>
  typeof c === 'object' && c !== null;

/** The meaning of a `where` clause. A missing field reads as null; `contains` matches strings only. */
export const matches = (doc: Doc, where: Where | undefined): boolean => {
  if (!where) return true;
  for (const [field, condition] of Object.entries(where)) {
    const value = doc[field] as IndexValue | undefined;
    if (isObject(condition)) {
      if ('contains' in condition) {
        if (typeof value !== 'string' || !containsIgnoringCase(value, condition.contains))
          return false;
      } else if (!condition.in.includes(value ?? null)) return false;
    } else if ((value ?? null) !== condition) return false;
  }
  return true;
};

/**
 * Strings in code point order, which is the byte order of their UTF-8 (SQLite's BINARY collation,
 * MongoDB's simple collation). JavaScript's `<` compares UTF-16 units, which puts characters
 * beyond U+FFFF (surrogate pairs) before U+E000–U+FFFF; this moves the surrogates above them.
 */
export const compareText = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x += x < 0xe000 ? 0x2000 : -0x800;
      y += y < 0xe000 ? 0x2000 : -0x800;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
};

const rank = (v: unknown): number =>
  v === null || v === undefined ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : 3;

/**
 * Nulls and missing fields first (equal to each other), then booleans, numbers, strings (as
 * SQLite orders them). Only fields holding one type besides null are ordered by: MongoDB puts
 * booleans after strings.
 */
export const compareValues = (a: unknown, b: unknown): number => {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 3) return compareText(a as string, b as string);
  const x = a as number | boolean;
  const y = b as number | boolean;
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The order of `find`: each `orderBy` field in its direction, then `_id` ascending. */
export const compareBy =
  (orderBy: NonNullable<FindOptions['orderBy']>) =>
  (a: Doc, b: Doc): number => {
    for (const { field, direction } of orderBy) {
      const c = compareValues(a[field], b[field]);
      if (c !== 0) return direction === 'asc' ? c : -c;
    }
    return compareText(a._id, b._id);
  };

/** The place of `doc` in the order `orderBy` (what `FindOptions.after` takes to page after it). */
export const placeOf = (doc: Doc, orderBy: NonNullable<FindOptions['orderBy']>): FindAfter => ({
  values: orderBy.map(({ field }) => (doc[field] ?? null) as IndexValue),
  id: doc._id,
});

/** The meaning of `after`: whether `doc` comes strictly after that place in the order. */
export const isAfter = (
  doc: Doc,
  orderBy: NonNullable<FindOptions['orderBy']>,
  after: FindAfter | undefined,
): boolean => {
  if (!after) return true;
  const place: Record<string, unknown> = { _id: after.id, _position: 0 };
  orderBy.forEach(({ field }, i) => (place[field] = after.values[i] ?? null));
  return compareBy(orderBy)(doc, place as Doc) > 0;
};

/** Checks that `after` names one value per `orderBy` field. */
export const checkAfter = (options: FindOptions): void => {
  const { after, orderBy = [] } = options;
  if (after && after.values.length !== orderBy.length) {
    throw new Error(`after has ${after.values.length} values for ${orderBy.length} orderBy fields`);
  }
};

/** One key of the order at a place: a field (or `_id`), its direction, the place's value. */
export interface PlaceKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
  readonly value: IndexValue;
}

/**
 * A run of the documents after a place: those with the leading field within `lead` and, when
 * `keys` is given, after the place on those keys (after on the first, or equal on it and after
 * on the next, and so on). Every document of one run comes before every document of the next.
 */
export interface AfterRun {
  readonly lead: {
    readonly field: string;
    readonly bound: 'atLeast' | 'atMost' | 'null' | 'notNull';
    readonly value: IndexValue;
  };
  readonly keys?: readonly PlaceKey[];
}

/**
 * The documents after `after` in the order, as runs an index on the leading field can seek to:
 * a range from the place's value (nulls apart, since they sort lowest), then the nulls or the
 * non-nulls that follow. Adapters query the runs in turn until the limit is filled, so a page
 * deep in a list costs what the first does.
 */
export const afterRuns = (
  orderBy: NonNullable<FindOptions['orderBy']>,
  after: FindAfter,
): AfterRun[] => {
  const keys: PlaceKey[] = orderBy.map(({ field, direction }, i) => ({
    field,
    direction,
    value: after.values[i] ?? null,
  }));
  keys.push({ field: '_id', direction: 'asc', value: after.id });
  const [first, ...rest] = keys as [PlaceKey, ...PlaceKey[]];
  const { field, direction, value } = first;
  if (value !== null) {
    if (direction === 'asc') return [{ lead: { field, bound: 'atLeast', value }, keys }];
    return [
      { lead: { field, bound: 'atMost', value }, keys },
      { lead: { field, bound: 'null', value: null } },
    ];
  }
  const nulls: AfterRun = { lead: { field, bound: 'null', value: null }, keys: rest };
  return direction === 'asc'
    ? [nulls, { lead: { field, bound: 'notNull', value: null } }]
    : [nulls];
};
