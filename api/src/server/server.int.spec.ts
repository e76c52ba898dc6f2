import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { startServer } from './server';
import { signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
});

describe('server', () => {
  it('answers health once it can serve, with security headers and no framework banner', async () => {
    server = await startTestServer();
    const res = await server.client().get('/api/v1/health');
    expect(res.status).toBe(200);
    const onMongo = Boolean(server.storeEnv.MONGODB_URL);
    const store = (embedded: string) => ({
      adapter: onMongo ? 'mongodb' : embedded,
      reachable: true,
    });
    expect(res.body).toEqual({
      success: true,
      message: 'OK',
      stores: {
        events: { adapter: 'sqlite', reachable: true },
        read: store('sqlite'),
        accounts: store('sqlite'),
        sessions: store('sqlite'),
        images: store('files'),
      },
      // Each read model's lag behind the log, and how reads fared against clients' tokens.
      readModels: {
        ready: true,
        startHead: expect.any(Number),
        projections: expect.arrayContaining([
          expect.objectContaining({ name: 'catalog', role: 'running', behind: 0 }),
        ]),
      },
      reads: { waited: 0, answeredBehind: 0 },
    });
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('answers health 503 and names the store that does not answer', async () => {
    server = await startTestServer();
    await server.deps.read.close();
    const res = await server.client().get('/api/v1/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      success: false,
      message: 'A store is unreachable',
      stores: { read: { reachable: false }, events: { reachable: true } },
    });
  });

  it.each([
    ['MONGODB_URL', { MONGODB_URL: 'mongodb://127.0.0.1:1' }],
    [
      'EVENTSTORE_CONNECTION_STRING',
      { EVENTSTORE_CONNECTION_STRING: 'esdb://127.0.0.1:1?tls=false' },
    ],
  ])(
    'stops start-up within seconds, naming %s, when its server cannot be reached',
    async (name, env) => {
      const started = Date.now();
      await expect(startTestServer({ ...env, STORE_CONNECT_TIMEOUT_MS: '500' })).rejects.toThrow(
        new RegExp(`^${name}: `),
      );
      expect(Date.now() - started).toBeLessThan(5000);
    },
  );

  it('answers unknown routes with a 404 in the usual shape', async () => {
    server = await startTestServer();
    const res = await server.client().get('/api/v1/nope');
    expect(res).toMatchObject({ status: 404, body: { success: false, message: 'Not found' } });
  });

  it('refuses a mutating request from another site, and malformed JSON, with a message', async () => {
    server = await startTestServer();
    const evil = server.client('https://evil.example');
    const res = await evil.post('/api/v1/auth/logout', { json: {} });
    expect(res).toMatchObject({
      status: 403,
      body: { success: false, message: 'Cross-site request refused' },
    });
    const crossSite = await server
      .client(null)
      .post('/api/v1/auth/logout', { json: {} }, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const malformed = await server.client().post('/api/v1/auth/login', { raw: '{"email": ' });
    expect(malformed).toMatchObject({
      status: 400,
      body: { success: false, message: 'The request body is not valid JSON' },
    });
    const huge = await server
      .client()
      .post('/api/v1/auth/login', { raw: JSON.stringify({ email: 'x'.repeat(200_000) }) });
    expect(huge).toMatchObject({ status: 413, body: { success: false } });
  });

  it('drains and closes cleanly, and a restart on the same stores serves again, sessions kept', async () => {
    server = await startTestServer();
    const user = await signUpAndLogIn(server);
    const { dataDir, port, storeEnv } = server;
    await server.close();
    const again = await startServer(
      loadConfig({ ...storeEnv, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' }),
      { log: () => undefined },
    );
    try {
      // A connection pooled from before the restart may fail once; the next request opens anew.
      const health = await fetch(`${again.url}/api/v1/health`).catch(() =>
        fetch(`${again.url}/api/v1/health`),
      );
      expect(health.status).toBe(200);
      const me = await user.client.get('/api/v1/auth/me');
      expect(me.status).toBe(200);
      expect(me.body.user.email).toBe(user.email);
    } finally {
      await again.close();
    }
  });
});
