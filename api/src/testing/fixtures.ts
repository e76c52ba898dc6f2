import type { TestClient, TestServer } from './test-server';

export interface TestUser {
  readonly client: TestClient;
  readonly id: string;
  readonly email: string;
  readonly password: string;
  readonly firstName: string;
  readonly lastName: string;
}

let counter = 0;

/** Signs a new user up over HTTP and logs them in; returns their client (with the session). */
export const signUpAndLogIn = async (
  server: TestServer,
  overrides: { firstName?: string; lastName?: string; email?: string; password?: string } = {},
): Promise<TestUser> => {
  const n = ++counter;
  const user = {
    firstName: overrides.firstName ?? `First${n}`,
    lastName: overrides.lastName ?? `Last${n}`,
    email: overrides.email ?? `user${n}-${Date.now()}@example.com`,
    password: overrides.password ?? 'Secret123',
  };
  const client = server.client();
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...user, confirmPassword: user.password })) form.set(k, v);
  const signup = await client.post('/api/v1/auth/signup', { form });
  if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const login = await client.post('/api/v1/auth/login', {
    json: { email: user.email, password: user.password },
  });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return { ...user, client, id: (login.body as { user: { _id: string } }).user._id };
};
