import type Database from 'better-sqlite3';

/** Runs synchronous SQLite work as a promise, so a throw becomes a rejection. */
export const settle = <T>(work: () => T): Promise<T> =>
  new Promise<T>((resolve) => resolve(work()));

/** Whether the database answers (for the health route). */
export const pingSqlite = (db: Database.Database): Promise<void> =>
  settle(() => {
    db.prepare('SELECT 1').get();
  });

/** Closes the database once; a second close does nothing. */
export const closeSqlite = (db: Database.Database): Promise<void> =>
  settle(() => {
    if (db.open) db.close();
  });
