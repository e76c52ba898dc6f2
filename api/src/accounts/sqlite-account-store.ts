import { setTimeout as delay } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { DomainError, type PublicUser, rejection, deletedUser } from '@auction/contracts';
import { openSqlite } from '@auction/projections';
import { type Account, type NewAccount, type Role, normaliseEmail, publicUser } from './account';
import type { AccountStore } from './account-store';
import { closeSqlite, dataVersion, pingSqlite, settle } from '../stores/sqlite-store';

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

const BUSY_TIMEOUT_MS = 5000;
/** How long each step of the scrub after an erase may wait for other connections. */
const SCRUB_BUSY_MS = 20;
/** How long an erase keeps trying to scrub the files before it answers. */
const SCRUB_WAIT_MS = 2000;

/** Accounts kept in memory by id (each request's signed-in user, the names read models join). */
const CACHED = 10_000;

/**
 * Accounts in `DATA_DIR/accounts.sqlite`; a unique index on the trimmed, case-folded e-mail stops
 * two signups for one address. Erasing rewrites the file and truncates the log so no byte of the
 * account is left (`scrub`). Rows read by id are cached, dropped on every write here and whenever
 * `data_version` shows another connection committed, so a changed account is never served stale.
 */
export class SqliteAccountStore implements AccountStore {
  private readonly db: Database.Database;
  /** Changes when another connection commits to the database file (`data_version`). */
  private readonly dataVersion: () => number;
  private readonly statements: ReturnType<SqliteAccountStore['prepareStatements']>;
  private readonly cache = new Map<string, Account>();
  /** `data_version` when the cache was last known good. */
  private cacheVersion: number | undefined;
  /** An erase since the last `VACUUM`. */
  private vacuumDue = false;
  /** Why the last scrub after an erase did not complete. */
  private scrubBlocker: string | undefined;
  /** Tries the scrub again after an erase that could not complete it at once. */
  private scrubbing: NodeJS.Timeout | undefined;

  constructor(filename: string) {
    this.db = openSqlite(filename, {
      synchronous: 'FULL',
      busyTimeoutMs: BUSY_TIMEOUT_MS,
      secureDelete: true,
    });
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
    this.statements = this.prepareStatements();
    this.dataVersion = dataVersion(this.db, filename);
  }

  private prepareStatements() {
    return {
      insert: this.db.prepare<
        [
          string,
          string,
          string,
          string,
          string,
          string | null,
          string | null,
          string | null,
          string,
        ]
      >(
        `INSERT INTO accounts (id, first_name, last_name, email, email_key, role, image_url, password_hash, google_subject, created_at)
         VALUES (?, ?, ?, ?, ?, 'User', ?, ?, ?, ?)`,
      ),
      /** Read on every authenticated request (passport's deserializeUser). */
      byId: this.db.prepare<[string], Row>('SELECT * FROM accounts WHERE id = ?'),
      byEmail: this.db.prepare<[string], Row>('SELECT * FROM accounts WHERE email_key = ?'),
      byGoogleSubject: this.db.prepare<[string], Row>(
        'SELECT * FROM accounts WHERE google_subject = ?',
      ),
      linkGoogle: this.db.prepare<[string, string]>(
        'UPDATE accounts SET google_subject = ? WHERE id = ?',
      ),
      setRole: this.db.prepare<[Role, string]>('UPDATE accounts SET role = ? WHERE email_key = ?'),
      erase: this.db.prepare<[string]>('DELETE FROM accounts WHERE id = ?'),
    };
  }

