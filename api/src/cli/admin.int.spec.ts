import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndLogIn } from '../testing/fixtures';
import { type TestServer, startTestServer } from '../testing/test-server';

const run = promisify(execFile);
const cli = resolve(import.meta.dirname, 'admin.ts');

let server: TestServer;
const admin = (...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: { ...process.env, ...server.storeEnv, DATA_DIR: server.dataDir },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.cleanup());

describe('npm run admin -- grant-role', () => {
  it('grants a role to a signed-up user, seen by their next request without logging in again', async () => {
    const user = await signUpAndLogIn(server);
    const other = await signUpAndLogIn(server);
    expect((await user.client.get('/api/v1/auth/me')).body.user.role).toBe('User');

    const granted = await admin('grant-role', ` ${user.email.toUpperCase()} `, 'Auditor');
    expect(granted.code).toBe(0);
    expect(granted.stdout.trim().split('\n')).toHaveLength(1);
    expect(granted.stdout).toMatch(/Auditor/);
    expect((await user.client.get('/api/v1/auth/me')).body.user.role).toBe('Auditor');
    expect((await other.client.get('/api/v1/auth/me')).body.user.role).toBe('User');

    expect((await admin('grant-role', user.email, 'User')).code).toBe(0);
    expect((await user.client.get('/api/v1/auth/me')).body.user.role).toBe('User');
  });

  it.each([
    ['an unknown role', ['grant-role', 'someone@example.com', 'Root']],
    ['a role in the wrong case', ['grant-role', 'someone@example.com', 'admin']],
    ['a missing role', ['grant-role', 'someone@example.com']],
    ['no arguments', []],
    ['an unknown command', ['revoke-role', 'someone@example.com', 'Admin']],
    ['extra arguments', ['grant-role', 'someone@example.com', 'Admin', 'extra']],
  ])('exits 2 with the usage for %s', async (_case, args) => {
    const result = await admin(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/usage: npm run admin -- grant-role <email> <role>/);
  });

  it('exits 1 for an e-mail with no account', async () => {
    const result = await admin('grant-role', 'nobody@example.com', 'Admin');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No account with e-mail nobody@example\.com/);
  });
});
