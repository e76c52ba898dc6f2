import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../event-store/sqlite-event-store';

/** A real SQLite event store in a fresh temp directory; `cleanup` closes it and removes the files. */
export const tempSqliteStore = (pollIntervalMs?: number) => {
  const dir = mkdtempSync(join(tmpdir(), 'auction-es-'));
  const filename = join(dir, 'events.sqlite');
  const opened: SqliteEventStore[] = [];
  const open = () => {
    const store = new SqliteEventStore(
      pollIntervalMs === undefined ? { filename } : { filename, pollIntervalMs },
    );
    opened.push(store);
    return store;
  };
  const store = open();
  return {
    store,
    filename,
    /** Another connection to the same file (another process would look like this). */
    open,
    cleanup: async () => {
      for (const s of opened) await s.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
