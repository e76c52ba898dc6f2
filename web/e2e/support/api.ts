import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import type { Account } from './people';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Calls the API as the page's user (same cookies), for test setup a person would do in many clicks. */
export const apiAs = async (
  page: Page,
  baseURL: string,
  method: 'POST' | 'GET' | 'PUT' | 'DELETE',
  path: string,
  data?: unknown,
) => {
  const response = await page.request.fetch(`/api/v1${path}`, {
    method,
    headers: { Origin: baseURL },
    ...(data === undefined ? {} : { data }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok())
    throw new Error(`${method} ${path}: ${response.status()} ${JSON.stringify(body)}`);
  return body;
};

/** Signs up and logs in through the API: the page's context then holds the session cookie. */
export const registerThroughApi = async (page: Page, baseURL: string, account: Account) => {
  await apiAs(page, baseURL, 'POST', '/auth/signup', {
    ...account,
    confirmPassword: account.password,
    role: 'User',
  });
  await apiAs(page, baseURL, 'POST', '/auth/login', {
    email: account.email,
    password: account.password,
  });
};

/** `npm run admin -- grant-role`, against the server's data directory. */
export const grantRole = (dataDir: string, email: string, role: 'Auditor' | 'Admin') => {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'api/src/cli/admin.ts', 'grant-role', email, role],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`grant-role failed: ${result.stderr}`);
};
