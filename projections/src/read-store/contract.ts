import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareBy, isAfter, matches, placeOf } from './query-semantics';
import type {
  Condition,
  Doc,
  FindOptions,
  IndexValue,
  ReadStore,
  Where,
  Write,
} from './read-store';

/** What the contract suite needs from an adapter under test. */
export interface ReadStoreContractSubject {
  readonly store: ReadStore;
  /** Closes the store and opens it again on the same data (durable adapters only). */
  readonly reopen?: () => Promise<ReadStore>;
  /** Closes whichever store is open and removes its data. */
  readonly cleanup: () => Promise<void>;
  /**
   * True when a batch that fails may have landed in part (MongoDB without transactions): the
   * suite then checks only that its checkpoint stayed and that its replay is harmless. By default
   * a failed batch must leave nothing behind.
   */
  readonly partialBatches?: boolean;
}

type Fields = Record<string, unknown>;

/**
 * Characters for generated text. Few, so that needles often match: ASCII, letters whose case
 * folding is tricky (Kelvin sign, long s, sigmas, dotted and dotless i, sharp s, micro sign,
 * Deseret beyond U+FFFF), code points whose UTF-16 order is not their code point order (U+FF21
 * and U+FF41 against surrogate pairs), and pattern metacharacters.
 */
const textUnit = fc.constantFrom(
  ...['a', 'A', 'k', 'K', '\u212a', 's', 'S', 'ſ', 'σ', 'Σ', 'ς', 'i', 'I', 'ı', 'İ'],
  ...['ß', 'ẞ', 'µ', 'μ', 'é', 'É', '\uff21', '\uff41', '\u{10400}', '\u{10428}'],
  ...['\u{1f570}', '.', '*', '(', ' ', '%', '_', '\\'],
);
const fcSeed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

/**
 * The one suite every read store adapter passes. Each test opens a fresh subject; collection and
 * projection names carry a random suffix, so the suite also runs against a shared server. Queries
 * order only by fields that hold one type besides null: SQLite and MongoDB order mixed types
 * differently (MongoDB puts booleans after strings). To skip it (no server configured), call it
 * inside `describe.skipIf(...)`: its tests then show as skipped.
 */
