/**
 * `npm run admin -- grant-role <email> <role>`   give an account the role Auditor, Admin or User
 * Safe while the server runs: it reads the role from the account store on every request.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Role, roles } from '../accounts/account';
import { SqliteAccountStore } from '../accounts/sqlite-account-store';
import { loadConfig } from '../config';

const usage = `usage: npm run admin -- grant-role <email> <role>   (role: ${roles.join(', ')})`;

const isRole = (value: string | undefined): value is Role => roles.some((role) => role === value);

const main = (args: readonly string[]): number => {
  const [command, email, role, ...rest] = args;
  if (command !== 'grant-role' || !email?.trim() || !isRole(role) || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  const filename = join(loadConfig().DATA_DIR, 'accounts.sqlite');
  const accounts = existsSync(filename) ? new SqliteAccountStore(filename) : undefined;
  try {
    if (!accounts?.setRole(email, role)) {
      console.error(`No account with e-mail ${email}`);
      return 1;
    }
    console.log(`Granted role ${role} to ${email}`);
    return 0;
  } finally {
    accounts?.close();
  }
};

process.exitCode = main(process.argv.slice(2));
