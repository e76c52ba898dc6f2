import Database from 'better-sqlite3';
import session from 'express-session';

type Callback = (error?: unknown) => void;

const userOf = (sess: session.SessionData): string | null => {
  const user = (sess as { passport?: { user?: unknown } }).passport?.user;
  return typeof user === 'string' ? user : null;
};

/**
 * Server-side sessions in `DATA_DIR/sessions.sqlite`, with the signed-in user's id beside each one,
 * so every session of a user can be ended at once (logout everywhere, account deletion).
 */
export class SqliteSessionStore extends session.Store {
  private readonly db: Database.Database;

  constructor(
    filename: string,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.db = new Database(filename);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS sessions (
      sid TEXT PRIMARY KEY,
      user_id TEXT,
      expires INTEGER NOT NULL,
      data TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
    CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (expires);`);
  }

  override get(
    sid: string,
    callback: (error: unknown, session?: session.SessionData | null) => void,
  ): void {
    try {
      const row = this.db.prepare('SELECT data, expires FROM sessions WHERE sid = ?').get(sid) as
        { data: string; expires: number } | undefined;
      if (!row || row.expires <= this.now()) callback(null, null);
      else callback(null, JSON.parse(row.data) as session.SessionData);
    } catch (error) {
      callback(error);
    }
  }

  override set(sid: string, sess: session.SessionData, callback?: Callback): void {
    try {
      this.db
        .prepare(
          `INSERT INTO sessions (sid, user_id, expires, data) VALUES (?, ?, ?, ?)
           ON CONFLICT (sid) DO UPDATE SET user_id = excluded.user_id, expires = excluded.expires, data = excluded.data`,
        )
        .run(sid, userOf(sess), this.expiry(sess), JSON.stringify(sess));
      if (Math.random() < 0.01) this.purge();
      callback?.();
    } catch (error) {
      callback?.(error);
    }
  }

  override touch(sid: string, sess: session.SessionData, callback?: Callback): void {
    try {
      this.db.prepare('UPDATE sessions SET expires = ? WHERE sid = ?').run(this.expiry(sess), sid);
      callback?.();
    } catch (error) {
      callback?.(error);
    }
  }

  override destroy(sid: string, callback?: Callback): void {
    try {
      this.db.prepare('DELETE FROM sessions WHERE sid = ?').run(sid);
      callback?.();
    } catch (error) {
      callback?.(error);
    }
  }

  /** Ends every session of a user; returns how many there were. */
  destroyUser(userId: string): number {
    return this.db.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId).changes;
  }

  countForUser(userId: string): number {
    return (
      this.db
        .prepare('SELECT COUNT(*) AS n FROM sessions WHERE user_id = ? AND expires > ?')
        .get(userId, this.now()) as { n: number }
    ).n;
  }

  close(): void {
    this.db.close();
  }

  private expiry(sess: session.SessionData): number {
    const expires = sess.cookie.expires;
    return expires ? new Date(expires).getTime() : this.now() + 86_400_000;
  }

  private purge(): void {
    this.db.prepare('DELETE FROM sessions WHERE expires <= ?').run(this.now());
  }
}
