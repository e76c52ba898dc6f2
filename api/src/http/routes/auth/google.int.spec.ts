import { userStream } from '@auction/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../../testing/fixtures';
import {
  type OidcProvider,
  type OidcUser,
  startOidcProvider,
} from '../../../testing/oidc-provider';
import { type TestClient, type TestServer, startTestServer } from '../../../testing/test-server';

const CLIENT_ID = 'auction-test-client';
const CLIENT_SECRET = 'auction-test-secret';
const NOT_VERIFIED = 'The Google sign-in could not be verified';

let counter = 0;
const googleUser = (overrides: Partial<OidcUser> = {}): OidcUser => {
  const n = ++counter;
  return {
    sub: `google-sub-${n}-${Date.now()}`,
    email: `google${n}-${Date.now()}@example.com`,
    emailVerified: true,
    givenName: 'Grace',
    familyName: 'Hopper',
    name: 'Grace Hopper',
    ...overrides,
  };
};

const googleRedirectFlow = async (
  client: TestClient,
  tamper: (callback: URL) => void = () => undefined,
): Promise<string | null> => {
  const start = await client.get('/api/v1/auth/google');
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location') ?? '');
  expect(authorize.searchParams.get('scope')).toBe('openid email profile');
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  const atProvider = await fetch(authorize, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get('location') ?? '');
  expect(callback.pathname).toBe('/api/v1/auth/google/callback');
  tamper(callback);
  const back = await client.get(`${callback.pathname}${callback.search}`);
  expect(back.status).toBe(302);
  return back.headers.get('location');
};

