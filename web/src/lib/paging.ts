/** One page of a list the server pages (`nextCursor` null on the last page). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/**
 * The list with a further page appended. Pages come after one another, so an item is never in
 * two; one that is (a list rebuilt meanwhile, a retried page) is kept where it first came.
 */
export const appendPage = <T extends { readonly _id: string }>(
  items: readonly T[],
  page: readonly T[],
): T[] => {
  const seen = new Set(items.map((item) => item._id));
  return [...items, ...page.filter((item) => !seen.has(item._id))];
};

/** Every page of a list, one after the other (for a picker that needs all of it). */
export const allPages = async <T extends { readonly _id: string }>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages = 100,
): Promise<T[]> => {
  let items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await fetchPage(cursor);
    items = appendPage(items, page.items);
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  return items;
};

/** The first item `matches` finds, reading pages only until it is found. */
export const findInPages = async <T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  matches: (item: T) => boolean,
  maxPages = 100,
): Promise<T | undefined> => {
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await fetchPage(cursor);
    const found = page.items.find(matches);
    if (found !== undefined || page.nextCursor === null) return found;
    cursor = page.nextCursor;
  }
  return undefined;
};
