import type Database from 'better-sqlite3';
import { openSqlite } from '@auction/projections';
import session from 'express-session';
import type { UserSessionStore } from './session-store';
import { closeSqlite, dataVersion, pingSqlite, settle } from '../sqlite-store';

type Callback = (error?: unknown) => void;

/** Sessions kept in memory (their stored row) at most. */
const CACHED = 10_000;

/** A rolling session's new expiry is written at most this often (it slides by a week). */
const TOUCH_EVERY_MS = 60_000;

const userOf = (sess: session.SessionData): string | null => {
  const user = (sess as { passport?: { user?: unknown } }).passport?.user;
  return typeof user === 'string' ? user : null;
};

/**
 * Sessions in `DATA_DIR/sessions.sqlite`, with the user's id beside each so all of a user's
 * sessions can be ended at once. Rows read are cached, dropped on this store's writes and whenever
 * `data_version` shows another connection committed, so an ended session is never served.
 */
export class SqliteSessionStore extends session.Store implements UserSessionStore {
  private readonly db: Database.Database;
  /** Changes when another connection commits to the database file (`data_version`). */
  private readonly dataVersion: () => number;
  private readonly statements: ReturnType<SqliteSessionStore['prepareStatements']>;
  /** The expiry last written per session, so a rolling touch writes only when it moves enough. */
  private readonly writtenExpiry = new Map<string, number>();
  private readonly rows = new Map<string, { data: string; expires: number }>();
  /** `data_version` when `rows` was last known good. */
  private rowsVersion: number | undefined;

  constructor(
    filename: string,
    private readonly now: () => number = Date.now,
  ) {
    super();
    // A session lost to a power cut only means logging in again: no fsync per request.
    this.db = openSqlite(filename, { synchronous: 'NORMAL' });
    this.db.exec(`CREATE TABLE IF NOT EXISTS sessions (
      sid TEXT PRIMARY KEY,
      user_id TEXT,
      expires INTEGER NOT NULL,
      data TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
    CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires);`);
    this.statements = this.prepareStatements();
    this.dataVersion = dataVersion(this.db, filename);
  }

  private prepareStatements() {
    return {
      get: this.db.prepare<[string], { data: string; expires: number }>(
        'SELECT data, expires FROM sessions WHERE sid = ?',
      ),
      set: this.db.prepare<[string, string | null, number, string]>(
        `INSERT INTO sessions (sid, user_id, expires, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (sid) DO UPDATE SET user_id = excluded.user_id, expires = excluded.expires, data = excluded.data`,
      ),
      touch: this.db.prepare<[number, string]>('UPDATE sessions SET expires = ? WHERE sid = ?'),
      destroy: this.db.prepare<[string]>('DELETE FROM sessions WHERE sid = ?'),
      userSessions: this.db.prepare<[string], { sid: string }>(
        'SELECT sid FROM sessions WHERE user_id = ?',
      ),
      destroyUser: this.db.prepare<[string]>('DELETE FROM sessions WHERE user_id = ?'),
      countForUser: this.db.prepare<[string, number], { n: number }>(
        'SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND expires > ?',
      ),
      purge: this.db.prepare<[number]>('DELETE FROM sessions WHERE expires <= ?'),
    };
  }

  override get(
    sid: string,
    callback: (error: unknown, session?: session.SessionData | null) => void,
  ): void {
    try {
      const row = this.row(sid);
      if (!row || row.expires <= this.now()) {
        this.writtenExpiry.delete(sid);
        callback(null, null);
      } else {
        this.writtenExpiry.set(sid, row.expires);
        callback(null, JSON.parse(row.data) as session.SessionData);
      }
    } catch (error) {
      callback(error);
    }
  }

  override set(sid: string, sess: session.SessionData, callback?: Callback): void {
    try {
      const expires = this.expiry(sess);
      const data = JSON.stringify(sess);
      this.rows.delete(sid);
      this.statements.set.run(sid, userOf(sess), expires, data);
      this.remember(sid, { data, expires });
      this.writtenExpiry.set(sid, expires);
      if (Math.random() < 0.01) this.purge();
      callback?.();
    } catch (error) {
      callback?.(error);
    }
  }

  override touch(sid: string, sess: session.SessionData, callback?: Callback): void {
    try {
      const expires = this.expiry(sess);
      if (expires - (this.writtenExpiry.get(sid) ?? 0) >= TOUCH_EVERY_MS) {
        this.rows.delete(sid);
        this.statements.touch.run(expires, sid);
        this.writtenExpiry.set(sid, expires);
      }
      callback?.();
    } catch (error) {
      callback?.(error);
    }
  }

  override destroy(sid: string, callback?: Callback): void {
    try {
      this.rows.delete(sid);
      this.statements.destroy.run(sid);
      this.writtenExpiry.delete(sid);
      callback?.();
    } catch (error) {
      callback?.(error);
    }
  }

  destroyUser(userId: string): Promise<number> {
    return settle(() => {
      for (const { sid } of this.statements.userSessions.all(userId)) {
        this.writtenExpiry.delete(sid);
        this.rows.delete(sid);
      }
      return this.statements.destroyUser.run(userId).changes;
    });
  }

  countForUser(userId: string): Promise<number> {
    return settle(() => this.statements.countForUser.get(userId, this.now())?.n ?? 0);
  }

  ping(): Promise<void> {
    return pingSqlite(this.db);
  }

  close(): Promise<void> {
    return closeSqlite(this.db);
  }

  private expiry(sess: session.SessionData): number {
    const expires = sess.cookie.expires;
    return expires ? new Date(expires).getTime() : this.now() + 86_400_000;
  }

  /** The stored row, from memory while no other connection has committed since it was read. */
  private row(sid: string): { data: string; expires: number } | undefined {
    const version = this.dataVersion();
    if (version !== this.rowsVersion) {
      this.rows.clear();
      this.rowsVersion = version;
    }
    const known = this.rows.get(sid);
    if (known) return known;
    const row = this.statements.get.get(sid);
    if (row) this.remember(sid, row);
    return row;
  }

  private remember(sid: string, row: { data: string; expires: number }): void {
    if (this.rows.size >= CACHED) this.rows.clear();
    this.rows.set(sid, row);
  }

  /**
   * Deletes the expired sessions, and forgets only their written expiries: forgetting a live one
   * would let the next touch write an expiry that moved less than a minute.
   */
  private purge(): void {
    const now = this.now();
    this.rows.clear();
    for (const [sid, expires] of this.writtenExpiry)
      if (expires <= now) this.writtenExpiry.delete(sid);
    this.statements.purge.run(now);
  }
}
