import Database from 'better-sqlite3';
import { DomainError, type PublicUser, rejection } from '@auction/contracts';
import type { UserDirectory } from '@auction/projections';
import { deletedUser } from '@auction/projections';
import { type Account, type NewAccount, type Role, normaliseEmail, publicUser } from './account';

interface Row {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  role: Role;
  image_url: string | null;
  password_hash: string | null;
  google_subject: string | null;
  created_at: string;
}

const toAccount = (row: Row): Account => ({
  id: row.id,
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  role: row.role,
  imageUrl: row.image_url,
  passwordHash: row.password_hash,
  googleSubject: row.google_subject,
  createdAt: row.created_at,
});

/**
 * Accounts in `DATA_DIR/accounts.sqlite`. The e-mail is unique after trimming and case-folding,
 * enforced by a unique index, so concurrent signups for one address cannot both succeed.
 * Erasing an account deletes its row: the id in events then reads as "Deleted user".
 */
export class SqliteAccountStore implements UserDirectory {
  private readonly db: Database.Database;
  /** Read on every authenticated request (passport's deserializeUser). */
  private selectById: Database.Statement | undefined;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS accounts (
      id TEXT PRIMARY KEY,
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL,
      email TEXT NOT NULL,
      email_key TEXT NOT NULL UNIQUE,
      role TEXT NOT NULL DEFAULT 'User',
      image_url TEXT,
      password_hash TEXT,
      google_subject TEXT UNIQUE,
      created_at TEXT NOT NULL
    )`);
  }

  /** Throws `EMAIL_TAKEN` when the address is in use. Role is always `User`. */
  create(account: NewAccount): Account {
    try {
      this.db
        .prepare(
          `INSERT INTO accounts (id, first_name, last_name, email, email_key, role, image_url, password_hash, google_subject, created_at)
           VALUES (?, ?, ?, ?, ?, 'User', ?, ?, ?, ?)`,
        )
        .run(
          account.id,
          account.firstName,
          account.lastName,
          account.email.trim(),
          normaliseEmail(account.email),
          account.imageUrl,
          account.passwordHash,
          account.googleSubject,
          account.createdAt,
        );
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new DomainError(rejection('EMAIL_TAKEN'));
      }
      throw error;
    }
    return this.byId(account.id) as Account;
  }

  byId(id: string): Account | undefined {
    this.selectById ??= this.db.prepare('SELECT * FROM accounts WHERE id = ?');
    const row = this.selectById.get(id) as Row | undefined;
    return row && toAccount(row);
  }

  byEmail(email: string): Account | undefined {
    const row = this.db
      .prepare('SELECT * FROM accounts WHERE email_key = ?')
      .get(normaliseEmail(email)) as Row | undefined;
    return row && toAccount(row);
  }

  byGoogleSubject(subject: string): Account | undefined {
    const row = this.db.prepare('SELECT * FROM accounts WHERE google_subject = ?').get(subject) as
      Row | undefined;
    return row && toAccount(row);
  }

  linkGoogle(id: string, subject: string): void {
    this.db.prepare('UPDATE accounts SET google_subject = ? WHERE id = ?').run(subject, id);
  }

  /** Returns false when no account has this e-mail. */
  setRole(email: string, role: Role): boolean {
    return (
      this.db
        .prepare('UPDATE accounts SET role = ? WHERE email_key = ?')
        .run(role, normaliseEmail(email)).changes > 0
    );
  }

  /** Deletes the account and every piece of personal data in it. */
  erase(id: string): void {
    this.db.prepare('DELETE FROM accounts WHERE id = ?').run(id);
  }

  lookup(ids: readonly string[]): Promise<Map<string, PublicUser>> {
    const users = new Map<string, PublicUser>();
    const select = this.db.prepare('SELECT * FROM accounts WHERE id = ?');
    for (const id of new Set(ids)) {
      const row = select.get(id) as Row | undefined;
      users.set(id, row ? publicUser(toAccount(row)) : deletedUser(id));
    }
    return Promise.resolve(users);
  }

  close(): void {
    this.db.close();
  }
}
