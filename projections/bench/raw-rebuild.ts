import Database from 'better-sqlite3';

/**
 * The limit a rebuild is judged against: the same event rows read with better-sqlite3 in pages of
 * 1,000, `data` and `metadata` parsed as the event store parses them, and one document per event
 * (the event's data with its id and position) upserted, guarded by position as the read store
 * does, in one commit per page, into a fresh SQLite file with the read store's pragmas and table
 * layout. Returns the events per second.
 */
export const rawRebuild = (
  eventsFile: string,
  targetFile: string,
): { events: number; seconds: number } => {
  const source = new Database(eventsFile, { readonly: true });
  const target = new Database(targetFile);
  try {
    target.pragma('busy_timeout = 5000');
    target.pragma('journal_mode = WAL');
    target.pragma('synchronous = NORMAL');
    target.pragma('cache_size = -65536');
    target.pragma('wal_autocheckpoint = 10000');
    target.exec(
      'CREATE TABLE rm_raw (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL)',
    );
    const page = source.prepare<[number], RawRow>(
      `SELECT position, event_id AS id, stream_id AS streamId, revision, type, data, metadata,
         recorded_at AS recordedAt FROM events WHERE position > ? ORDER BY position LIMIT 1000`,
    );
    const upsert = target.prepare<[string, number, string]>(
      `INSERT INTO rm_raw (id, position, doc) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc
       WHERE excluded.position >= rm_raw.position`,
    );
    const commit = target.transaction((events: readonly RawEvent[]) => {
      for (const event of events) {
        const data = event.data as Record<string, unknown>;
        upsert.run(
          event.id,
          event.position,
          JSON.stringify({ _id: event.id, _position: event.position, ...data }),
        );
      }
    });
    const started = performance.now();
    let after = 0;
    let events = 0;
    for (;;) {
      const rows = page.all(after);
      const last = rows[rows.length - 1];
      if (!last) break;
      commit(
        rows.map((row) => ({
          ...row,
          data: JSON.parse(row.data) as unknown,
          metadata: JSON.parse(row.metadata) as unknown,
        })),
      );
      events += rows.length;
      after = last.position;
    }
    return { events, seconds: (performance.now() - started) / 1000 };
  } finally {
    source.close();
    target.close();
  }
};

interface RawRow {
  readonly position: number;
  readonly id: string;
  readonly streamId: string;
  readonly revision: number;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  readonly recordedAt: string;
}

type RawEvent = Omit<RawRow, 'data' | 'metadata'> & {
  readonly data: unknown;
  readonly metadata: unknown;
};
