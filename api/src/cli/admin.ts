/**
 * `npm run admin -- grant-role <email> <role>`   give an account the role Auditor, Admin or User
 * Safe while the server runs: it reads the role from the account store on every request.
 */
import { type Role, roles } from '../accounts/account';
import { loadConfig } from '../config/config';
import { openAccounts } from '../server/open-stores';

const usage = `usage: npm run admin -- grant-role <email> <role>   (role: ${roles.join(', ')})`;

const isRole = (value: string | undefined): value is Role => roles.some((role) => role === value);

const main = async (args: readonly string[]): Promise<number> => {
  const [command, email, role, ...rest] = args;
  if (command !== 'grant-role' || !email?.trim() || !isRole(role) || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  const opened = await openAccounts(loadConfig());
  const { accounts } = opened;
  try {
    if (!(await accounts.setRole(email, role))) {
      console.error(`No account with e-mail ${email}`);
      return 1;
    }
    console.log(`Granted role ${role} to ${email}`);
    return 0;
  } finally {
    await opened.close();
  }
};

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
