import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUpAndLogIn } from '../../testing/fixtures';
import { type TestServer, startTestServer } from '../../testing/test-server';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.cleanup());

it('signs up, logs in, knows who is logged in, logs out', async () => {
  const user = await signUpAndLogIn(server);
  const me = await user.client.get('/api/v1/auth/me');
  expect(me.body.user).toMatchObject({
    email: user.email,
    role: 'User',
    firstName: user.firstName,
  });
  expect((await user.client.post('/api/v1/auth/logout')).status).toBe(200);
  expect((await user.client.get('/api/v1/auth/me')).status).toBe(401);
});
