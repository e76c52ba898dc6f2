import { type AuctionView, type CategoryView } from '@auction/contracts';
import { DAY_MS } from '@auction/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestUser, fetchAuction, signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

/**
 * Look-alike text (issue 15, item 6): text is normalised (NFKC) at the edge, invisible and
 * control characters are refused in names, titles, e-mails and category names, and category
 * names are unique across confusable spellings.
 */

const A = '/api/v1/auction';
const SIGNUP = '/api/v1/auth/signup';
const hidden = (label: string) => `${label} must not contain invisible or control characters`;

let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  user = await signUpAndLogIn(server);
});
afterAll(() => server.cleanup());

const categories = async () =>
  (await server.client().get(`${A}/getAllCategories`)).body.categories as CategoryView[];

const createCategory = (name: string, description = 'Look-alike') =>
  user.client.post(`${A}/createCategory`, { json: { name, description } });

const expectRefused = (
  res: { status: number; body: unknown },
  status: number,
  message: string,
): void => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ success: false, message });
};

describe('category names', () => {
  it.each([
    ['with a zero-width space', 'Elec\u200btronics', 400, hidden('Category name')],
    ['with a zero-width joiner', 'Electronics\u200d', 400, hidden('Category name')],
    ['with a right-to-left override', '\u202eElectronics', 400, hidden('Category name')],
    ['in fullwidth letters', 'Ｅｌｅｃｔｒｏｎｉｃｓ', 409, 'Category already exists'],
    ['with a Cyrillic Е', '\u0415lectronics', 409, 'Category already exists'],
    ['with a Cyrillic е and о', 'El\u0435ctr\u043enics', 409, 'Category already exists'],
    ['in capitals with a Cyrillic Е', '\u0415LECTRONICS', 409, 'Category already exists'],
    ['with a digit 0 for the o', 'Electr0nics', 409, 'Category already exists'],
    ['with a Greek Α', '\u0391ntiques', 409, 'Category already exists'],
  ])('refuses "Electronics" %s and changes nothing', async (_name, name, status, message) => {
    const before = await categories();
    expectRefused(await createCategory(name), status, message);
    expect(await categories()).toEqual(before);
  });

  it('holds uniqueness against look-alikes of a category created later, and a plain name works', async () => {
    const created = await createCategory('Rare Maps', 'Old maps');
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.category).toMatchObject({ name: 'Rare Maps' });
    const before = await categories();
    expect(before).toContainEqual(created.body.category);

    expectRefused(await createCategory('R\u0430re Maps'), 409, 'Category already exists');
    expectRefused(await createCategory('ＲＡＲＥ ＭＡＰＳ'), 409, 'Category already exists');
    expectRefused(await createCategory('Rare\u3000Maps'), 409, 'Category already exists');
    expectRefused(await createCategory('Rare Ma\u200bps'), 400, hidden('Category name'));
    expect(await categories()).toEqual(before);

    const plain = await createCategory('Rare Globes', 'Old globes');
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(await categories()).toContainEqual(plain.body.category);
  });

  it.each([
    ['zero-width spaces', '\u200b\u200b\u200b'],
    ['Hangul fillers', '\u3164\u3164'],
    ['blank Braille patterns', '\u2800\u2800'],
    ['a byte-order mark between spaces', ' \ufeff\u200b '],
  ])('refuses a name of only %s with a 400', async (_name, name) => {
    const before = await categories();
    const res = await createCategory(name);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await categories()).toEqual(before);
  });

  it('stores the normalised name', async () => {
    const res = await createCategory('Ｐｏｓｔｃａｒｄｓ', 'Ｏｌｄ ｃａｒｄｓ');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.category).toMatchObject({ name: 'Postcards', description: 'Old cards' });
  });
});

