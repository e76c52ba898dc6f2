import { userStream } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../../testing/fixtures';
import {
  PNG_1X1,
  type TestClient,
  type TestResponse,
  type TestServer,
  startTestServer,
} from '../../../testing/test-server';

const SIGNUP = '/api/v1/auth/signup';
const LOGIN = '/api/v1/auth/login';
const LOGOUT = '/api/v1/auth/logout';
const ME = '/api/v1/auth/me';
const PASSWORD = 'Secret123';

let counter = 0;
const uniqueEmail = (tag = 'user') => `${tag}${++counter}-${Date.now()}@example.com`;

type Fields = Record<string, string | undefined>;
const signupFields = (overrides: Fields = {}): Fields => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: uniqueEmail(),
  password: PASSWORD,
  confirmPassword: PASSWORD,
  ...overrides,
});

const signupForm = (fields: Fields, image?: { bytes: Buffer; name: string; type: string }) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, v);
  if (image) form.set('image', new Blob([image.bytes], { type: image.type }), image.name);
  return form;
};
const png = { bytes: PNG_1X1, name: 'me.png', type: 'image/png' };

const signUp = (client: TestClient, fields: Fields, image?: typeof png) =>
  client.post(SIGNUP, { form: signupForm(fields, image) });

const logIn = (client: TestClient, email: string, password = PASSWORD) =>
  client.post(LOGIN, { json: { email, password } });

const sessionCookie = (res: TestResponse): string | undefined =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('auction.sid=') && pair !== 'auction.sid=');

/** Accounts with this e-mail (at most one: the store's unique index). */
const accountRows = async (server: TestServer, email: string): Promise<number> =>
  (await server.deps.accounts.byEmail(email)) ? 1 : 0;

const uploads = (server: TestServer) => server.deps.images.list();

const registrations = async (server: TestServer) =>
  (await server.deps.events.readAll({ eventTypes: ['AccountRegistered'] })).length;

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.cleanup());

