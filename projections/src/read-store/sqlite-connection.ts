import Database from 'better-sqlite3';

/** How a store's SQLite file is opened: WAL always, the rest as its data needs. */
export interface SqliteOpenOptions {
  /** `FULL`: every commit fsyncs (data that exists nowhere else); `NORMAL`: data that can be rebuilt or lost. */
  readonly synchronous: 'FULL' | 'NORMAL';
  /** How long a write waits for another connection's lock; 5 s by default. */
  readonly busyTimeoutMs?: number;
  /** Page cache in MiB (SQLite's default when absent). */
  readonly cacheMiB?: number;
  /** Pages in the WAL before an automatic checkpoint (SQLite's default when absent). */
  readonly walAutocheckpoint?: number;
  /** Overwrite deleted content with zeros (personal data that must be erasable). */
  readonly secureDelete?: boolean;
}

/**
 * Opens a SQLite file the way every store of ours does (the read models, accounts, sessions; the
 * event log's writer thread has its own, `configureLogConnection`): WAL, a busy timeout, and the
 * durability the store asks for.
 */
export const openSqlite = (filename: string, options: SqliteOpenOptions): Database.Database => {
  const db = new Database(filename);
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous}`);
  if (options.cacheMiB !== undefined) db.pragma(`cache_size = ${-options.cacheMiB * 1024}`);
  if (options.walAutocheckpoint !== undefined)
    db.pragma(`wal_autocheckpoint = ${options.walAutocheckpoint}`);
  if (options.secureDelete) db.pragma('secure_delete = ON');
  return db;
};
