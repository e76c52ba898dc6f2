import { describe, expect, it } from 'vitest';
import {
  Id,
  auctionStream,
  categoryNameStream,
  categoryStream,
  normaliseCategoryName,
  userStream,
  watchlistStream,
} from './ids';

describe('Id', () => {
  it.each([['a-uuid-like-0f3c'], ['Under_score'], ['x'], ['a'.repeat(64)]])('accepts %j', (id) => {
    expect(Id.safeParse(id).success).toBe(true);
  });

  it.each([[''], ['a'.repeat(65)], ['has space'], ['slash/es'], ['dot.ted'], ['émoji']])(
    'refuses %j',
    (id) => {
      expect(Id.safeParse(id).success).toBe(false);
    },
  );
});

describe('stream names', () => {
  it('prefix the id with the kind of stream', () => {
    expect(auctionStream('a1')).toBe('auction-a1');
    expect(userStream('u1')).toBe('user-u1');
    expect(watchlistStream('u1')).toBe('watchlist-u1');
    expect(categoryStream('c1')).toBe('category-c1');
  });

  it('keep the streams of one id apart', () => {
    const names = [auctionStream, userStream, watchlistStream, categoryStream].map((of) => of('x'));
    expect(new Set(names).size).toBe(names.length);
  });

  it('a category name reservation cannot be named by a category id', () => {
    const reservation = categoryNameStream('Books');
    expect(reservation).toBe('categoryname-books');
    expect(reservation.startsWith('category-')).toBe(false);
  });

  it('spellings of one category name reserve one stream', () => {
    expect(categoryNameStream('  Rare   Books ')).toBe(categoryNameStream('rare books'));
    expect(categoryNameStream('Rare Books')).not.toBe(categoryNameStream('Rare Book'));
  });
});

describe('normaliseCategoryName', () => {
  it.each([
    ['Books', 'books'],
    ['  Books  ', 'books'],
    ['Rare   Books', 'rare books'],
    ['Rare\t\nBooks', 'rare books'],
    ['RARE BOOKS', 'rare books'],
    ['Art & Collectibles', 'art & collectibles'],
  ])('%j → %j', (name, normalised) => {
    expect(normaliseCategoryName(name)).toBe(normalised);
  });

  it('is idempotent', () => {
    for (const name of ['  Rare   Books ', 'Art & Collectibles', 'ÉLECTRONIQUE'])
      expect(normaliseCategoryName(normaliseCategoryName(name))).toBe(normaliseCategoryName(name));
  });
});
