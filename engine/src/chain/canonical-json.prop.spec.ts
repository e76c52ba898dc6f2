import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './hash-chain';

/** The definition, key by key: what every stored hash was computed with. */
const keyByKey = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${Array.from(value, keyByKey).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts = Object.keys(record)
    .sort()
    .filter((key) => record[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${keyByKey(record[key])}`);
  return `{${parts.join(',')}}`;
};

/** The same value with every object's keys inserted in sorted order (the fast path's input). */
const sortedKeys = (value: unknown): unknown => {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Array.from(value, sortedKeys);
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortedKeys(record[key])]),
  );
};

const values = fc.oneof(
  fc.jsonValue(),
  fc.anything({
    withDate: true,
    withMap: true,
    withNullPrototype: true,
    withSparseArray: true,
    withObjectString: true,
  }),
);

const numRuns = Number(process.env.FC_NUM_RUNS ?? 1000);

describe('canonicalJson', () => {
  it('writes exactly the key-by-key definition, whatever the key order', () => {
    fc.assert(
      fc.property(values, (value) => {
        expect(canonicalJson(value)).toBe(keyByKey(value));
        expect(canonicalJson(sortedKeys(value))).toBe(keyByKey(value));
      }),
      { numRuns },
    );
  });

  it('does not take a Date, a function or an integer-like key for already sorted', () => {
    const cases: unknown[] = [
      { at: new Date(0) },
      { a: () => 1 },
      [Symbol('s')],
      { 10: 'x', 9: 'y' },
      { b: { d: 1, c: 2 }, a: 1 },
    ];
    for (const value of cases) expect(canonicalJson(value)).toBe(keyByKey(value));
  });
});
