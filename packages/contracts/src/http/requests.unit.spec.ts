import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { formatWholeCents } from '../money';
import { rules } from '../rules';
import {
  AuctionFilters,
  CreateAuctionBody,
  CreateCategoryBody,
  EditAuctionBody,
  startingPriceMessages,
} from './auctions';
import { LoginBody, SignupBody } from './auth';
import { EditBidBody, PlaceBidBody } from './bids';
import { API_BASE, type Operation, pathOf } from './operation';
import { operations } from './operations';
import { HistoryQuery } from './users';
import { PageQuery } from './paging';

/** The first problem's message, as the API answers it, or undefined when the input passes. */
const problem = (schema: z.ZodType, input: unknown): string | undefined => {
  const parsed = schema.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

const auction = (overrides: Record<string, unknown> = {}) => ({
  title: 'Vintage brass clock',
  description: 'A mantel clock from the 1920s',
  category: 'antiques',
  startingPrice: 150,
  auctionDate: '2030-01-01T12:00:00.000Z',
  ...overrides,
});

const MIN = rules.minStartingPriceCents;

describe('the starting price', () => {
  it('words the minimum from rules.minStartingPriceCents, as the spec writes it for $100', () => {
    expect(startingPriceMessages.tooLow).toBe(
      `Starting price must be at least ${formatWholeCents(MIN)}`,
    );
    // The spec's words for today's minimum (docs/product.md §5).
    if (MIN === 10_000)
      expect(startingPriceMessages.tooLow).toBe('Starting price must be at least $100');
  });

  it('refuses a cent below the minimum and takes the minimum, as a number or as text', () => {
    const below = (MIN - 1) / 100;
    for (const price of [below, String(below)])
      expect(problem(CreateAuctionBody, auction({ startingPrice: price }))).toBe(
        startingPriceMessages.tooLow,
      );
    for (const price of [MIN / 100, String(MIN / 100), ` ${MIN / 100} `]) {
      const parsed = CreateAuctionBody.parse(auction({ startingPrice: price }));
      expect(parsed.startingPrice).toBe(MIN);
    }
    expect(problem(EditAuctionBody, { startingPrice: below })).toBe(startingPriceMessages.tooLow);
  });

  it.each([
    [undefined, 'Starting price is required'],
    ['', 'Starting price is required'],
    ['  ', 'Starting price is required'],
    [null, 'Starting price is required'],
    ['abc', 'Starting price must be a number'],
    ['1e3', 'Starting price must be a number'],
    [[150], 'Starting price must be a number'],
    [Number.POSITIVE_INFINITY, 'Starting price must be a number'],
    [-150, startingPriceMessages.tooLow],
    [1000.125, 'Amounts may have at most two decimals'],
    ['1000.125', 'Amounts may have at most two decimals'],
    ['1000.100000000000000000001', 'Amounts may have at most two decimals'],
    [1e12, 'Starting price must be at most $1,000,000,000'],
  ])('%j: %s', (startingPrice, message) => {
    expect(problem(CreateAuctionBody, auction({ startingPrice }))).toBe(message);
  });

  it('reads dollars and gives cents', () => {
    expect(CreateAuctionBody.parse(auction({ startingPrice: '1000.10' })).startingPrice).toBe(
      100_010,
    );
  });
});

describe('the optional prices', () => {
  it.each([
    ['reservePrice', 'Reserve price'],
    ['buyNowPrice', 'Buy It Now price'],
  ])('%s: none when absent or empty, at least a dollar, a number', (key, label) => {
    expect(CreateAuctionBody.parse(auction({ [key]: '' }))[key as 'reservePrice']).toBeUndefined();
    expect(problem(CreateAuctionBody, auction({ [key]: 0.99 }))).toBe(
      `${label} must be at least $1`,
    );
    expect(problem(CreateAuctionBody, auction({ [key]: 'lots' }))).toBe(
      `${label} must be a number`,
    );
    expect(CreateAuctionBody.parse(auction({ [key]: '1' }))[key as 'reservePrice']).toBe(100);
    // An edit may remove it.
    expect(EditAuctionBody.parse({ [key]: '' })[key as 'reservePrice']).toBeNull();
  });
});

describe("the auction's bidding rules", () => {
  it('leaves both to the operator when absent', () => {
    const parsed = CreateAuctionBody.parse(auction());
    expect(parsed.increments).toBeUndefined();
    expect(parsed.softClose).toBeUndefined();
  });

  it.each([
    [true, true],
    ['true', true],
    [false, false],
    ['false', false],
  ])('softClose %j (JSON or a form field) is %j', (softClose, on) => {
    expect(CreateAuctionBody.parse(auction({ softClose })).softClose).toBe(on);
  });

  it.each(['one-dollar', 'table'])('takes increments %j', (increments) => {
    expect(CreateAuctionBody.parse(auction({ increments })).increments).toBe(increments);
  });

  it.each([
    [{ increments: 'percent' }, 'increments must be "one-dollar" or "table"'],
    [{ increments: 1 }, 'increments must be "one-dollar" or "table"'],
    [{ increments: '' }, 'increments must be "one-dollar" or "table"'],
    [{ softClose: 'sometimes' }, 'softClose must be true or false'],
    [{ softClose: 1 }, 'softClose must be true or false'],
  ])('refuses %j, naming the field', (field, message) => {
    expect(problem(CreateAuctionBody, auction(field))).toBe(message);
  });
});

describe('texts and their limits (rules.maxLength)', () => {
  const { title, description, categoryName, categoryDescription } = rules.maxLength;

  it('takes a title of the longest length and refuses one character more', () => {
    expect(CreateAuctionBody.parse(auction({ title: 'x'.repeat(title) })).title).toHaveLength(
      title,
    );
    expect(problem(CreateAuctionBody, auction({ title: 'x'.repeat(title + 1) }))).toBe(
      `Title must be at most ${title} characters`,
    );
    expect(problem(EditAuctionBody, { title: 'x'.repeat(title + 1) })).toBe(
      `Title must be at most ${title} characters`,
    );
    expect(title).toBe(200);
  });

  it.each([
    [undefined, 'Title is required'],
    ['   ', 'Title is required'],
    [42, 'Title must be text'],
    ['Hidden\u200Bmark', 'Title must not contain invisible or control characters'],
  ])('title %j: %s', (value, message) => {
    expect(problem(CreateAuctionBody, auction({ title: value }))).toBe(message);
  });

  it('normalises a title (NFKC) and trims it; an emoji with its variation selector stays', () => {
    expect(CreateAuctionBody.parse(auction({ title: '  Ｃｌｏｃｋ ❤️ ' })).title).toBe('Clock ❤️');
  });

  it('limits descriptions, category names and filters', () => {
    expect(problem(CreateAuctionBody, auction({ description: 'x'.repeat(description + 1) }))).toBe(
      `Description must be at most ${description} characters`,
    );
    expect(
      problem(
        CreateAuctionBody,
        auction({ description: 'line one\nline two'.padEnd(description) }),
      ),
    ).toBeUndefined();
    expect(
      problem(CreateCategoryBody, { name: 'x'.repeat(categoryName + 1), description: 'd' }),
    ).toBe(`Category name must be at most ${categoryName} characters`);
    expect(
      problem(CreateCategoryBody, {
        name: 'Radios',
        description: 'x'.repeat(categoryDescription + 1),
      }),
    ).toBe(`Description must be at most ${categoryDescription} characters`);
    expect(problem(CreateCategoryBody, { name: ' ', description: 'd' })).toBe(
      'Please enter Name of Category',
    );
    expect(problem(AuctionFilters, { search: 'x'.repeat(title + 1) })).toBe(
      `Search must be at most ${title} characters`,
    );
    expect(problem(AuctionFilters, { sort: 'cheapest' })).toBe(
      'sort must be one of newest, ending-soon, price-low, price-high',
    );
    expect(AuctionFilters.parse({ sort: '' }).sort).toBeUndefined();
    expect(AuctionFilters.parse({ sort: 'price-high' }).sort).toBe('price-high');
  });

  it('refuses a body that is not an object', () => {
    expect(problem(CreateAuctionBody, ['a'])).toBe('The request body must be an object');
  });
});

describe('accounts', () => {
  const signup = (overrides: Record<string, unknown> = {}) => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    password: 'Secret123',
    confirmPassword: 'Secret123',
    ...overrides,
  });

  it.each([
    [{ firstName: 'A' }, 'First name must be at least 2 characters'],
    [{ lastName: 'x'.repeat(rules.maxLength.name + 1) }, 'Last name must be at most 60 characters'],
    [{ firstName: 42 }, 'First name is required'],
    [{ email: 'ada' }, 'Invalid email address'],
    [{ email: '' }, 'Email is required'],
    [{ password: 'Secret1', confirmPassword: 'Secret1' }, 'Password must be at least 8 characters'],
    [
      { password: 'secret123', confirmPassword: 'secret123' },
      'Password must contain uppercase, lowercase, and number',
    ],
    [{ confirmPassword: '' }, 'Please confirm your password'],
    [{ confirmPassword: 'Secret124' }, 'Passwords do not match'],
  ])('sign-up %j: %s', (overrides, message) => {
    expect(problem(SignupBody, signup(overrides))).toBe(message);
  });

  it('takes a sign-up, ignoring its role, and an address in fullwidth letters as the plain one', () => {
    expect(SignupBody.parse(signup({ role: 'Admin', email: 'ａｄａ@example.com' }))).toMatchObject({
      email: 'ada@example.com',
    });
  });

  it.each([
    [{}, 'Email is required'],
    [{ email: 'ada@example.com' }, 'Password is required'],
    [{ email: 'ada@example.com', password: '12345' }, 'Password must be at least 6 characters'],
    ['not an object', 'Email is required'],
  ])('login %j: %s', (input, message) => {
    expect(problem(LoginBody, input)).toBe(message);
  });
});