export function describeReadStoreContract(
  name: string,
  open: () => Promise<ReadStoreContractSubject>,
): void {
  describe(`read store contract: ${name}`, () => {
    let subject: ReadStoreContractSubject;
    let store: ReadStore;
    let run: string;

    const named = (label: string): string => `${label}_${run}`;
    const declare = async (label: string, indexes: readonly string[]): Promise<string> => {
      const collection = named(label);
      await store.ensureCollections([{ name: collection, indexes }]);
      return collection;
    };
    const doc = (id: string, position: number, fields: Fields = {}): Doc => ({
      ...fields,
      _id: id,
      _position: position,
    });
    const put = (collection: string, d: Doc): Write => ({ kind: 'put', collection, doc: d });
    const del = (collection: string, id: string): Write => ({ kind: 'delete', collection, id });
    const ids = (docs: readonly Doc[]): string[] => docs.map(({ _id }) => _id);

    beforeEach(async () => {
      run = randomUUID().replaceAll('-', '').slice(0, 12);
      subject = await open();
      store = subject.store;
    });

    afterEach(async () => {
      await subject.cleanup();
    });

    describe('collections', () => {
      it('ensureCollections is idempotent', async () => {
        const spec = { name: named('items'), indexes: ['title', 'price'] };
        await store.ensureCollections([spec, spec]);
        await store.commit(
          named('p'),
          [put(spec.name, doc('a', 1, { title: 'Lamp', price: 3 }))],
          1,
        );

        await store.ensureCollections([spec]);
        await store.ensureCollections([spec]);

        expect(await store.get(spec.name, 'a')).toEqual(doc('a', 1, { title: 'Lamp', price: 3 }));
        expect(ids(await store.find(spec.name, { where: { title: 'Lamp', price: 3 } }))).toEqual([
          'a',
        ]);
        expect(await store.count(spec.name)).toBe(1);
      });

      it('covers documents already stored when an index field is added later', async () => {
        const items = await declare('items', ['title']);
        await store.commit(
          named('p'),
          [
            put(items, doc('a', 1, { title: 'Lamp', seller: 's2', rank: 2 })),
            put(items, doc('b', 1, { title: 'Desk', seller: 's1', rank: 1 })),
            put(items, doc('c', 1, { title: 'Chair', seller: null })),
            put(items, doc('d', 1, { title: 'Stool', seller: 's1', rank: 3 })),
          ],
          1,
        );

        await store.ensureCollections([{ name: items, indexes: ['title', 'seller', 'rank'] }]);
        await store.upsert(items, doc('e', 2, { title: 'Rug', seller: 's2', rank: 0 }));

        expect(ids(await store.find(items, { where: { seller: 's1' } }))).toEqual(['b', 'd']);
        expect(ids(await store.find(items, { where: { seller: null } }))).toEqual(['c']);
        expect(await store.count(items, { seller: 's2' })).toBe(2);
        const byRank = await store.find(items, { orderBy: [{ field: 'rank', direction: 'desc' }] });
        expect(ids(byRank)).toEqual(['d', 'a', 'b', 'e', 'c']);
        expect(ids(await store.find(items, { where: { title: 'Desk' } }))).toEqual(['b']);
      });

      it('answers every query the same whichever indexes are built', async () => {
        const fields = ['seller', 'rank', 'title'];
        const plain = await declare('plain', fields);
        const compound = named('compound');
        await store.ensureCollections([
          { name: compound, indexes: fields, compoundIndexes: [['seller', 'rank']] },
        ]);
        // Documents as projections write them: `_id` and `_position` first.
        const docs = [
          { _id: 'a', _position: 1, seller: 's2', rank: 2, title: 'Lamp' },
          { _id: 'b', _position: 1, seller: 's1', rank: 1, title: 'desk lamp' },
          { _id: 'c', _position: 1, seller: null, title: 'Chair' },
          { _id: 'd', _position: 1, seller: 's1', rank: 3, title: 'Stool' },
        ];
        for (const collection of [plain, compound]) {
          await store.commit(
            named('p'),
            docs.map((d) => put(collection, d)),
            1,
          );
        }
        const queries: FindOptions[] = [
          { where: { seller: 's1' }, orderBy: [{ field: 'rank', direction: 'desc' }] },
          { where: { rank: 2 } },
          {
            where: { title: { contains: 'LAMP' } },
            orderBy: [{ field: 'seller', direction: 'asc' }],
          },
          { orderBy: [{ field: 'title', direction: 'asc' }], limit: 3 },
          { where: { seller: { in: ['s2', null] } } },
        ];
        for (const query of queries) {
          const expected = JSON.stringify(await store.find(plain, query));
          expect(JSON.stringify(await store.find(compound, query))).toBe(expected);
        }
        expect(ids(await store.find(compound, queries[0]))).toEqual(['d', 'b']);
        expect(await store.count(compound, { seller: 's1' })).toBe(2);

        // Declared again with other indexes: the same answers.
        await store.ensureCollections([
          { name: compound, indexes: fields, compoundIndexes: [['rank'], ['title', 'seller']] },
        ]);
        for (const query of queries) {
          const expected = JSON.stringify(await store.find(plain, query));
          expect(JSON.stringify(await store.find(compound, query))).toBe(expected);
        }
      });

      it('refuses an index on a field that is not declared indexed', async () => {
        await expect(
          store.ensureCollections([
            { name: named('bad'), indexes: ['a'], compoundIndexes: [['a', 'b']] },
          ]),
        ).rejects.toThrow(/not b/);
      });

      it('keeps collections apart, even one named like another plus a field', async () => {
        const first = await declare('c', ['x']);
        const second = `${first}_x`;
        await store.ensureCollections([{ name: second, indexes: ['y'] }]);

        await store.upsert(first, doc('same', 1, { x: 'first' }));
        await store.upsert(second, doc('same', 2, { y: 'second' }));

        expect(await store.get(first, 'same')).toEqual(doc('same', 1, { x: 'first' }));
        expect(await store.get(second, 'same')).toEqual(doc('same', 2, { y: 'second' }));
        expect(await store.count(first, { x: 'first' })).toBe(1);
        expect(await store.count(second, { y: 'first' })).toBe(0);
      });

      it('refuses to query by a field that is not indexed', async () => {
        const items = await declare('items', ['title']);
        await store.upsert(items, doc('a', 1, { title: 'Lamp', seller: 's1' }));

        await expect(store.find(items, { where: { seller: 's1' } })).rejects.toThrow();
        await expect(store.find(items, { where: { seller: { contains: 's' } } })).rejects.toThrow();
        await expect(
          store.find(items, { orderBy: [{ field: 'seller', direction: 'asc' }] }),
        ).rejects.toThrow();
        await expect(store.count(items, { seller: { in: ['s1'] } })).rejects.toThrow();
      });
    });

    describe('documents', () => {
      it('gets one or many, leaving missing ids out', async () => {
        const items = await declare('items', []);
        await store.commit(
          named('p'),
          [put(items, doc('a', 1, { n: 1 })), put(items, doc('b', 2, { n: 2 }))],
          2,
        );

        expect(await store.get(items, 'a')).toEqual(doc('a', 1, { n: 1 }));
        expect(await store.get(items, 'missing')).toBeUndefined();
        const many = await store.getMany(items, ['b', 'missing', 'a', 'b']);
        expect([...many.keys()].sort()).toEqual(['a', 'b']);
        expect(many.get('b')).toEqual(doc('b', 2, { n: 2 }));
        expect((await store.getMany(items, [])).size).toBe(0);
      });

      it('round-trips JSON documents', async () => {
        const items = await declare('items', ['title']);
        const rich = doc('rich', 7, {
          title: 'Ünïcødé ✓ 拍卖 🕰️',
          quote: 'say "hi"\\ \n\ttab',
          empty: '',
          integer: -42,
          zero: 0,
          fraction: 0.1 + 0.2,
          large: 2 ** 40 + 1,
          yes: true,
          no: false,
          nothing: null,
          list: [1, 'two', null, false, { three: [3] }],
          emptyList: [],
          nested: { deeper: { deepest: 'x', at: 1.5 }, emptyObject: {} },
          'key with spaces': 'ok',
        });

        await store.commit(named('p'), [put(items, rich)], 7);

        expect(await store.get(items, 'rich')).toEqual(rich);
        expect(await store.find(items, { where: { title: { contains: '拍卖' } } })).toEqual([rich]);
      });

      it('round-trips documents byte for byte, whatever the order of their fields', async () => {
        const items = await declare('items', ['title']);
        const shapes: Doc[] = [
          { _id: 'first', _position: 4, title: 'Lamp', rank: 1, nested: { a: [1, 'two', null] } },
          { _id: 'bare', _position: 5 },
          { _id: 'zero', _position: 0, title: null },
          { _id: 'quote"d', _position: 6, title: 'say "hi"' },
          { _id: 'late', title: 'Position last', rank: 2, _position: 7 },
        ];
        await store.commit(
          named('p'),
          shapes.map((d) => put(items, d)),
          7,
        );
        for (const shape of shapes) {
          expect(JSON.stringify(await store.get(items, shape._id))).toBe(JSON.stringify(shape));
        }
        const found = await store.getMany(
          items,
          shapes.map((d) => d._id),
        );
        expect(JSON.stringify(shapes.map((d) => found.get(d._id)))).toBe(JSON.stringify(shapes));
        expect(ids(await store.find(items, { where: { title: 'Lamp' } }))).toEqual(['first']);
        expect(ids(await store.find(items, { where: { title: null } }))).toEqual(['bare', 'zero']);

        // An index field added later covers them too.
        await store.ensureCollections([{ name: items, indexes: ['title', 'rank'] }]);
        expect(ids(await store.find(items, { where: { rank: 1 } }))).toEqual(['first']);
        expect(ids(await store.find(items, { where: { rank: 2 } }))).toEqual(['late']);
      });

      it('upserts and removes outside projections, without the position guard', async () => {
        const items = await declare('items', ['title']);

        await store.upsert(items, doc('a', 5, { title: 'first' }));
        await store.upsert(items, doc('a', 1, { title: 'second' }));
        await store.upsert(items, doc('b', 0, { title: 'other' }));
        expect(await store.get(items, 'a')).toEqual(doc('a', 1, { title: 'second' }));

        await store.remove(items, 'a');
        await store.remove(items, 'missing');
        expect(await store.get(items, 'a')).toBeUndefined();
        expect(ids(await store.find(items))).toEqual(['b']);
      });
    });

    describe('commit', () => {
      it('applies several writes across collections with the checkpoint', async () => {
        const items = await declare('items', ['title']);
        const sellers = await declare('sellers', ['name']);
        const projection = named('p');
        await store.commit(projection, [put(items, doc('gone', 1, { title: 'Old' }))], 1);

        await store.commit(
          projection,
          [
            put(items, doc('a', 4, { title: 'Lamp' })),
            put(sellers, doc('s1', 4, { name: 'Ann' })),
            del(items, 'gone'),
            put(items, doc('b', 5, { title: 'Desk' })),
            del(sellers, 'missing'),
          ],
          5,
        );

        expect(ids(await store.find(items))).toEqual(['a', 'b']);
        expect(await store.get(sellers, 's1')).toEqual(doc('s1', 4, { name: 'Ann' }));
        expect(await store.get(items, 'gone')).toBeUndefined();
        expect(await store.checkpoint(projection)).toBe(5);
      });

      it('reports no checkpoint before the first commit and never moves it backwards', async () => {
        const items = await declare('items', []);
        const projection = named('p');
        const other = named('q');
        expect(await store.checkpoint(projection)).toBeUndefined();

        await store.commit(projection, [], 3);
        expect(await store.checkpoint(projection)).toBe(3);
        await store.commit(projection, [put(items, doc('a', 10))], 10);
        expect(await store.checkpoint(projection)).toBe(10);
        await store.commit(projection, [put(items, doc('b', 4))], 4);
        expect(await store.checkpoint(projection)).toBe(10);
        await store.commit(projection, [], 10);

        expect(await store.checkpoint(projection)).toBe(10);
        expect(await store.get(items, 'b')).toEqual(doc('b', 4));
        expect(await store.checkpoint(other)).toBeUndefined();
      });

      it('never replaces a document with a higher _position; an equal or higher one does', async () => {
        const items = await declare('items', ['title']);
        const projection = named('p');
        await store.commit(projection, [put(items, doc('a', 5, { title: 'five' }))], 5);

        await store.commit(projection, [put(items, doc('a', 3, { title: 'three' }))], 6);
        expect(await store.get(items, 'a')).toEqual(doc('a', 5, { title: 'five' }));
        expect(await store.count(items, { title: 'three' })).toBe(0);

        await store.commit(projection, [put(items, doc('a', 5, { title: 'five again' }))], 7);
        expect(await store.get(items, 'a')).toEqual(doc('a', 5, { title: 'five again' }));

        await store.commit(projection, [put(items, doc('a', 8, { title: 'eight' }))], 8);
        expect(await store.get(items, 'a')).toEqual(doc('a', 8, { title: 'eight' }));
        expect(ids(await store.find(items, { where: { title: 'eight' } }))).toEqual(['a']);
      });

      it('applies the writes of a batch in order', async () => {
        const items = await declare('items', ['title']);
        const projection = named('p');
        await store.upsert(items, doc('reput', 5, { title: 'old' }));
        await store.upsert(items, doc('kept', 5, { title: 'old' }));

        await store.commit(
          projection,
          [
            put(items, doc('deleted', 1)),
            del(items, 'deleted'),
            del(items, 'reput'),
            put(items, doc('reput', 2, { title: 'new' })),
            put(items, doc('higher', 3, { title: 'three' })),
            put(items, doc('higher', 2, { title: 'two' })),
            put(items, doc('equal', 2, { title: 'first' })),
            put(items, doc('equal', 2, { title: 'second' })),
            put(items, doc('kept', 4, { title: 'new' })),
          ],
          3,
        );

        expect(await store.find(items)).toEqual([
          doc('equal', 2, { title: 'second' }),
          doc('higher', 3, { title: 'three' }),
          doc('kept', 5, { title: 'old' }),
          doc('reput', 2, { title: 'new' }),
        ]);
      });

      it('replays a batch harmlessly', async () => {
        const items = await declare('items', ['title']);
        const projection = named('p');
        const first = [put(items, doc('a', 1, { title: 'one' })), put(items, doc('b', 2))];
        const second = [put(items, doc('a', 3, { title: 'three' })), put(items, doc('c', 3))];
        await store.commit(projection, first, 2);
        await store.commit(projection, second, 3);

        await store.commit(projection, first, 2);

        expect(await store.find(items)).toEqual([
          doc('a', 3, { title: 'three' }),
          doc('b', 2),
          doc('c', 3),
        ]);
        expect(await store.checkpoint(projection)).toBe(3);
      });

      it('leaves the checkpoint of a batch that fails, and applies the batch when it is replayed', async () => {
        const items = await declare('items', ['title']);
        const others = await declare('others', []);
        const projection = named('p');
        await store.commit(projection, [put(items, doc('a', 1, { title: 'one' }))], 1);
        const loop: Fields = {};
        loop.self = loop;
        const batch = (last: Doc): Write[] => [
          put(items, doc('a', 2, { title: 'two' })),
          put(items, doc('b', 2, { title: 'new' })),
          del(items, 'missing'),
          put(others, last),
        ];

        await expect(store.commit(projection, batch(doc('o', 2, { loop })), 2)).rejects.toThrow();

        expect(await store.checkpoint(projection)).toBe(1);
        if (!subject.partialBatches) {
          expect(await store.find(items)).toEqual([doc('a', 1, { title: 'one' })]);
          expect(await store.find(others)).toEqual([]);
        }
        await store.commit(projection, batch(doc('o', 2)), 2);
        expect(await store.find(items)).toEqual([
          doc('a', 2, { title: 'two' }),
          doc('b', 2, { title: 'new' }),
        ]);
        expect(await store.find(others)).toEqual([doc('o', 2)]);
        expect(await store.checkpoint(projection)).toBe(2);
      });
    });

    describe('text', () => {
      // Strings order by code point (the bytes of their UTF-8), not by a locale; `contains` folds
      // case by Unicode simple case folding, one code point at a time (see read-store.ts).
      const titles: Readonly<Record<string, string | null | undefined>> = {
        t01: 'apple',
        t02: 'Banana',
        t03: 'cherry',
        t04: 'Äpfel',
        t05: 'äpfel pie',
        t06: 'apple pie',
        t07: null,
        t08: undefined,
        t09: 'Straße',
        t10: 'STRASSE',
        t11: 'GROẞ',
        t12: 'Kelvin 5\u212a',
        t13: 'ΟΔΟΣ',
        t14: 'οδος',
        t15: 'İstanbul',
        t16: 'istanbul',
        t17: 'ıslak',
        t18: 'café',
        t19: 'cafe\u0301',
        t20: '\ufb01le',
        t21: '\u{10400}\u{10401} deseret',
        t22: '5 µm',
        t23: '\uff21 fullwidth',
        t24: '\u{1f570} clock',
        t25: '100% [new] a_b c\\d ^x|y? {z}+ $1',
      };
      let texts: string;

      beforeEach(async () => {
        texts = await declare('texts', ['title']);
        await store.commit(
          named('p'),
          Object.entries(titles).map(([id, title]) =>
            put(texts, doc(id, 1, title === undefined ? {} : { title })),
          ),
          1,
        );
      });

      const containing = async (needle: string): Promise<string[]> =>
        ids(await store.find(texts, { where: { title: { contains: needle } } }));

      it('orders strings by code point: upper case before lower, accents after ASCII, nulls first', async () => {
        const ascending = [
          ...['t07', 't08'], // null, missing
          ...['t25', 't22'], // '1', '5'
          ...['t02', 't11', 't12', 't10', 't09'], // 'B', 'G', 'K', 'ST', 'St'
          ...['t01', 't06', 't19', 't18', 't03', 't16'], // 'e' + U+0301 before 'é'
          ...['t04', 't05', 't15', 't17', 't13', 't14'], // U+00C4, U+00E4, U+0130, U+0131, Greek
          ...['t20', 't23', 't21', 't24'], // U+FB01, U+FF21, U+10400, U+1F570
        ];
        const order = await store.find(texts, { orderBy: [{ field: 'title', direction: 'asc' }] });
        expect(order.map((d) => d.title ?? null)).toEqual(
          ascending.map((id) => titles[id] ?? null),
        );
        expect(ids(order)).toEqual(ascending);
        const descending = await store.find(texts, {
          orderBy: [{ field: 'title', direction: 'desc' }],
        });
        expect(ids(descending)).toEqual([...ascending.slice(2).reverse(), 't07', 't08']);
        expect(
          ids(
            await store.find(texts, {
              where: { title: { in: ['apple', 'Banana', 'cherry', 'Äpfel', null] } },
              orderBy: [{ field: 'title', direction: 'desc' }],
              limit: 4,
            }),
          ),
        ).toEqual(['t04', 't03', 't01', 't02']);
      });

      it('orders nulls and missing fields as equal, lowest, whatever the direction of the next field', async () => {
        const scores = await declare('scores', ['group', 'score']);
        await store.commit(
          named('p'),
          [
            put(scores, doc('m', 1, { group: 'x' })),
            put(scores, doc('n', 1, { group: 'x', score: null })),
            put(scores, doc('a', 1, { group: 'x', score: 2 })),
            put(scores, doc('z', 1, { score: -1 })),
            put(scores, doc('b', 1, { group: null, score: null })),
            put(scores, doc('c', 1, { group: 'x', score: -0.5 })),
          ],
          1,
        );
        const sorted = (direction: 'asc' | 'desc') =>
          store.find(scores, {
            orderBy: [
              { field: 'group', direction },
              { field: 'score', direction: 'desc' },
            ],
          });
        expect(ids(await sorted('asc'))).toEqual(['z', 'b', 'a', 'c', 'm', 'n']);
        expect(ids(await sorted('desc'))).toEqual(['a', 'c', 'm', 'n', 'z', 'b']);
        expect(await store.count(scores, { score: null })).toBe(3);
        expect(ids(await store.find(scores, { where: { group: { in: [null] } } }))).toEqual([
          'b',
          'z',
        ]);
      });

      it('folds ASCII case in contains, and nothing else of ASCII', async () => {
        expect(await containing('APPLE')).toEqual(['t01', 't06']);
        expect(await containing('banana')).toEqual(['t02']);
        expect(await containing('aPpLe P')).toEqual(['t06']);
        expect(await containing('Pie')).toEqual(['t05', 't06']);
        expect(await containing('apple  pie')).toEqual([]);
      });

      it('folds non-ASCII case by simple case folding, one code point for one', async () => {
        expect(await containing('ÄPFEL')).toEqual(['t04', 't05']);
        // ß and ẞ are one letter; ß is not "ss".
        expect(await containing('ß')).toEqual(['t09', 't11']);
        expect(await containing('strasse')).toEqual(['t10']);
        // The Kelvin sign is a K; final and medial sigma are one sigma; the micro sign is a mu.
        expect(await containing('kelvin 5k')).toEqual(['t12']);
        expect(await containing('σ')).toEqual(['t13', 't14']);
        expect(await containing('ΟΔΟς')).toEqual(['t13', 't14']);
        expect(await containing('Μm')).toEqual(['t22']);
        // Dotted and dotless i are letters of their own (no Turkish rules).
        expect(await containing('istanbul')).toEqual(['t16']);
        expect(await containing('İSTANBUL')).toEqual(['t15']);
        expect(await containing('ISLAK')).toEqual([]);
        expect(await containing('ısl')).toEqual(['t17']);
        // No normalisation and no expansion: é is not e + U+0301, ﬁ is not fi.
        expect(await containing('CAFÉ')).toEqual(['t18']);
        expect(await containing('e\u0301')).toEqual(['t19']);
        expect(await containing('fi')).toEqual([]);
        expect(await containing('\ufb01')).toEqual(['t20']);
        // Beyond U+FFFF too.
        expect(await containing('\u{10428}\u{10429} DESERET')).toEqual(['t21']);
        expect(await containing('\u{1f570}')).toEqual(['t24']);
        expect(await containing('\uff41')).toEqual(['t23']);
        expect(await store.count(texts, { title: { contains: 'ẞ' } })).toBe(2);
      });

      it('reads every character of a contains needle literally', async () => {
        for (const needle of ['100%', '[new]', 'a_b', 'c\\d', '^x|y?', '{z}+', '$1', '% [', ']']) {
          expect(await containing(needle), needle).toEqual(['t25']);
        }
        for (const needle of ['%', '_', 'a%b', '.', '.*', '\\', 'x|z', 'a.b', '[nw]', '^1']) {
          expect(await containing(needle), needle).toEqual(
            Object.entries(titles)
              .filter(([, title]) => typeof title === 'string' && title.includes(needle))
              .map(([id]) => id),
          );
        }
        expect(await containing('')).toHaveLength(23);
      });
    });

    describe('find and count', () => {
      const fixture: readonly Doc[] = [
        doc('a', 1, { title: 'Vintage Watch', price: 120, active: true, category: 'watches' }),
        doc('b', 1, {
          title: 'Pocket watch (gold)',
          price: 80,
          active: false,
          category: 'watches',
        }),
        doc('c', 1, { title: 'Desk Lamp', price: 80, active: true, category: null }),
        doc('d', 1, { title: 'Lamp.*shade', price: 15.5, active: true, category: 'lamps' }),
        doc('e', 1, { title: 'Überraschung', price: -3, active: false }),
        doc('f', 1, { title: null, price: null, active: null, category: 'lamps' }),
        doc('g', 1, { price: 80, category: 'misc' }),
      ];
      let items: string;

      beforeEach(async () => {
        items = await declare('items', ['title', 'price', 'active', 'category']);
        await store.commit(
          named('p'),
          fixture.map((d) => put(items, d)),
          1,
        );
      });

      const found = async (options: FindOptions): Promise<string[]> =>
        ids(await store.find(items, options));

      it('returns everything by _id without options', async () => {
        expect(await store.find(items)).toEqual(fixture);
        expect(await store.count(items)).toBe(fixture.length);
      });

      it('matches equality on strings, numbers, booleans and null', async () => {
        expect(await found({ where: { category: 'watches' } })).toEqual(['a', 'b']);
        expect(await found({ where: { price: 80 } })).toEqual(['b', 'c', 'g']);
        expect(await found({ where: { price: 15.5 } })).toEqual(['d']);
        expect(await found({ where: { active: true } })).toEqual(['a', 'c', 'd']);
        expect(await found({ where: { active: false } })).toEqual(['b', 'e']);
        expect(await found({ where: { category: null } })).toEqual(['c', 'e']);
        expect(await found({ where: { title: null } })).toEqual(['f', 'g']);
        expect(await found({ where: { title: 'vintage watch' } })).toEqual([]);
        expect(await found({ where: { category: 'none' } })).toEqual([]);
      });

      it('matches membership, null included, and nothing for an empty list', async () => {
        expect(await found({ where: { category: { in: ['lamps', 'misc'] } } })).toEqual([
          'd',
          'f',
          'g',
        ]);
        expect(await found({ where: { category: { in: ['watches', null] } } })).toEqual([
          'a',
          'b',
          'c',
          'e',
        ]);
        expect(await found({ where: { price: { in: [80, -3] } } })).toEqual(['b', 'c', 'e', 'g']);
        expect(await found({ where: { active: { in: [false] } } })).toEqual(['b', 'e']);
        expect(await found({ where: { category: { in: [] } } })).toEqual([]);
        expect(await store.count(items, { price: { in: [] } })).toBe(0);
      });

      it('matches contains as a case-insensitive literal substring', async () => {
        expect(await found({ where: { title: { contains: 'WATCH' } } })).toEqual(['a', 'b']);
        expect(await found({ where: { title: { contains: 'lamp' } } })).toEqual(['c', 'd']);
        expect(await found({ where: { title: { contains: '.*' } } })).toEqual(['d']);
        expect(await found({ where: { title: { contains: '(' } } })).toEqual(['b']);
        expect(await found({ where: { title: { contains: 'h (G' } } })).toEqual(['b']);
        expect(await found({ where: { title: { contains: 'p.' } } })).toEqual(['d']);
        expect(await found({ where: { title: { contains: 'ÜBER' } } })).toEqual(['e']);
        expect(await found({ where: { title: { contains: '' } } })).toEqual([
          'a',
          'b',
          'c',
          'd',
          'e',
        ]);
        expect(await found({ where: { title: { contains: 'lamp$' } } })).toEqual([]);
      });

      it('combines conditions', async () => {
        expect(await found({ where: { price: 80, active: true } })).toEqual(['c']);
        expect(
          await found({ where: { title: { contains: 'watch' }, category: { in: ['watches'] } } }),
        ).toEqual(['a', 'b']);
        expect(
          await found({ where: { title: { contains: 'a' }, active: false, price: { in: [80] } } }),
        ).toEqual(['b']);
        expect(await store.count(items, { category: 'lamps', active: null })).toBe(1);
      });

      it('orders by one field either way, nulls lowest, ties by _id', async () => {
        expect(await found({ orderBy: [{ field: 'price', direction: 'asc' }] })).toEqual([
          'f',
          'e',
          'd',
          'b',
          'c',
          'g',
          'a',
        ]);
        expect(await found({ orderBy: [{ field: 'price', direction: 'desc' }] })).toEqual([
          'a',
          'b',
          'c',
          'g',
          'd',
          'e',
          'f',
        ]);
        expect(await found({ orderBy: [{ field: 'title', direction: 'asc' }] })).toEqual([
          'f',
          'g',
          'c',
          'd',
          'b',
          'a',
          'e',
        ]);
        expect(await found({ orderBy: [{ field: 'active', direction: 'desc' }] })).toEqual([
          'a',
          'c',
          'd',
          'b',
          'e',
          'f',
          'g',
        ]);
      });

      it('orders by two fields, then by _id', async () => {
        expect(
          await found({
            orderBy: [
              { field: 'category', direction: 'asc' },
              { field: 'price', direction: 'desc' },
            ],
          }),
        ).toEqual(['c', 'e', 'd', 'f', 'g', 'a', 'b']);
        expect(
          await found({
            where: { price: { in: [80, 120] } },
            orderBy: [
              { field: 'price', direction: 'desc' },
              { field: 'active', direction: 'asc' },
            ],
          }),
        ).toEqual(['a', 'g', 'b', 'c']);
      });

      it('limits after filtering and ordering', async () => {
        const cheapest = { orderBy: [{ field: 'price', direction: 'asc' }] } as const;
        expect(await found({ ...cheapest, limit: 3 })).toEqual(['f', 'e', 'd']);
        expect(await found({ ...cheapest, where: { active: true }, limit: 2 })).toEqual(['d', 'c']);
        expect(await found({ limit: 2 })).toEqual(['a', 'b']);
        expect(await found({ where: { price: 80 }, limit: 10 })).toEqual(['b', 'c', 'g']);
        expect(await found({ limit: 0 })).toEqual([]);
      });

      it('pages after a place: every document once, in order, whatever the order', async () => {
        const orders: NonNullable<FindOptions['orderBy']>[] = [
          [],
          [{ field: 'price', direction: 'asc' }],
          [{ field: 'price', direction: 'desc' }],
          [{ field: 'title', direction: 'asc' }],
          [{ field: 'title', direction: 'desc' }],
          [{ field: 'active', direction: 'desc' }],
          [
            { field: 'category', direction: 'asc' },
            { field: 'price', direction: 'desc' },
          ],
        ];
        for (const orderBy of orders) {
          for (const where of [undefined, { active: { in: [true, null] } }]) {
            const whole = await found({ orderBy, ...(where ? { where } : {}) });
            const pages: string[] = [];
            let after: FindOptions['after'];
            for (;;) {
              const page = await store.find(items, {
                orderBy,
                limit: 2,
                ...(where ? { where } : {}),
                ...(after ? { after } : {}),
              });
              pages.push(...ids(page));
              const last = page.at(-1);
              if (page.length < 2 || !last) break;
              after = placeOf(last, orderBy);
            }
            expect(pages).toEqual(whole);
          }
        }
      });

      it('pages after a place where no document is (any more)', async () => {
        const byPrice = [{ field: 'price', direction: 'desc' }] as const;
        const after = { values: [80], id: 'bb' };
        expect(await found({ orderBy: byPrice, after })).toEqual(['c', 'g', 'd', 'e', 'f']);
        expect(await found({ orderBy: byPrice, after: { values: [null], id: 'a' } })).toEqual([
          'f',
        ]);
        expect(await found({ orderBy: byPrice, after: { values: [null], id: 'f' } })).toEqual([]);
        const byTitle = [{ field: 'title', direction: 'asc' }] as const;
        expect(await found({ orderBy: byTitle, after: { values: [null], id: 'zz' } })).toEqual([
          'c',
          'd',
          'b',
          'a',
          'e',
        ]);
        expect(await found({ after: { values: [], id: 'e' } })).toEqual(['f', 'g']);
        expect(
          await found({ where: { price: 80 }, after: { values: [], id: 'b' }, limit: 1 }),
        ).toEqual(['c']);
        await expect(
          store.find(items, { orderBy: byTitle, after: { values: [], id: 'a' } }),
        ).rejects.toThrow();
      });

      it('counts with and without conditions', async () => {
        expect(await store.count(items)).toBe(7);
        expect(await store.count(items, {})).toBe(7);
        expect(await store.count(items, { price: 80 })).toBe(3);
        expect(await store.count(items, { title: { contains: 'LAMP' } })).toBe(2);
        expect(await store.count(items, { category: null })).toBe(2);
        const empty = await declare('empty', ['title']);
        expect(await store.count(empty)).toBe(0);
        expect(await store.find(empty, { where: { title: 'x' } })).toEqual([]);
      });
    });

    describe('leases', () => {
      const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
      /** Far beyond any test's run: a lease taken with it stays valid throughout. */
      const long = 60_000;
      /** Short enough to wait out; `expire` sleeps past it. */
      const short = 30;
      const expire = () => sleep(short + 20);
      const holders = (n: number) => Array.from({ length: n }, (_, i) => `holder-${i}`);

      it('goes to the first holder and is refused to another while valid', async () => {
        const lease = named('lease');

        expect(await store.acquireLease(lease, 'a', long)).toBe(true);
        expect(await store.acquireLease(lease, 'b', long)).toBe(false);
        expect(await store.acquireLease(lease, 'b', long)).toBe(false);
      });

      it('is renewed by its holder, which moves its expiry', async () => {
        const lease = named('lease');
        await store.acquireLease(lease, 'a', short);

        expect(await store.acquireLease(lease, 'a', long)).toBe(true);
        await expire();

        expect(await store.acquireLease(lease, 'b', long)).toBe(false);
        expect(await store.acquireLease(lease, 'a', long)).toBe(true);
      });

      it('goes to another holder once it has expired', async () => {
        const lease = named('lease');
        await store.acquireLease(lease, 'a', short);
        await expire();

        expect(await store.acquireLease(lease, 'b', long)).toBe(true);
        expect(await store.acquireLease(lease, 'a', long)).toBe(false);
      });

      it('is free at once when its holder releases it, and not when another does', async () => {
        const lease = named('lease');
        await store.acquireLease(lease, 'a', long);

        await store.releaseLease(lease, 'b');
        await store.releaseLease(named('unknown'), 'a');
        expect(await store.acquireLease(lease, 'b', long)).toBe(false);
        expect(await store.acquireLease(lease, 'a', long)).toBe(true);

        await store.releaseLease(lease, 'a');
        expect(await store.acquireLease(lease, 'b', long)).toBe(true);
        expect(await store.acquireLease(lease, 'a', long)).toBe(false);
      });

      it('keeps leases of different names apart', async () => {
        const first = named('lease');
        const second = `${first}_2`;

        expect(await store.acquireLease(first, 'a', long)).toBe(true);
        expect(await store.acquireLease(second, 'b', long)).toBe(true);
        await store.releaseLease(second, 'b');
        expect(await store.acquireLease(first, 'b', long)).toBe(false);
      });

      it('goes to exactly one of many holders asking at once', async () => {
        const lease = named('lease');

        const taken = await Promise.all(holders(10).map((h) => store.acquireLease(lease, h, long)));

        expect(taken.filter(Boolean)).toHaveLength(1);
        const winner = holders(10)[taken.indexOf(true)]!;
        expect(await store.acquireLease(lease, winner, long)).toBe(true);
      });

      it('goes to exactly one of many holders taking it over at once after it expired', async () => {
        for (let round = 0; round < 3; round++) {
          const lease = named(`lease${round}`);
          await store.acquireLease(lease, 'old', short);
          await expire();

          const taken = await Promise.all(
            [...holders(10), 'old'].map((h) => store.acquireLease(lease, h, long)),
          );

          expect(taken.filter(Boolean)).toHaveLength(1);
        }
      });

      it('lives apart from collections and checkpoints: a reset keeps it', async () => {
        const items = await declare('items', []);
        const projection = named('p');
        await store.commit(projection, [put(items, doc('a', 1))], 1);
        expect(await store.acquireLease(projection, 'a', long)).toBe(true);

        await store.reset(projection, [items]);

        expect(await store.acquireLease(projection, 'b', long)).toBe(false);
        for (const reserved of ['checkpoints', 'leases']) {
          await expect(store.ensureCollections([{ name: reserved, indexes: [] }])).rejects.toThrow(
            /reserved/,
          );
        }
      });
    });

    describe('reset', () => {
      it('refuses an undeclared collection before it changes anything', async () => {
        const items = await declare('items', ['title']);
        const projection = named('p');
        await store.commit(projection, [put(items, doc('a', 2, { title: 'x' }))], 2);

        await expect(store.reset(projection, [items, named('undeclared')])).rejects.toThrow();

        expect(await store.checkpoint(projection)).toBe(2);
        expect(ids(await store.find(items))).toEqual(['a']);
      });

      it("empties the projection's collections and forgets its checkpoint, nothing else", async () => {
        const items = await declare('items', ['title']);
        const tags = await declare('tags', []);
        const others = await declare('others', ['title']);
        const projection = named('p');
        const other = named('q');
        await store.commit(
          projection,
          [put(items, doc('a', 2, { title: 'x' })), put(tags, doc('t', 2))],
          2,
        );
        await store.commit(other, [put(others, doc('o', 3, { title: 'x' }))], 3);

        await store.reset(projection, [items, tags]);

        expect(await store.checkpoint(projection)).toBeUndefined();
        expect(await store.count(items)).toBe(0);
        expect(await store.find(tags)).toEqual([]);
        expect(await store.checkpoint(other)).toBe(3);
        expect(ids(await store.find(others, { where: { title: 'x' } }))).toEqual(['o']);

        await store.commit(projection, [put(items, doc('a', 1, { title: 'y' }))], 1);
        expect(await store.get(items, 'a')).toEqual(doc('a', 1, { title: 'y' }));
        expect(await store.checkpoint(projection)).toBe(1);
      });
    });

    it('keeps documents and checkpoints across a reopen (when the adapter can reopen)', async () => {
      const spec = { name: named('items'), indexes: ['title'] };
      await store.ensureCollections([spec]);
      const projection = named('p');
      await store.commit(
        projection,
        [put(spec.name, doc('a', 4, { title: 'Lamp', tags: ['x'] })), put(spec.name, doc('b', 4))],
        4,
      );
      await store.upsert(spec.name, doc('c', 0, { title: 'Desk' }));

      if (subject.reopen !== undefined) store = await subject.reopen();
      await store.ensureCollections([spec]);

      expect(await store.checkpoint(projection)).toBe(4);
      expect(await store.find(spec.name)).toEqual([
        doc('a', 4, { title: 'Lamp', tags: ['x'] }),
        doc('b', 4),
        doc('c', 0, { title: 'Desk' }),
      ]);
      expect(ids(await store.find(spec.name, { where: { title: { contains: 'LA' } } }))).toEqual([
        'a',
      ]);
    });

    it('orders and searches text as the in-memory query semantics do', async () => {
      const collection = await declare('words', ['s']);
      const projection = named('p');
      const words = fc.uniqueArray(fc.string({ unit: textUnit, minLength: 1, maxLength: 3 }), {
        minLength: 2,
        maxLength: 10,
      });
      const query: fc.Arbitrary<FindOptions> = fc.oneof(
        fc.record({
          where: fc.record({
            s: fc.record({ contains: fc.string({ unit: textUnit, minLength: 1, maxLength: 2 }) }),
          }),
        }),
        fc.record({
          orderBy: fc.tuple(
            fc.record({
              field: fc.constant('s'),
              direction: fc.constantFrom('asc' as const, 'desc' as const),
            }),
          ),
        }),
      );

      await fc.assert(
        fc.asyncProperty(words, query, async (texts, options) => {
          await store.reset(projection, [collection]);
          const all = texts.map((s, i) => doc(`w${i}`, 1, { s }));
          await store.commit(
            projection,
            all.map((d) => put(collection, d)),
            1,
          );

          const expected = all
            .filter((d) => matches(d, options.where))
            .sort(compareBy(options.orderBy ?? []));
          expect(await store.find(collection, options)).toEqual(expected);
        }),
        { numRuns: 100, seed: fcSeed },
      );
    });

    it('finds what the in-memory query semantics find', async () => {
      const collection = await declare('prop', ['s', 'n', 'b']);
      const projection = named('p');
      const text = fc.string({ unit: textUnit, maxLength: 4 });
      const needle = fc.string({ unit: textUnit, maxLength: 2 });
      const number = fc.constantFrom(-2, -0.5, 0, 1, 2.5, 3);
      const values: Record<string, fc.Arbitrary<IndexValue>> = {
        s: text,
        n: number,
        b: fc.boolean(),
      };
      const fields = Object.keys(values);
      const valueOf = (field: string): fc.Arbitrary<IndexValue> =>
        fc.option(values[field] ?? fc.constant(null), { nil: null });
      const stored = (field: string): fc.Arbitrary<IndexValue | undefined> =>
        fc.option(valueOf(field), { nil: undefined, freq: 4 });
      const docs = fc.uniqueArray(
        fc.record({
          id: fc.constantFrom(...Array.from({ length: 12 }, (_, i) => `d${i}`)),
          s: stored('s'),
          n: stored('n'),
          b: stored('b'),
        }),
        { selector: ({ id }) => id, maxLength: 12 },
      );
      const condition = (field: string): fc.Arbitrary<Condition> =>
        fc.oneof(
          valueOf(field),
          fc.record({ in: fc.array(valueOf(field), { maxLength: 3 }) }),
          ...(field === 's' ? [fc.record({ contains: needle })] : []),
        );
      const where: fc.Arbitrary<Where> = fc.record(
        { s: condition('s'), n: condition('n'), b: condition('b') },
        { requiredKeys: [] },
      );
      const orderBy = fc.uniqueArray(
        fc.record({
          field: fc.constantFrom(...fields),
          direction: fc.constantFrom('asc' as const, 'desc' as const),
        }),
        { selector: ({ field }) => field, maxLength: 2 },
      );
      const options = fc.record(
        { where, orderBy, limit: fc.nat({ max: 8 }) },
        { requiredKeys: [] },
      );

      const afterPlace = (order: NonNullable<FindOptions['orderBy']>) =>
        fc.record({
          values: fc.tuple(...order.map(({ field }) => valueOf(field))),
          id: fc.constantFrom(...Array.from({ length: 13 }, (_, i) => `d${i}`), 'd', 'e'),
        });
      const paged = fc
        .tuple(orderBy, where, fc.option(fc.nat({ max: 8 }), { nil: undefined }))
        .chain(([order, w, limit]) =>
          afterPlace(order).map((after): FindOptions => ({
            where: w,
            orderBy: order,
            after,
            ...(limit === undefined ? {} : { limit }),
          })),
        );

      await fc.assert(
        fc.asyncProperty(
          docs,
          fc.oneof(options as fc.Arbitrary<FindOptions>, paged),
          async (generated, query) => {
            await store.reset(projection, [collection]);
            const all = generated.map(({ id, ...rest }) =>
              doc(
                id,
                1,
                Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
              ),
            );
            await store.commit(
              projection,
              all.map((d) => put(collection, d)),
              1,
            );

            const expected = all
              .filter(
                (d) => matches(d, query.where) && isAfter(d, query.orderBy ?? [], query.after),
              )
              .sort(compareBy(query.orderBy ?? []))
              .slice(0, query.limit);

            expect(await store.find(collection, query)).toEqual(expected);
            expect(await store.count(collection, query.where)).toBe(
              all.filter((d) => matches(d, query.where)).length,
            );
          },
        ),
        { numRuns: 100, seed: fcSeed },
      );
    });
  });
}
