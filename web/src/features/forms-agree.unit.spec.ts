import {
  CreateAuctionBody,
  CreateCategoryBody,
  LoginBody,
  errorCatalog,
  priceProblems,
  rules,
} from '@auction/contracts';
import { SignupBody, formatWholeCents, startingPriceMessages } from '@auction/contracts/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LoginForm, SignupForm } from './auth/schemas';
import {
  CategoryForm,
  categoryField,
  checkPriceRules,
  descriptionField,
  optionalPriceField,
  startingPriceField,
  titleField,
} from './dashboard/auction-form';

/** The first problem's message, or undefined when the input passes. */
const problem = (schema: z.ZodType, input: unknown): string | undefined => {
  const parsed = schema.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
};

const MIN = rules.minStartingPriceCents;

const auction = {
  title: 'Vintage brass clock',
  description: 'A mantel clock',
  category: 'antiques',
  startingPrice: '150',
  auctionDate: '2030-01-01T12:00:00.000Z',
};

// What a person may type into the create and edit forms' fields, each judged by the form and by
// the API (as the form sends it: text): the same verdict and the same message.
const typed: Record<string, readonly string[]> = {
  title: [
    '',
    '   ',
    'Clock',
    'x'.repeat(rules.maxLength.title),
    'x'.repeat(rules.maxLength.title + 1),
    'Hidden\u200Bmark',
    'Ｆｕｌｌｗｉｄｔｈ',
    'Heart ❤️',
  ],
  description: ['', 'Two\nlines', 'x'.repeat(rules.maxLength.description + 1), 'Tab\there\u0007'],
  category: ['', 'antiques', '<script>'],
  startingPrice: [
    '',
    String((MIN - 1) / 100),
    String(MIN / 100),
    '99',
    '100.10',
    '100.125',
    '100.100000000000000000001',
    '1e3',
    'abc',
    '1000000000.01',
  ],
  reservePrice: ['', '0.5', '1', '150.255', 'lots'],
  buyNowPrice: ['', '0.99', '250', '-5'],
};

const formFields = {
  title: titleField,
  description: descriptionField,
  category: categoryField,
  startingPrice: startingPriceField,
  reservePrice: optionalPriceField('reservePrice'),
  buyNowPrice: optionalPriceField('buyNowPrice'),
} as const;

describe('the auction forms judge as the API does', () => {
  for (const [field, values] of Object.entries(typed))
    it.each(values.map((value) => [JSON.stringify(value).slice(0, 40), value]))(
      `${field} %s`,
      (_, value) => {
        const form = problem(formFields[field as keyof typeof formFields], value);
        const api = problem(CreateAuctionBody, { ...auction, [field]: value });
        expect(form).toBe(api);
      },
    );

  it("words the starting price's minimum from rules.minStartingPriceCents", () => {
    const below = String((MIN - 1) / 100);
    expect(problem(startingPriceField, below)).toBe(startingPriceMessages.tooLow);
    expect(problem(startingPriceField, below)).toBe(
      `Starting price must be at least ${formatWholeCents(MIN)}`,
    );
    expect(problem(startingPriceField, String(MIN / 100))).toBeUndefined();
  });

  it('keeps the text as typed (trimmed) for the form to send', () => {
    expect(startingPriceField.parse(' 1000.10 ')).toBe('1000.10');
    expect(titleField.parse('  Clock ')).toBe('Clock');
  });
});

describe("the auction forms judge the prices' relation as the decider does, every problem at once", () => {
  const prices = z
    .object({ startingPrice: z.string(), reservePrice: z.string(), buyNowPrice: z.string() })
    .superRefine(checkPriceRules);
  const issues = (startingPrice: string, reservePrice: string, buyNowPrice: string) => {
    const parsed = prices.safeParse({ startingPrice, reservePrice, buyNowPrice });
    return Object.fromEntries(
      (parsed.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]),
    );
  };
  const reserveLow = errorCatalog.RESERVE_BELOW_STARTING_PRICE.message;
  const buyNowLow = errorCatalog.BUY_NOW_TOO_LOW.message;

  it.each([
    // starting, reserve, Buy It Now: what the form says at each field
    ['100', '', '', {}],
    ['100', '300', '200', { buyNowPrice: buyNowLow }],
    ['100', '50', '60', { reservePrice: reserveLow, buyNowPrice: buyNowLow }],
    ['100', '150', '150', {}],
    ['100', '', '99.99', { buyNowPrice: buyNowLow }],
    // An invalid price is its own field's problem, not a relation's.
    ['abc', '300', '200', { buyNowPrice: buyNowLow }],
    ['100', 'lots', '50', { buyNowPrice: buyNowLow }],
  ])('%s, %s, %s', (starting, reserve, buyNow, expected) => {
    expect(issues(starting, reserve, buyNow)).toEqual(expected);
  });

  it("agrees with the decider's rule (priceProblems) on every pair of a grid", () => {
    const amounts = ['', '100', '150', '200', '300'];
    for (const reserve of amounts)
      for (const buyNow of amounts) {
        const cents = (text: string) => (text === '' ? null : Number(text) * 100);
        const rule = priceProblems(15_000, cents(reserve), cents(buyNow));
        const expected = {
          ...(rule.reserve ? { reservePrice: errorCatalog[rule.reserve].message } : {}),
          ...(rule.buyNow ? { buyNowPrice: errorCatalog[rule.buyNow].message } : {}),
        };
        expect(issues('150', reserve, buyNow), `${reserve} ${buyNow}`).toEqual(expected);
      }
  });
});

describe('the category form judges as the API does', () => {
  it.each([
    ['', 'd'],
    ['Radios', ''],
    ['x'.repeat(rules.maxLength.categoryName + 1), 'd'],
    ['Radios', 'x'.repeat(rules.maxLength.categoryDescription + 1)],
    ['Radios', 'Old valve radios'],
  ])('%j, %j', (name, description) => {
    expect(problem(CategoryForm, { name, description })).toBe(
      problem(CreateCategoryBody, { name, description }),
    );
  });
});

describe('the account forms judge as the API does', () => {
  const signup = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    password: 'Secret123',
    confirmPassword: 'Secret123',
  };

  it.each([
    {},
    { firstName: '' },
    { firstName: 'A' },
    { lastName: 'x'.repeat(61) },
    { email: '' },
    { email: 'ada' },
    { email: 'ada\u200B@example.com' },
    { password: 'Secret1', confirmPassword: 'Secret1' },
    { password: 'secret123', confirmPassword: 'secret123' },
    { confirmPassword: '' },
    { confirmPassword: 'Secret124' },
  ])('sign-up %j', (overrides) => {
    const input = { ...signup, ...overrides };
    expect(problem(SignupForm, { ...input, terms: true })).toBe(problem(SignupBody, input));
  });

  it('asks for the terms, which only the form has', () => {
    expect(problem(SignupForm, { ...signup, terms: false })).toBe(
      'You must agree to the terms and conditions',
    );
  });

  it.each([
    { email: '', password: '' },
    { email: 'ada@example.com', password: '' },
    { email: 'ada@example.com', password: '12345' },
    { email: 'ada@example.com', password: '123456' },
    { email: 'not-an-address', password: '123456' },
  ])('login %j', (input) => {
    expect(problem(LoginForm, input)).toBe(problem(LoginBody, input));
  });
});