describe('POST /auth/signup', () => {
  it('creates a User account from a multipart form without a photo, and records AccountRegistered', async () => {
    const client = server.client();
    const fields = signupFields();
    const res = await signUp(client, fields);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, message: 'Sign Up Successful' });
    expect(client.hasSession()).toBe(false);

    const login = await logIn(client, fields.email ?? '');
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ email: fields.email, role: 'User', image: null });
    const events = await server.deps.events.readStream(userStream(login.body.user._id));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'AccountRegistered',
        expect.objectContaining({ userId: login.body.user._id, method: 'password' }),
      ],
    ]);
  });

  it('accepts a JSON body too', async () => {
    const fields = signupFields();
    const res = await server.client().post(SIGNUP, { json: fields });
    expect(res.status).toBe(201);
    expect((await logIn(server.client(), fields.email ?? '')).status).toBe(200);
  });

  it('stores the photo and serves it at its image.url with the same bytes', async () => {
    const client = server.client();
    const fields = signupFields();
    expect((await signUp(client, fields, png)).status).toBe(201);
    const { user } = (await logIn(client, fields.email ?? '')).body;
    expect(user.image.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const served = await fetch(`${server.url}${user.image.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG_1X1);
  });

  it.each([
    ['first name missing', 'First name is required', { firstName: undefined }],
    ['first name blank', 'First name is required', { firstName: '   ' }],
    ['first name too short', 'First name must be at least 2 characters', { firstName: 'A' }],
    ['last name missing', 'Last name is required', { lastName: undefined }],
    ['last name too short', 'Last name must be at least 2 characters', { lastName: 'B' }],
    ['email missing', 'Email is required', { email: undefined }],
    ['email invalid', 'Invalid email address', { email: 'not-an-email' }],
    ['email without domain dot', 'Invalid email address', { email: 'ada@example' }],
    ['password missing', 'Password is required', { password: undefined }],
    [
      'password short',
      'Password must be at least 8 characters',
      { password: 'Ab1', confirmPassword: 'Ab1' },
    ],
    [
      'password without uppercase',
      'Password must contain uppercase, lowercase, and number',
      { password: 'secret123', confirmPassword: 'secret123' },
    ],
    [
      'password without lowercase',
      'Password must contain uppercase, lowercase, and number',
      { password: 'SECRET123', confirmPassword: 'SECRET123' },
    ],
    [
      'password without digit',
      'Password must contain uppercase, lowercase, and number',
      { password: 'SecretSecret', confirmPassword: 'SecretSecret' },
    ],
    ['confirmation missing', 'Please confirm your password', { confirmPassword: undefined }],
    ['confirmation mismatch', 'Passwords do not match', { confirmPassword: 'Secret124' }],
  ] as const)('%s → 400 %s', async (_case, message, overrides) => {
    const fields = signupFields(overrides);
    const res = await signUp(server.client(), fields, png);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message });
    if (fields.email) expect(await accountRows(server, fields.email)).toBe(0);
  });

  it('answers an empty or missing body with the first field message', async () => {
    const empty = await server.client().post(SIGNUP, { json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('First name is required');
    const none = await server.client().post(SIGNUP);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('First name is required');
  });

  it('ignores a role in the body: every signup is a User', async () => {
    const multipart = signupFields({ role: 'Admin' });
    expect((await signUp(server.client(), multipart)).status).toBe(201);
    const json = signupFields({ role: 'Admin' });
    expect((await server.client().post(SIGNUP, { json })).status).toBe(201);
    for (const { email } of [multipart, json]) {
      const login = await logIn(server.client(), email ?? '');
      expect(login.body.user.role).toBe('User');
    }
  });

  it('refuses a second account for the same e-mail in any case or spacing, and drops its photo', async () => {
    const email = uniqueEmail('Dup');
    expect((await signUp(server.client(), signupFields({ email }), png)).status).toBe(201);
    const before = await uploads(server);
    for (const variant of [email, email.toUpperCase(), `  ${email.toLowerCase()} `]) {
      const res = await signUp(server.client(), signupFields({ email: variant }), png);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        success: false,
        message: 'An account with this email already exists',
      });
    }
    expect(await uploads(server)).toEqual(before);
    expect(await accountRows(server, email)).toBe(1);
  });

  it('lets exactly one of ten concurrent signups for one e-mail in different cases through', async () => {
    const email = uniqueEmail('race');
    const variants = Array.from({ length: 10 }, (_, i) =>
      [...email].map((c, j) => ((i >> (j % 4)) & 1 ? c.toUpperCase() : c)).join(''),
    );
    expect(new Set(variants).size).toBe(10);
    const uploadsBefore = (await uploads(server)).length;
    const registeredBefore = await registrations(server);

    const results = await Promise.all(
      variants.map((variant) => signUp(server.client(), signupFields({ email: variant }), png)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    expect(await accountRows(server, email)).toBe(1);
    expect(await uploads(server)).toHaveLength(uploadsBefore + 1);
    expect(await registrations(server)).toBe(registeredBefore + 1);
  });

  it('refuses a photo that is not an image by its content (415) and creates no account', async () => {
    const fields = signupFields();
    const before = await uploads(server);
    const fake = {
      bytes: Buffer.from('just some text, honest'),
      name: 'me.png',
      type: 'image/png',
    };
    const res = await signUp(server.client(), fields, fake);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      success: false,
      message: 'Only JPEG, PNG, WebP or GIF images are accepted',
    });
    expect(await accountRows(server, fields.email ?? '')).toBe(0);
    expect(await uploads(server)).toEqual(before);
  });

  it('refuses a photo over 10 MB (413) and creates no account', async () => {
    const fields = signupFields();
    const before = await uploads(server);
    const bytes = Buffer.concat([PNG_1X1, Buffer.alloc(10 * 1024 * 1024)]);
    const res = await signUp(server.client(), fields, { ...png, bytes });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, message: 'The upload is too large (max 10MB)' });
    expect(await accountRows(server, fields.email ?? '')).toBe(0);
    expect(await uploads(server)).toEqual(before);
  });
});

describe('POST /auth/login', () => {
  it('starts a session and answers with the user view', async () => {
    const fields = signupFields({ firstName: 'Grace', lastName: 'Hopper' });
    const client = server.client();
    await signUp(client, fields);
    const res = await logIn(client, ` ${fields.email?.toUpperCase()} `);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Login Successful');
    const { user } = res.body;
    expect(Object.keys(user).sort()).toEqual(
      ['_id', 'createdAt', 'email', 'firstName', 'id', 'image', 'lastName', 'name', 'role'].sort(),
    );
    expect(user).toMatchObject({
      id: user._id,
      name: 'Grace Hopper',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: fields.email,
      role: 'User',
      image: null,
    });
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
    expect(user).not.toHaveProperty('passwordHash');
    expect(client.hasSession()).toBe(true);
  });

  it('answers a wrong password and an unknown e-mail alike: 401, no session', async () => {
    const fields = signupFields();
    await signUp(server.client(), fields);
    const client = server.client();
    const wrong = await logIn(client, fields.email ?? '', 'Secret124');
    const unknown = await logIn(client, uniqueEmail('nobody'));
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, message: 'Invalid email or password' });
    }
    expect(client.hasSession()).toBe(false);
  });

  it('refuses a password login to an account that has no password (Google only)', async () => {
    const email = uniqueEmail('google');
    await server.deps.accounts.create({
      id: `google-${counter}`,
      firstName: 'Goo',
      lastName: 'Gle',
      email,
      imageUrl: null,
      passwordHash: null,
      googleSubject: `subject-${counter}`,
      createdAt: new Date().toISOString(),
    });
    const res = await logIn(server.client(), email);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid email or password');
  });

  it.each([
    ['email missing', 'Email is required', { password: PASSWORD }],
    ['email empty', 'Email is required', { email: '', password: PASSWORD }],
    ['email invalid', 'Invalid email address', { email: 'nope', password: PASSWORD }],
    ['password missing', 'Password is required', { email: 'a@example.com' }],
    ['password empty', 'Password is required', { email: 'a@example.com', password: '' }],
    [
      'password short',
      'Password must be at least 6 characters',
      { email: 'a@example.com', password: 'abc12' },
    ],
  ])('%s → 400 %s', async (_case, message, json) => {
    const res = await server.client().post(LOGIN, { json });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message });
  });

  it('gives a fresh session id at every login; the previous one stops working', async () => {
    const user = await signUpAndLogIn(server);
    const other = await signUpAndLogIn(server);
    const client = server.client();
    const first = sessionCookie(await logIn(client, user.email));
    const second = sessionCookie(await logIn(client, user.email));
    const third = sessionCookie(await logIn(client, other.email));
    expect(first).toBeDefined();
    expect(new Set([first, second, third]).size).toBe(3);

    const replay = (cookie: string | undefined) =>
      server.client().get(ME, { cookie: cookie ?? '' });
    expect((await replay(first)).status).toBe(401);
    expect((await replay(second)).status).toBe(401);
    const current = await replay(third);
    expect(current.status).toBe(200);
    expect(current.body.user.email).toBe(other.email);
  });
});

describe('POST /auth/logout and GET /auth/me', () => {
  it('me is 401 before login, the user after it, 401 after logout even with the old cookie replayed', async () => {
    const client = server.client();
    const before = await client.get(ME);
    expect(before.status).toBe(401);
    expect(before.body).toEqual({ success: false, message: 'Please log in to continue' });

    const fields = signupFields();
    await signUp(client, fields);
    const login = await logIn(client, fields.email ?? '');
    const cookie = sessionCookie(login);
    const me = await client.get(ME);
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual(login.body.user);
    expect(await server.deps.sessions.countForUser(login.body.user._id)).toBe(1);

    const logout = await client.post(LOGOUT);
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ success: true, message: 'Logged Out' });
    expect(client.hasSession()).toBe(false);
    expect((await client.get(ME)).status).toBe(401);

    const replayed = server.client();
    const again = await replayed.get(ME, { cookie: cookie ?? '' });
    expect(again.status).toBe(401);
    expect(again.body.message).toBe('Please log in to continue');
    expect(await server.deps.sessions.countForUser(login.body.user._id)).toBe(0);
  });

  it('logout without a session is still 200', async () => {
    const res = await server.client().post(LOGOUT);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Logged Out');
  });
});

describe('cross-site requests', () => {
  it('refuses signup, login and logout from another origin with 403', async () => {
    const user = await signUpAndLogIn(server);
    const evil = server.client('https://evil.example');
    const fields = signupFields();
    const responses = [
      await signUp(evil, fields),
      await logIn(evil, user.email, user.password),
      await evil.post(LOGOUT),
      await user.client.post(LOGOUT, {}, { origin: 'https://evil.example' }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: 'Cross-site request refused' });
    }
    expect(await accountRows(server, fields.email ?? '')).toBe(0);
    expect((await user.client.get(ME)).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('limits login attempts per address and e-mail, after validation', async () => {
    const limited = await startTestServer({ RATE_LIMIT_LOGIN: '3' });
    try {
      const alice = signupFields();
      const bob = signupFields();
      await signUp(limited.client(), alice);
      await signUp(limited.client(), bob);
      const aliceEmail = alice.email ?? '';
      for (let i = 0; i < 3; i++)
        expect((await logIn(limited.client(), aliceEmail, 'Wrong1234')).status).toBe(401);

      for (const email of [aliceEmail, `  ${aliceEmail.toUpperCase()}`]) {
        const res = await logIn(limited.client(), email);
        expect(res.status).toBe(429);
        expect(res.body).toEqual({
          success: false,
          message: 'Too many login attempts, please try again later',
        });
      }
      const malformed = await limited.client().post(LOGIN, { json: { email: aliceEmail } });
      expect(malformed.status).toBe(400);
      expect(malformed.body.message).toBe('Password is required');
      expect((await logIn(limited.client(), bob.email ?? '')).status).toBe(200);
    } finally {
      await limited.cleanup();
    }
  });

  it('limits signups per address', async () => {
    const limited = await startTestServer({ RATE_LIMIT_SIGNUP: '2' });
    try {
      expect((await signUp(limited.client(), signupFields())).status).toBe(201);
      expect((await signUp(limited.client(), signupFields())).status).toBe(201);
      const third = signupFields();
      const res = await signUp(limited.client(), third);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        success: false,
        message: 'Too many sign-ups from this address, please try again later',
      });
      expect(await accountRows(limited, third.email ?? '')).toBe(0);
    } finally {
      await limited.cleanup();
    }
  });
});
