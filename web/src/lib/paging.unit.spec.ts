import { describe, expect, it } from 'vitest';
import { type Page, allPages, appendPage, findInPages } from './paging';

type Item = { _id: string };
const items = (...ids: string[]): Item[] => ids.map((_id) => ({ _id }));

/** A server list of `ids`, `size` a page, the cursor being the index of the next page's first. */
const server = (ids: string[], size: number) => {
  const asked: (string | undefined)[] = [];
  const fetchPage = (cursor: string | undefined): Promise<Page<Item>> => {
    asked.push(cursor);
    const from = cursor === undefined ? 0 : Number(cursor);
    const next = from + size;
    return Promise.resolve({
      items: items(...ids.slice(from, next)),
      nextCursor: next < ids.length ? String(next) : null,
    });
  };
  return { fetchPage, asked };
};

describe('pages of a list', () => {
  it('appends a page, an item already listed kept where it first came', () => {
    expect(appendPage(items('a', 'b'), items('c', 'b', 'd'))).toEqual(items('a', 'b', 'c', 'd'));
    expect(appendPage([], items('a'))).toEqual(items('a'));
  });

  it('reads every page, following each nextCursor to the last', async () => {
    const ids = Array.from({ length: 23 }, (_, i) => `id${i}`);
    const { fetchPage, asked } = server(ids, 5);
    expect((await allPages(fetchPage)).map((item) => item._id)).toEqual(ids);
    expect(asked).toEqual([undefined, '5', '10', '15', '20']);
  });

  it('reads pages only until the item turns up', async () => {
    const ids = Array.from({ length: 23 }, (_, i) => `id${i}`);
    const { fetchPage, asked } = server(ids, 5);
    expect(await findInPages(fetchPage, (item) => item._id === 'id7')).toEqual({ _id: 'id7' });
    expect(asked).toEqual([undefined, '5']);
    expect(await findInPages(fetchPage, (item) => item._id === 'none')).toBeUndefined();
  });
});