  create(account: NewAccount): Promise<Account> {
    return settle(() => {
      try {
        this.statements.insert.run(
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
      return this.read('byId', account.id) as Account;
    });
  }

  byId(id: string): Promise<Account | undefined> {
    return settle(() => this.cachedById(id));
  }

  byIdNow(id: string): Account | undefined {
    return this.cachedById(id);
  }

  byEmail(email: string): Promise<Account | undefined> {
    return settle(() => this.read('byEmail', normaliseEmail(email)));
  }

  byGoogleSubject(subject: string): Promise<Account | undefined> {
    return settle(() => this.read('byGoogleSubject', subject));
  }

  linkGoogle(id: string, subject: string): Promise<void> {
    return settle(() => {
      this.cache.clear();
      this.statements.linkGoogle.run(subject, id);
    });
  }

  setRole(email: string, role: Role): Promise<boolean> {
    return settle(() => {
      this.cache.clear();
      return this.statements.setRole.run(role, normaliseEmail(email)).changes > 0;
    });
  }

  async erase(id: string): Promise<void> {
    const erased = await settle(() => {
      this.cache.clear();
      return this.statements.erase.run(id).changes > 0;
    });
    if (!erased) return;
    this.vacuumDue = true;
    const deadline = Date.now() + SCRUB_WAIT_MS;
    for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
      if (this.scrub()) return;
      if (Date.now() >= deadline) break;
      await delay(pause);
    }
    this.scrubInBackground();
  }

  /**
   * One try at leaving nothing erased in the files, true once done. `secure_delete` misses the
   * copies a page split or merge left in free space, so `VACUUM` rewrites every page; then the log
   * is checkpointed and truncated. Each step waits at most `SCRUB_BUSY_MS` for other connections.
   */
  private scrub(): boolean {
    if (!this.db.open) return true;
    this.db.pragma(`busy_timeout = ${SCRUB_BUSY_MS}`);
    try {
      if (this.vacuumDue) {
        this.db.exec('VACUUM');
        this.vacuumDue = false;
      }
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as {
        busy: number;
        log: number;
      }[];
      this.scrubBlocker =
        result?.busy === 0 && result.log === 0
          ? undefined
          : 'another connection is reading the write-ahead log';
    } catch (error) {
      this.scrubBlocker = error instanceof Error ? error.message : String(error);
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    return this.scrubBlocker === undefined;
  }

  /**
   * An erase that could not scrub the files within `SCRUB_WAIT_MS` answers (the row is gone from
   * every read), says so in a process warning, and the scrub is tried again every second until it
   * succeeds (and once more when this store closes).
   */
  private scrubInBackground(): void {
    process.emitWarning(
      `accounts.sqlite: an erased account's bytes are still in the file or its write-ahead log (${this.scrubBlocker}); trying again every second`,
      { code: 'ACCOUNT_ERASE_PENDING' },
    );
    if (this.scrubbing) return;
    this.scrubbing = setInterval(() => {
      if (this.scrub()) this.stopScrubbing();
    }, 1000);
    this.scrubbing.unref();
  }

  private stopScrubbing(): void {
    clearInterval(this.scrubbing);
    this.scrubbing = undefined;
  }

  lookup(ids: readonly string[]): Promise<Map<string, PublicUser>> {
    return settle(() => {
      const users = new Map<string, PublicUser>();
      for (const id of new Set(ids)) {
        const account = this.cachedById(id);
        users.set(id, account ? publicUser(account) : deletedUser(id));
      }
      return users;
    });
  }

  ping(): Promise<void> {
    return pingSqlite(this.db);
  }

  close(): Promise<void> {
    if (this.scrubbing) {
      this.stopScrubbing();
      this.scrub();
    }
    return closeSqlite(this.db);
  }

  /** By id, from memory while no write (here or by another connection) may have changed it. */
  private cachedById(id: string): Account | undefined {
    const version = this.dataVersion();
    if (version !== this.cacheVersion) {
      this.cache.clear();
      this.cacheVersion = version;
    }
    const cached = this.cache.get(id);
    if (cached) return cached;
    const account = this.read('byId', id);
    if (account) {
      if (this.cache.size >= CACHED) this.cache.clear();
      this.cache.set(id, account);
    }
    return account;
  }

  private read(by: 'byId' | 'byEmail' | 'byGoogleSubject', key: string): Account | undefined {
    const row = this.statements[by].get(key);
    return row && toAccount(row);
  }
}