describe('bids', () => {
  it.each([
    [{ productId: 'a1', bidAmount: 0.5 }, 'Valid bid amount is required'],
    [{ productId: 'a1', bidAmount: '120' }, 'Valid bid amount is required'],
    [{ productId: 'a1', bidAmount: 120.001 }, 'Bid amount may have at most two decimals'],
    [{ bidAmount: 120 }, 'productId is required'],
    [{ productId: 'a 1', bidAmount: 120 }, 'Invalid productId'],
    [
      { productId: 'a1', bidAmount: 120, maxBidAmount: 0 },
      'Maximum bid must be a number of at least $1',
    ],
  ])('%j: %s', (input, message) => {
    expect(problem(PlaceBidBody, input)).toBe(message);
  });

  it('an edit names a new amount, a new maximum, or both', () => {
    expect(problem(EditBidBody, {})).toBe('Valid bid amount is required');
    expect(EditBidBody.parse({ maxBidAmount: 200 })).toEqual({ maxBidAmount: 200 });
  });
});

describe('paged queries', () => {
  it('checks the limit and the kind of cursor, and leaves whether it names a page to the API', () => {
    expect(PageQuery.parse({ limit: '5', cursor: 'whatever' })).toEqual({
      limit: 5,
      cursor: 'whatever',
    });
    expect(problem(PageQuery, { limit: '0' })).toBe('limit must be a whole number from 1 to 100');
    expect(problem(PageQuery, { limit: '101' })).toBe('limit must be a whole number from 1 to 100');
    expect(problem(PageQuery, { cursor: ['a', 'b'] })).toBe(
      'cursor must be the nextCursor of an earlier page of this list',
    );
    expect(HistoryQuery.parse({})).toEqual({ type: 'all' });
    expect(problem(HistoryQuery, { type: 'lost' })).toBe(
      'type must be one of all, created, won, bid',
    );
  });
});

describe('the route table', () => {
  it('names each route once, under the API base, with its path parameters described', () => {
    const routes = operations.map((op) => `${op.method} ${op.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    for (const op of operations) {
      expect(op.path).toMatch(/^\/[\w\-/{}.]+$/);
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(op.params?.shape ?? {}).sort()).toEqual(inPath);
      // A body is read by the methods that carry one.
      if (op.body) expect(['post', 'put', 'patch']).toContain(op.method);
    }
    expect(API_BASE).toBe('/api/v1');
  });

  it('fills a path with its parameters, encoded', () => {
    const watch = operations.find((op) => op.path === '/auction/watch/{id}') as Operation;
    expect(pathOf(watch, { id: 'a/b' })).toBe('/auction/watch/a%2Fb');
    expect(() => pathOf(watch)).toThrow(/needs id/);
  });
});
