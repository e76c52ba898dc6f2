import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from './testing/test-server';

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
    expect(res.body).toEqual({ success: true, message: 'OK' });
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

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

  it('drains and closes cleanly, and a restart on the same data directory serves again', async () => {
    server = await startTestServer();
    const { dataDir } = server;
    await server.close();
    const { startServer } = await import('./server');
    const { loadConfig } = await import('./config');
    const again = await startServer(
      loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' }),
      { log: () => undefined },
    );
    try {
      expect((await fetch(`${again.url}/api/v1/health`)).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
