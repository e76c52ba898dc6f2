// The write side of the SQLite event log, in plain JavaScript so that the same code runs on the
// store's own thread and in the writer thread (`sqlite-log-writer.worker.mjs`), which Node starts
// without a TypeScript loader. Types: `sqlite-log-writer.d.mts`.

/** The log's table and indexes (the engine benchmark's raw limit inserts into the very same). */
export const EVENTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL UNIQUE,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    UNIQUE (stream_id, revision)
  );
  CREATE INDEX IF NOT EXISTS events_type_position ON events (type, position);
`;

/**
 * Actors' snapshots (`auction/snapshot.ts`), one per stream, kept beside the log so that a reload
 * reads only the events after one. Never part of the log: dropping the table loses nothing.
 */
export const SNAPSHOTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS snapshots (
    stream_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    version TEXT NOT NULL,
    payload TEXT NOT NULL
  );
`;

/**
 * The pragmas of every connection to the log: each commit fsyncs the WAL (`synchronous=FULL`).
 * A hot auction appends in large batches: a bigger page cache keeps the event-id index warm, and
 * rarer checkpoints mean fewer fsyncs of the main file.
 */
export function configureLogConnection(db, busyTimeoutMs) {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('cache_size = -65536');
  db.pragma('wal_autocheckpoint = 10000');
}

/**
 * Group commit: writes a group of appends, to any streams, in one transaction. Each append is
 * checked against its own expected revision and answered on its own (`Settled`): a conflict or a
 * duplicate id fails only that append; anything else (the disk) throws and fails the group.
 */
export class SqliteLogWriter {
  constructor(db) {
    this.db = db;
    this.tailOfStream = db.prepare(
      'SELECT revision, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1',
    );
    this.insertEvent = db.prepare(
      `INSERT INTO events (event_id, stream_id, revision, type, data, metadata, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.findEvent = db.prepare(
      'SELECT stream_id AS streamId, revision FROM events WHERE event_id = ?',
    );
    this.idsInRange = db.prepare(
      `SELECT event_id AS id, position FROM events WHERE stream_id = ? AND revision BETWEEN ? AND ?
       ORDER BY revision`,
    );
    this.upsertSnapshot = db.prepare(
      `INSERT INTO snapshots (stream_id, revision, version, payload) VALUES (?, ?, ?, ?)
       ON CONFLICT (stream_id) DO UPDATE
       SET revision = excluded.revision, version = excluded.version, payload = excluded.payload
       WHERE excluded.revision >= snapshots.revision OR excluded.version <> snapshots.version`,
    );
    this.appendOne = db.transaction((append) => this.appendInTransaction(append));
    this.group = db.transaction((group, savepoints, snapshots) => {
      const settled = group.map((append) =>
        savepoints ? this.inSavepoint(append) : this.inGroup(append),
      );
      for (const { streamId, revision, version, payload } of snapshots)
        this.upsertSnapshot.run(streamId, revision, version, payload);
      return settled;
    });
  }

  /**
   * Without a savepoint per append first: an append's expected revision, and whether it is a
   * retry of events already stored, are checked before it inserts anything, so only an insert
   * that meets an id stored elsewhere (a caller's bug, or another writer's race) can fail half
   * way. That rolls the whole group back, and it is written again with a savepoint per append.
   */
  write(group, snapshots = []) {
    try {
      return this.group.immediate(group, false, snapshots);
    } catch (error) {
      if (!isEventIdConflict(error)) throw error;
      return this.group.immediate(group, true, snapshots);
    }
  }

  inGroup(append) {
    try {
      return { ok: true, result: this.appendInTransaction(append) };
    } catch (error) {
      if (error instanceof AppendConflict) return { ok: false, conflict: error.conflict };
      throw error;
    }
  }

  /** In a savepoint (a nested transaction): a failed insert undoes only this append. */
  inSavepoint(append) {
    try {
      return { ok: true, result: this.appendOne(append) };
    } catch (error) {
      if (error instanceof AppendConflict) return { ok: false, conflict: error.conflict };
      if (!isEventIdConflict(error)) throw error;
    }
    try {
      const stored = this.storedAppend(append);
      if (stored !== undefined) return { ok: true, result: stored };
      return { ok: false, conflict: { kind: 'duplicate-id', eventId: this.conflictingId(append) } };
    } catch (error) {
      if (error instanceof AppendConflict) return { ok: false, conflict: error.conflict };
      throw error;
    }
  }

  appendInTransaction(append) {
    const { streamId, events, expected } = append;
    const tail = this.tailOfStream.get(streamId);
    if (!isExpected(expected, tail)) {
      const stored = this.storedAppend(append);
      if (stored !== undefined) return stored;
      throw new AppendConflict({
        kind: 'wrong-revision',
        streamId,
        expected,
        actual: tail?.revision ?? 'no_stream',
      });
    }
    let revision = tail?.revision ?? -1;
    let position = tail?.position ?? -1;
    const recordedAt = new Date().toISOString();
    for (const event of events) {
      revision += 1;
      position = Number(
        this.insertEvent.run(
          event.id,
          streamId,
          revision,
          event.type,
          event.data,
          event.metadata,
          recordedAt,
        ).lastInsertRowid,
      );
    }
    return { nextRevision: revision, position };
  }

  /** The result of an earlier append of exactly these events, if it happened. */
  storedAppend({ streamId, events }) {
    const first = events[0];
    const stored = first && this.findEvent.get(first.id);
    if (!first || !stored) return undefined;
    if (stored.streamId !== streamId) throw duplicateId(first.id);
    const lastRevision = stored.revision + events.length - 1;
    const rows = this.idsInRange.all(streamId, stored.revision, lastRevision);
    events.forEach((event, index) => {
      if (rows[index]?.id !== event.id) throw duplicateId(event.id);
    });
    return { nextRevision: lastRevision, position: rows[rows.length - 1]?.position ?? -1 };
  }

  conflictingId({ events }) {
    const seen = new Set();
    for (const { id } of events) {
      if (seen.has(id) || this.findEvent.get(id)) return id;
      seen.add(id);
    }
    return events[0]?.id ?? '';
  }
}

/** An append's own problem, answered to its caller alone. */
class AppendConflict extends Error {
  constructor(conflict) {
    super(conflict.kind);
    this.conflict = conflict;
  }
}

const duplicateId = (eventId) => new AppendConflict({ kind: 'duplicate-id', eventId });

function isExpected(expected, tail) {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return tail === undefined;
  return tail?.revision === expected;
}

/**
 * A group as the message to the writer thread: flat arrays of strings and numbers, which the
 * structured clone copies faster than an object per event.
 */
export function packGroup(group) {
  const streams = [];
  const expected = [];
  const counts = [];
  const fields = [];
  for (const append of group) {
    streams.push(append.streamId);
    expected.push(append.expected);
    counts.push(append.events.length);
    for (const event of append.events)
      fields.push(event.id, event.type, event.data, event.metadata);
  }
  return { streams, expected, counts, fields };
}

/** The group `packGroup` packed. */
export function unpackGroup({ streams, expected, counts, fields }) {
  const group = [];
  let field = 0;
  for (let i = 0; i < streams.length; i++) {
    const events = [];
    for (let n = 0; n < counts[i]; n++) {
      events.push({
        id: fields[field],
        type: fields[field + 1],
        data: fields[field + 2],
        metadata: fields[field + 3],
      });
      field += 4;
    }
    group.push({ streamId: streams[i], events, expected: expected[i] });
  }
  return group;
}

export function isEventIdConflict(error) {
  return (
    error?.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    typeof error.message === 'string' &&
    error.message.includes('events.event_id')
  );
}
