import type Database from 'better-sqlite3';
import { openSqlite } from './sqlite-connection';
import {
  type BulkLoad,
  indexesOf,
  reservedCollectionNames,
  type CollectionSpec,
  type Condition,
  type Doc,
  type FindOptions,
  type IndexValue,
  type ReadStore,
  type Where,
  type Write,
} from './read-store';
import { type AfterRun, type PlaceKey, afterRuns, checkAfter, fold } from './query-semantics';

export interface SqliteReadStoreOptions {
  /** Database file (created when missing), or `:memory:`. */
  readonly filename: string;
}

interface Put {
  run(doc: Doc): void;
}

interface Row {
  readonly id: string;
  readonly position: number;
  readonly doc: string;
}

/** Whether JSON writes the string as itself between quotes (no escape). */
const isPlain = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
};

/**
 * A document's text as stored: its `_id` and `_position` are the row's own columns, so when the
 * JSON starts with them (as every projection's documents do) they are cut off, along with the
 * opening brace; a text that starts with `{` is a whole document (older rows, other shapes).
 */
const encode = (doc: Doc): string => {
  const json = JSON.stringify(doc);
  const position = doc._position;
  if (typeof doc._id !== 'string' || !Number.isSafeInteger(position)) return json;
  // `{"_id":` + the id's JSON + `,"_position":` + the position, checked where they must be.
  const idEnd = 7 + (isPlain(doc._id) ? doc._id.length + 2 : JSON.stringify(doc._id).length);
  const positionText = String(position);
  const end = idEnd + 13 + positionText.length;
  if (
    !json.startsWith('{"_id":') ||
    !json.startsWith(',"_position":', idEnd) ||
    !json.startsWith(positionText, idEnd + 13) ||
    (json.charCodeAt(end) !== 44 /* , */ && json.charCodeAt(end) !== 125) /* } */
  ) {
    return json;
  }
  return json.length === end + 1 ? '}' : json.slice(end + 1);
};

const decode = (row: Row): Doc =>
  JSON.parse(
    row.doc.charCodeAt(0) === 123 // '{'
      ? row.doc
      : `{"_id":${JSON.stringify(row.id)},"_position":${row.position}${row.doc === '}' ? '' : ','}${row.doc}`,
  ) as Doc;

/** SQL for the document as JSON, whole or cut (see `encode`), for json_extract. */
const DOC_JSON = "CASE WHEN substr(doc, 1, 1) = '{' THEN doc ELSE '{' || doc END";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const checkName = (name: string): string => {
  if (!NAME.test(name)) throw new Error(`Invalid collection or field name: ${name}`);
  return name;
};
const checkCollectionName = (name: string): string => {
  if (reservedCollectionNames.includes(name)) {
    throw new Error(`Collection name ${name} is reserved for the store's own table rm_${name}`);
  }
  return checkName(name);
};
const table = (collection: string) => `"rm_${checkName(collection)}"`;
const column = (field: string) => `"ix_${checkName(field)}"`;

/** The store's durability outside bulk loads: read models are rebuilt from the event log. */
const SYNCHRONOUS = 'NORMAL';

/** The indexes a collection declares, by the name the store gives them. */
const wantedIndexes = (spec: CollectionSpec): Map<string, readonly string[]> =>
  new Map(indexesOf(spec).map((fields) => [`rm_${spec.name}(${fields.join(',')})`, fields]));

const toIndexValue = (value: unknown): IndexValue => {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  throw new Error(`Indexed fields hold strings, numbers, booleans or null, not ${typeof value}`);
};
const toParam = (value: IndexValue): string | number | null =>
  typeof value === 'boolean' ? (value ? 1 : 0) : value;

/**
 * The embedded read store: one table per collection with the document as JSON text and one
 * indexed column per declared field. A projection's batch and its checkpoint commit together.
 * Leases are rows of `rm_leases`, taken by one guarded upsert: SQLite runs one writer at a time,
 * across processes sharing the file too, so the guard and the write cannot interleave with another.
 */
export class SqliteReadStore implements ReadStore {
  private readonly db: Database.Database;
  private readonly specs = new Map<string, CollectionSpec>();
  private readonly statements = new Map<string, Database.Statement>();
  private readonly puts = new Map<string, Put>();
  /** Bulk loads in progress (`beginBulkLoad`): while any is, commits do not wait for the disk. */
  private bulkLoads = 0;

