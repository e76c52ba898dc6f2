import type { UserDirectory } from '@auction/projections';
import type { Account, NewAccount, Role } from './account';

/**
 * Where accounts live: the only place personal data is kept (events carry ids alone). It is also
 * the read side's `UserDirectory`, so an unknown or erased id reads as "Deleted user".
 * Adapters: `SqliteAccountStore` (DATA_DIR/accounts.sqlite) and `MongoAccountStore`; both pass
 * `account-store.contract.ts`.
 */
export interface AccountStore extends UserDirectory {
  /**
   * Throws DomainError `EMAIL_TAKEN` when the normalised e-mail (or the Google subject) is in use,
   * decided by a unique index, so concurrent sign-ups for one address cannot both succeed.
   * Role is always `User`.
   */
  create(account: NewAccount): Promise<Account>;
  byId(id: string): Promise<Account | undefined>;
  /**
   * `byId` answered synchronously, where the adapter can (SQLite, from its cache or the file):
   * the session middleware looks the signed-in account up on every request, and a promise costs
   * it a turn of the microtask queue. Same answer as `byId`.
   */
  byIdNow?(id: string): Account | undefined;
  /** By the e-mail trimmed and case-folded. */
  byEmail(email: string): Promise<Account | undefined>;
  byGoogleSubject(subject: string): Promise<Account | undefined>;
  /** Rejects when the subject is already linked to another account (a unique index). */
  linkGoogle(id: string, subject: string): Promise<void>;
  /** Resolves to false when no account has this e-mail. */
  setRole(email: string, role: Role): Promise<boolean>;
  /** Deletes the account and every piece of personal data in it, for real. */
  erase(id: string): Promise<void>;
  /** Resolves when the store answers (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
