import { closeSync, openSync, readSync } from 'node:fs';
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
    for (const action of onClose.get(db) ?? []) action();
    onClose.delete(db);
  });

/** Bytes of the WAL-index header's first copy (sqlite.org/walformat.html, "The WAL-Index Header"). */
const WAL_INDEX_HEADER = 48;

/**
 * SQLite's `PRAGMA data_version` for `db`: changes whenever another connection committed, which a
 * row cache checks before every use. The pragma costs a read transaction, so this first reads the
 * `-shm` file's 48-byte WAL-index header, which every commit rewrites, and asks the pragma only
 * when those bytes changed; without a `-shm` file, the pragma every time.
 */
export const dataVersion = (db: Database.Database, filename: string): (() => number) => {
  const pragma = db.prepare<[], number>('PRAGMA data_version').pluck();
  const ask = () => pragma.get() as number;
  let fd: number | undefined;
  try {
    if (String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal')
      fd = openSync(`${filename}-shm`, 'r');
  } catch {
    fd = undefined;
  }
  if (fd === undefined) return ask;
  const shm = fd;
  const seen = Buffer.alloc(WAL_INDEX_HEADER);
  const now = Buffer.alloc(WAL_INDEX_HEADER);
  let known = false;
  let version = 0;
  closeWith(db, () => closeSync(shm));
  return () => {
    let read: number;
    try {
      read = readSync(shm, now, 0, WAL_INDEX_HEADER, 0);
    } catch {
      read = 0;
    }
    if (read !== WAL_INDEX_HEADER) return ask();
    if (known && now.equals(seen)) return version;
    // The header first, then the pragma: a commit in between changes the header again, and the
    // next look asks the pragma again.
    now.copy(seen);
    version = ask();
    known = true;
    return version;
  };
};

const onClose = new WeakMap<Database.Database, (() => void)[]>();
/** Runs `action` when `closeSqlite` closes `db`. */
const closeWith = (db: Database.Database, action: () => void): void => {
  const actions = onClose.get(db) ?? [];
  actions.push(action);
  onClose.set(db, actions);
};