describe('signup', () => {
  let n = 0;
  const fields = (overrides: Record<string, string> = {}) => {
    n += 1;
    return {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `lookalike${n}-${Date.now()}@example.com`,
      password: 'Secret123',
      confirmPassword: 'Secret123',
      ...overrides,
    };
  };
  const signUp = (body: Record<string, string>) => server.client().post(SIGNUP, { json: body });
  const logIn = (email: string) =>
    server.client().post('/api/v1/auth/login', { json: { email, password: 'Secret123' } });

  it('refuses an e-mail with a zero-width character, and no account is made', async () => {
    const email = `ali\u200bce-${Date.now()}@example.com`;
    expectRefused(await signUp(fields({ email })), 400, hidden('Email'));
    expect((await logIn(email.replace('\u200b', ''))).status).toBe(401);
  });

  it.each([
    ['a first name of zero-width spaces', { firstName: '\u200b\u200b' }, hidden('First name')],
    ['a last name of Hangul fillers', { lastName: '\u3164\u3164\u3164' }, hidden('Last name')],
    ['a first name with a bidi override', { firstName: 'Gr\u202eace' }, hidden('First name')],
    ['a first name with a newline', { firstName: 'Gr\nace' }, hidden('First name')],
    ['a last name of ideographic spaces', { lastName: '\u3000\u3000' }, 'Last name is required'],
  ])('refuses %s with a 400', async (_name, overrides, message) => {
    const body = fields(overrides);
    expectRefused(await signUp(body), 400, message);
    expect((await logIn(body.email)).status).toBe(401);
  });

  it('normalises a fullwidth e-mail, so the account signs in with the plain one', async () => {
    const local = `wide${Date.now()}`;
    const wide = [...local].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
    const res = await signUp(fields({ email: `${wide}＠example.com`, firstName: 'Ｇｒａｃｅ' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const login = await logIn(`${local}@example.com`);
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: `${local}@example.com`, firstName: 'Grace' });
  });
});

describe('auction text', () => {
  const auction = (overrides: Record<string, unknown>) => ({
    title: 'Carriage clock',
    description: 'Brass, 1890s',
    category: 'antiques',
    startingPrice: 100,
    auctionDate: new Date(Date.now() + DAY_MS).toISOString(),
    ...overrides,
  });

  it.each([
    ['a title with a zero-width space', { title: 'Carriage\u200bclock' }, hidden('Title')],
    ['a title with a bidi override', { title: 'Carriage \u202ekcolc' }, hidden('Title')],
    ['a title of invisible characters', { title: '\u2800\u3164' }, hidden('Title')],
    ['a description with NUL', { description: 'Brass\u0000' }, hidden('Description')],
    ['a description with a bidi override', { description: 'a\u202eb' }, hidden('Description')],
  ])('refuses %s with a 400', async (_name, overrides, message) => {
    const before = (await user.client.get(`${A}/getAuctions`)).body.auctions as unknown[];
    const res = await user.client.post(`${A}/createAuction`, { json: auction(overrides) });
    expectRefused(res, 400, message);
    expect((await user.client.get(`${A}/getAuctions`)).body.auctions).toHaveLength(before.length);
  });

  it('keeps newlines and emoji in a description, normalises a fullwidth title', async () => {
    const res = await user.client.post(`${A}/createAuction`, {
      json: auction({
        title: 'Ｃａｒｒｉａｇｅ clock \u2708\ufe0f',
        description: 'Brass.\n\tServiced \u{1f469}\u200d\u{1f527}',
      }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const view: AuctionView = await fetchAuction(server, res.body.auction._id);
    expect(view.title).toBe('Carriage clock \u2708\ufe0f');
    expect(view.description).toBe('Brass.\n\tServiced \u{1f469}\u200d\u{1f527}');

    const edit = await user.client.patch(`${A}/editAuction/${view._id}`, {
      json: {
        title: 'Clock\u200b',
        description: 'x',
        startingPrice: 100,
        auctionEndTime: view.auctionEndTime,
      },
    });
    expectRefused(edit, 400, hidden('Title'));
  });
});