describe('Google sign-in with a configured OpenID provider', () => {
  let provider: OidcProvider;
  let server: TestServer;

  beforeAll(async () => {
    provider = await startOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      user: googleUser(),
    });
    server = await startTestServer({
      GOOGLE_ISSUER: provider.issuer,
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    });
    provider.allowRedirectUri(`${server.deps.origin}/api/v1/auth/google/callback`);
  });
  afterAll(async () => {
    await server.cleanup();
    await provider.close();
  });

  const googleLogin = (client: TestClient, credential: unknown) =>
    client.post('/api/v1/auth/google-login', { json: { credential } });

  it('says on its status route that Google sign-in is available', async () => {
    const res = await server.client().get('/api/v1/auth/google/status');
    expect(res.body).toEqual({
      success: true,
      message: 'Google sign-in is available',
      enabled: true,
    });
  });

  it('signs a new user in through the redirect flow and registers the account', async () => {
    const user = googleUser({ givenName: 'Ada', familyName: 'Lovelace' });
    provider.setUser(user);
    const client = server.client();
    expect(await googleRedirectFlow(client)).toBe('/dashboard/my-profile');

    const me = await client.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({
      email: user.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'User',
      image: null,
    });
    const events = await server.deps.events.readStream(userStream(me.body.user._id));
    expect(events.map((e) => [e.type, (e.data as { method: string }).method])).toEqual([
      ['AccountRegistered', 'google'],
    ]);
  });

  it('signs the same Google user in to the same account the second time', async () => {
    provider.setUser(googleUser());
    const first = server.client();
    await googleRedirectFlow(first);
    const second = server.client();
    expect(await googleRedirectFlow(second)).toBe('/dashboard/my-profile');
    const a = await first.get('/api/v1/auth/me');
    const b = await second.get('/api/v1/auth/me');
    expect(b.body.user._id).toBe(a.body.user._id);
  });

  it('links Google to an existing password account with the same e-mail', async () => {
    const password = await signUpAndLogIn(server);
    provider.setUser(googleUser({ email: password.email.toUpperCase() }));
    const client = server.client();
    expect(await googleRedirectFlow(client)).toBe('/dashboard/my-profile');
    const me = await client.get('/api/v1/auth/me');
    expect(me.body.user).toMatchObject({ _id: password.id, firstName: password.firstName });
    const relogin = await server.client().post('/api/v1/auth/login', {
      json: { email: password.email, password: password.password },
    });
    expect(relogin.status).toBe(200);
  });

  it('splits the display name on its first space when the profile has no given name', async () => {
    const user = googleUser({
      givenName: undefined,
      familyName: undefined,
      name: 'Mary Ann Smith',
    });
    provider.setUser(user);
    const client = server.client();
    await googleRedirectFlow(client);
    const me = await client.get('/api/v1/auth/me');
    expect(me.body.user).toMatchObject({ firstName: 'Mary', lastName: 'Ann Smith' });
  });

  it('refuses a callback whose state was tampered with, without a session', async () => {
    provider.setUser(googleUser());
    const client = server.client();
    const landed = await googleRedirectFlow(client, (callback) =>
      callback.searchParams.set('state', 'forged-state'),
    );
    expect(landed).toBe('/login?error=google');
    expect((await client.get('/api/v1/auth/me')).status).toBe(401);
  });

  it('refuses a replayed callback and a callback without a started sign-in', async () => {
    provider.setUser(googleUser());
    const client = server.client();
    let replay = '';
    await googleRedirectFlow(client, (callback) => {
      replay = `${callback.pathname}${callback.search}`;
    });
    const again = await client.get(replay);
    expect(again.headers.get('location')).toBe('/login?error=google');
    const stranger = server.client();
    expect((await stranger.get(replay)).headers.get('location')).toBe('/login?error=google');
    expect((await stranger.get('/api/v1/auth/me')).status).toBe(401);
  });

  it('refuses a user whose e-mail the provider has not verified', async () => {
    const user = googleUser({ emailVerified: false });
    provider.setUser(user);
    const client = server.client();
    expect(await googleRedirectFlow(client)).toBe('/login?error=google');
    expect((await client.get('/api/v1/auth/me')).status).toBe(401);
    expect(await server.deps.accounts.byEmail(user.email)).toBeUndefined();
  });

  it('logs in with an ID token the provider signed', async () => {
    const user = googleUser({ givenName: 'Alan', familyName: 'Turing' });
    provider.setUser(user);
    const client = server.client();
    const res = await googleLogin(client, await provider.signIdToken());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Login Successful',
      user: { email: user.email, firstName: 'Alan', lastName: 'Turing', role: 'User' },
    });
    const me = await client.get('/api/v1/auth/me');
    expect(me.body.user._id).toBe(res.body.user._id);
  });

  it.each([
    ['signed with another key', {}, { key: 'other' as const }],
    ['expired', { iat: 1_600_000_000, exp: 1_600_000_600 }, {}],
    ['for another audience', { aud: 'someone-else' }, {}],
    ['from another issuer', { iss: 'https://issuer.example.com' }, {}],
    ['with an unverified e-mail', { email_verified: false }, {}],
    ['signed with HS256 and the client secret', {}, { alg: 'HS256' as const }],
    ['unsigned (alg none)', {}, { alg: 'none' as const }],
  ])('refuses an ID token %s', async (_label, overrides, options) => {
    const user = googleUser();
    provider.setUser(user);
    const client = server.client();
    const res = await googleLogin(client, await provider.signIdToken(overrides, options));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: NOT_VERIFIED });
    expect((await client.get('/api/v1/auth/me')).status).toBe(401);
    expect(await server.deps.accounts.byEmail(user.email)).toBeUndefined();
  });

  it('refuses a second Google identity for an e-mail already linked to another', async () => {
    const user = googleUser();
    provider.setUser(user);
    const first = await googleLogin(server.client(), await provider.signIdToken());
    expect(first.status).toBe(200);
    const client = server.client();
    const res = await googleLogin(client, await provider.signIdToken({ sub: 'another-subject' }));
    expect(res.status).toBe(409);
    expect((await client.get('/api/v1/auth/me')).status).toBe(401);
  });

  it("never trusts the spec's client-asserted profile", async () => {
    const email = `asserted-${Date.now()}@example.com`;
    const client = server.client();
    const res = await client.post('/api/v1/auth/google-login', {
      json: { uid: 'google-uid', firstName: 'Eve', lastName: 'Mallory', email, imageUrl: null },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, message: NOT_VERIFIED });
    expect(client.hasSession()).toBe(false);
    expect(await server.deps.accounts.byEmail(email)).toBeUndefined();
    const garbage = await googleLogin(client, 'not.a.jwt');
    expect(garbage.status).toBe(401);
  });
});

describe('Google sign-in while the issuer is down', () => {
  it('answers 503, not 401: the token was never checked', async () => {
    const provider = await startOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      user: googleUser(),
    });
    const token = await provider.signIdToken({});
    const server = await startTestServer({
      GOOGLE_ISSUER: provider.issuer,
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    });
    try {
      await provider.close();
      const res = await server
        .client()
        .post('/api/v1/auth/google-login', { json: { credential: token } });
      expect(res).toMatchObject({
        status: 503,
        body: { success: false, message: 'The service is busy, please try again' },
      });
    } finally {
      await server.cleanup();
    }
  });
});

describe('Google sign-in without configuration', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.cleanup());

  it('answers 404 on every endpoint, a forged token and the callback included: never a 5xx', async () => {
    const client = server.client();
    const answers = [
      await client.get('/api/v1/auth/google'),
      await client.get('/api/v1/auth/google/callback?code=forged&state=forged'),
      await client.post('/api/v1/auth/google-login', { json: { credential: 'x' } }),
      await client.post('/api/v1/auth/google-login', { json: {} }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        message: 'Google sign-in is not available on this server',
      });
    }
  });

  it('says so on its status route, which the web app reads to disable its buttons', async () => {
    const res = await server.client().get('/api/v1/auth/google/status');
    expect(res).toMatchObject({
      status: 200,
      body: {
        success: true,
        message: 'Google sign-in is not available on this server',
        enabled: false,
      },
    });
  });
});