  constructor(options: SqliteReadStoreOptions) {
    // Read models are rebuilt from the event log, so NORMAL durability is enough.
    this.db = openSqlite(options.filename, {
      synchronous: SYNCHRONOUS,
      cacheMiB: 64,
      walAutocheckpoint: 10_000,
    });
    this.db.function('fold', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? fold(value) : null,
    );
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS rm_checkpoints (projection TEXT PRIMARY KEY, position INTEGER NOT NULL)',
    );
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS rm_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL)',
    );
  }

  ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    return attempt(() => {
      for (const spec of specs) {
        const t = table(checkCollectionName(spec.name));
        this.db.exec(
          `CREATE TABLE IF NOT EXISTS ${t} (id TEXT PRIMARY KEY, position INTEGER NOT NULL, doc TEXT NOT NULL)`,
        );
        const existing = new Set(
          (this.db.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map(
            (c) => c.name,
          ),
        );
        for (const field of spec.indexes) {
          const col = column(field);
          if (!existing.has(`ix_${field}`)) {
            this.db.exec(`ALTER TABLE ${t} ADD COLUMN ${col}`);
            this.db.exec(
              `UPDATE ${t} SET ${col} = json_extract(${DOC_JSON}, '$.${checkName(field)}')`,
            );
          }
        }
        // The declared indexes, and none of ours that is no longer declared (each costs writes).
        this.dropIndexes(spec, wantedIndexes(spec));
        this.createIndexes(spec);
        this.specs.set(spec.name, spec);
        this.puts.delete(`put:${spec.name}`);
        this.puts.delete(`upsert:${spec.name}`);
      }
    });
  }

  /**
   * A load into empty collections (a rebuild, a lost read store): their secondary indexes are
   * dropped and built once at `end` (sorting every row once costs far less than keeping each index
   * in order through every insert), and the connection commits with `synchronous = OFF` until the
   * last load ends (what it commits reaches the disk at the operating system's pace; a crash of
   * the process loses nothing committed, a crash of the machine may damage the file: the read
   * models are derived data, rebuilt by deleting it). Queries answer the same meanwhile, by scans.
   * The indexes of a load cut short (the process stopped) are built by the next
   * `ensureCollections`, at the next start.
   */
  beginBulkLoad(collections: readonly string[]): Promise<BulkLoad> {
    return attempt(() => {
      const specs = collections.map((name) => this.spec(name));
      this.db.transaction(() => {
        for (const spec of specs) this.dropIndexes(spec, new Map());
      })();
      if (this.bulkLoads++ === 0) this.db.pragma('synchronous = OFF');
      let ended = false;
      return {
        end: (buildIndexes = true) =>
          attempt(() => {
            // A store closed meanwhile builds the indexes at its next `ensureCollections`.
            if (ended || !this.db.open) return;
            ended = true;
            try {
              if (buildIndexes) for (const spec of specs) this.createIndexes(spec);
            } finally {
              if (--this.bulkLoads === 0) {
                this.db.pragma(`synchronous = ${SYNCHRONOUS}`);
                // What the load committed reaches the disk before the store answers as durable.
                this.db.pragma('wal_checkpoint(PASSIVE)');
              }
            }
          }),
      };
    });
  }

  get(collection: string, id: string): Promise<Doc | undefined> {
    return attempt(() => {
      const row = this.statement(
        `SELECT id, position, doc FROM ${this.table(collection)} WHERE id = ?`,
      ).get(id) as Row | undefined;
      return row ? decode(row) : undefined;
    });
  }

  getMany(collection: string, ids: readonly string[]): Promise<Map<string, Doc>> {
    return attempt(() => {
      const found = new Map<string, Doc>();
      const select = this.statement(
        `SELECT id, position, doc FROM ${this.table(collection)} WHERE id = ?`,
      );
      for (const id of new Set(ids)) {
        const row = select.get(id) as Row | undefined;
        if (row) found.set(id, decode(row));
      }
      return found;
    });
  }

  find(collection: string, options: FindOptions = {}): Promise<Doc[]> {
    return attempt(() => {
      checkAfter(options);
      const table = this.table(collection);
      const order = (options.orderBy ?? [])
        .map(
          ({ field, direction }) =>
            `${this.indexed(collection, field)} ${direction === 'asc' ? 'ASC' : 'DESC'}`,
        )
        .concat('id ASC')
        .join(', ');
      const select = (extra: { clause: string; params: unknown[] } | undefined, limit?: number) => {
        const where = this.where(collection, options.where);
        const clause = extra
          ? `${where.clause ? `${where.clause} AND` : ' WHERE'} ${extra.clause}`
          : where.clause;
        const params = extra ? [...where.params, ...extra.params] : where.params;
        if (limit !== undefined) params.push(limit);
        const sql = `SELECT id, position, doc FROM ${table}${clause} ORDER BY ${order}${limit === undefined ? '' : ' LIMIT ?'}`;
        return (this.statement(sql).all(...params) as Row[]).map(decode);
      };
      if (!options.after) return select(undefined, options.limit);
      // The runs after the place, in order, each an index range, until the limit is filled.
      const found: Doc[] = [];
      for (const run of afterRuns(options.orderBy ?? [], options.after)) {
        const left = options.limit === undefined ? undefined : options.limit - found.length;
        if (left !== undefined && left <= 0) break;
        found.push(...select(this.afterRun(collection, run), left));
      }
      return found;
    });
  }

  count(collection: string, where?: Where): Promise<number> {
    return attempt(() => {
      const { clause, params } = this.where(collection, where);
      const sql = `SELECT COUNT(*) AS n FROM ${this.table(collection)}${clause}`;
      return (this.statement(sql).get(...params) as { n: number }).n;
    });
  }

  commit(projection: string, writes: readonly Write[], position: number): Promise<void> {
    return attempt(() => {
      this.db.transaction(() => {
        // Runs of writes to one collection share its statement.
        let collection: string | undefined;
        let put: Put | undefined;
        for (const write of writes) {
          if (write.kind === 'put') {
            if (write.collection !== collection || !put) {
              collection = write.collection;
              put = this.putStatement(collection, true);
            }
            put.run(write.doc);
          } else {
            this.statement(`DELETE FROM ${this.table(write.collection)} WHERE id = ?`).run(
              write.id,
            );
          }
        }
        this.statement(
          `INSERT INTO rm_checkpoints (projection, position) VALUES (?, ?)
           ON CONFLICT (projection) DO UPDATE SET position = max(position, excluded.position)`,
        ).run(projection, position);
      })();
    });
  }

  checkpoint(projection: string): Promise<number | undefined> {
    return attempt(
      () =>
        (
          this.statement('SELECT position FROM rm_checkpoints WHERE projection = ?').get(
            projection,
          ) as { position: number } | undefined
        )?.position,
    );
  }

  reset(projection: string, collections: readonly string[]): Promise<void> {
    return attempt(() => {
      this.db.transaction(() => {
        for (const collection of collections)
          this.db.prepare(`DELETE FROM ${this.table(collection)}`).run();
        this.db.prepare('DELETE FROM rm_checkpoints WHERE projection = ?').run(projection);
      })();
    });
  }

  upsert(collection: string, doc: Doc): Promise<void> {
    return attempt(() => this.put(collection, doc, false));
  }

  remove(collection: string, id: string): Promise<void> {
    return attempt(() => {
      this.statement(`DELETE FROM ${this.table(collection)} WHERE id = ?`).run(id);
    });
  }

  acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return attempt(() => {
      const now = Date.now();
      // The update applies only when the row is the holder's own or has expired: a change of 0
      // rows means another holder has it.
      const { changes } = this.statement(
        `INSERT INTO rm_leases (name, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE rm_leases.holder = excluded.holder OR rm_leases.expires_at <= ?`,
      ).run(name, holder, now + ttlMs, now);
      return changes === 1;
    });
  }

  releaseLease(name: string, holder: string): Promise<void> {
    return attempt(() => {
      this.statement('DELETE FROM rm_leases WHERE name = ? AND holder = ?').run(name, holder);
    });
  }

  close(): Promise<void> {
    return attempt(() => {
      this.db.close();
    });
  }

  /** Drops the indexes of ours on the collection that are not in `keep`. */
  private dropIndexes(spec: CollectionSpec, keep: ReadonlyMap<string, unknown>): void {
    const t = table(spec.name);
    const built = (this.db.prepare(`PRAGMA index_list(${t})`).all() as { name: string }[]).map(
      (index) => index.name,
    );
    for (const name of built) {
      if (name.startsWith(`rm_${spec.name}(`) && !keep.has(name))
        this.db.exec(`DROP INDEX "${name}"`);
    }
  }

  /** Builds the collection's declared indexes that are missing. */
  private createIndexes(spec: CollectionSpec): void {
    const t = table(spec.name);
    for (const [name, fields] of wantedIndexes(spec)) {
      this.db.exec(
        `CREATE INDEX IF NOT EXISTS "${name}" ON ${t} (${fields.map(column).join(', ')})`,
      );
    }
  }

  private put(collection: string, doc: Doc, guarded: boolean): void {
    this.putStatement(collection, guarded).run(doc);
  }

  /** Writes a document of the collection: replacing any, or (`guarded`) any not newer. */
  private putStatement(collection: string, guarded: boolean): Put {
    const key = `${guarded ? 'put' : 'upsert'}:${collection}`;
    const known = this.puts.get(key);
    if (known) return known;
    const spec = this.spec(collection);
    const cols = spec.indexes.map(column);
    const statement = this.db.prepare(
      `INSERT INTO ${table(collection)} (id, position, doc${cols.map((c) => `, ${c}`).join('')})
       VALUES (?, ?, ?${cols.map(() => ', ?').join('')})
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc` +
        cols.map((c) => `, ${c} = excluded.${c}`).join('') +
        (guarded ? ` WHERE excluded.position >= ${table(collection)}.position` : ''),
    );
    const fields = spec.indexes;
    const put: Put = {
      run: (doc) => {
        const params: unknown[] = [doc._id, doc._position, encode(doc)];
        for (const field of fields) params.push(toParam(toIndexValue(doc[field])));
        statement.run(params);
      },
    };
    this.puts.set(key, put);
    return put;
  }

  private where(
    collection: string,
    where: Where | undefined,
  ): { clause: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    for (const [field, condition] of Object.entries(where ?? {})) {
      const col = this.indexed(collection, field);
      const c: Condition = condition;
      if (typeof c === 'object' && c !== null) {
        if ('contains' in c) {
          parts.push(`instr(fold(${col}), ?) > 0`);
          params.push(fold(c.contains));
        } else if (c.in.length === 0) {
          parts.push('0');
        } else {
          const nonNull = c.in.filter((v) => v !== null);
          const ors =
            nonNull.length > 0 ? [`${col} IN (${nonNull.map(() => '?').join(', ')})`] : [];
          if (nonNull.length < c.in.length) ors.push(`${col} IS NULL`);
          parts.push(`(${ors.join(' OR ')})`);
          params.push(...nonNull.map(toParam));
        }
      } else if (c === null) {
        parts.push(`${col} IS NULL`);
      } else {
        parts.push(`${col} = ?`);
        params.push(toParam(c));
      }
    }
    return { clause: parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '', params };
  }

  /** One run of the documents after a place (`afterRuns`) as SQL. */
  private afterRun(collection: string, run: AfterRun): { clause: string; params: unknown[] } {
    const params: unknown[] = [];
    const col = (field: string) => this.indexed(collection, field);
    const value = (v: IndexValue) => {
      params.push(toParam(v));
      return '?';
    };
    const { lead } = run;
    const parts = [
      lead.bound === 'atLeast'
        ? `${col(lead.field)} >= ${value(lead.value)}`
        : lead.bound === 'atMost'
          ? `${col(lead.field)} <= ${value(lead.value)}`
          : `${col(lead.field)} IS ${lead.bound === 'null' ? '' : 'NOT '}NULL`,
    ];
    if (run.keys) {
      const equal = (key: PlaceKey): string =>
        key.value === null
          ? `${col(key.field)} IS NULL`
          : `${col(key.field)} = ${value(key.value)}`;
      const beyond = (key: PlaceKey): string => {
        const c = col(key.field);
        if (key.value === null) return key.direction === 'asc' ? `${c} IS NOT NULL` : '0';
        return key.direction === 'asc'
          ? `${c} > ${value(key.value)}`
          : `(${c} < ${value(key.value)} OR ${c} IS NULL)`;
      };
      const keys = run.keys;
      const alternatives = keys.map((key, k) =>
        [...keys.slice(0, k).map(equal), beyond(key)].join(' AND '),
      );
      parts.push(`(${alternatives.map((a) => `(${a})`).join(' OR ')})`);
    }
    return { clause: `(${parts.join(' AND ')})`, params };
  }

  private spec(collection: string): CollectionSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`Collection ${collection} is not declared (ensureCollections)`);
    return spec;
  }

  private table(collection: string): string {
    this.spec(collection);
    return table(collection);
  }

  private indexed(collection: string, field: string): string {
    if (field === '_id') return 'id';
    if (!this.spec(collection).indexes.includes(field)) {
      throw new Error(`${collection}.${field} is not an indexed field`);
    }
    return column(field);
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

function attempt<T>(operation: () => T): Promise<T> {
  try {
    return Promise.resolve(operation());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
