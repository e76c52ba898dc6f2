import {
  MongoBulkWriteError,
  MongoClient,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
} from 'mongodb';
import type {
  AnyBulkWriteOperation,
  ClientSession,
  Collection,
  Db,
  Document,
  Filter,
  WriteError,
} from 'mongodb';
import {
  type AfterRun,
  type PlaceKey,
  afterRuns,
  caseVariants,
  checkAfter,
} from './query-semantics';
import {
  indexesOf,
  reservedCollectionNames,
  type CollectionSpec,
  type Condition,
  type Doc,
  type FindOptions,
  type ReadStore,
  type Where,
  type Write,
} from './read-store';

export interface MongoReadStoreOptions {
  /**
   * Milliseconds `connect` waits for the server (server selection and the TCP connect) and `ping`
   * for its answer. Default 5000.
   */
  readonly timeoutMs?: number;
  /**
   * `auto` (default): a batch and its checkpoint commit in one transaction when the server takes
   * transactions (a replica set or mongos whose probe transaction commits), and idempotently
   * without one otherwise. `never`: always idempotently, without transactions.
   */
  readonly transactions?: 'auto' | 'never';
  /**
   * At most this many statements in one write command of a batch committed without a transaction
   * (`MONGODB_STATEMENTS_PER_COMMAND`; unset, only the server's own limits split a command).
   * FerretDB's SQLite backend needs 8: it holds a connection per statement until the command ends.
   */
  readonly statementsPerCommand?: number;
  /**
   * The checkpoint of a batch that writes nothing (most batches of the projections a bid does not
   * concern) written at most this long after its commit, once for every such batch of the
   * projection meanwhile, instead of one write per batch. `checkpoint` on this store answers it at
   * once; other connections read it late by at most this much, and a crash may lose it (the
   * projection then replays events that write nothing). Default 0: each is written at once. Off
   * by default because a node that follows the projection in a cluster polls the stored checkpoint,
   * and a poll that reads it behind the one pushed to it moves the follower back.
   */
  readonly emptyCheckpointDelayMs?: number;
}

/** Default `emptyCheckpointDelayMs`: off (see the option). */
const EMPTY_CHECKPOINT_DELAY_MS = 0;

interface StoredDoc extends Document {
  _id: string;
  _position: number;
}

interface Checkpoint {
  _id: string;
  position: number;
}

/**
 * One term of a lease: who took it and until when (milliseconds since the epoch). The highest term
 * of a name is the lease's state; a release writes a term without a holder.
 */
interface LeaseTerm {
  _id: string;
  name: string;
  term: number;
  holder: string | null;
  expiresAt: number;
}

/** What a batch leaves to do for one document: delete it first, then maybe put one. */
interface Plan {
  deleteFirst: boolean;
  put?: Doc;
}

const DEFAULT_TIMEOUT_MS = 5000;
const CHECKPOINTS = 'rm_checkpoints';
const LEASES = 'rm_leases';
const DUPLICATE_KEY = 11000;
const NAMESPACE_EXISTS = 48;
const COMMAND_NOT_FOUND = 59;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const checkName = (name: string): string => {
  if (!NAME.test(name)) throw new Error(`Invalid collection or field name: ${name}`);
  return name;
};
const checkCollectionName = (name: string): string => {
  if (reservedCollectionNames.includes(name)) {
    throw new Error(
      `Collection name ${name} is reserved for the store's own collection rm_${name}`,
    );
  }
  return checkName(name);
};

/** Hides the credentials of a connection string in messages. */
const redact = (url: string): string => url.replace(/\/\/[^/@]*@/, '//***@');
const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

const withDeadline = async <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
};

/** One code point of a `contains` needle as a pattern that PCRE (MongoDB) and Go (FerretDB) read alike. */
const codePointPattern = (cp: number): string => {
  const char = String.fromCodePoint(cp);
  if (cp >= 0x80 || /[A-Za-z0-9]/.test(char)) return char;
  return cp >= 0x20 && cp < 0x7f ? `\\${char}` : `\\x{${cp.toString(16)}}`;
};

/**
 * The `contains` needle as a regular expression without flags: each letter is the alternation of
 * its case variants (`query-semantics.ts`), everything else a literal. The server's own
 * case-insensitive option would fold by its own tables, which differ between MongoDB and FerretDB.
 */
export const containsPattern = (needle: string): string => {
  let pattern = '';
  for (const char of needle) {
    const variants = caseVariants(char.codePointAt(0)!);
    pattern +=
      variants.length === 1
        ? codePointPattern(variants[0]!)
        : `(?:${variants.map(codePointPattern).join('|')})`;
  }
  return pattern;
};

const guardedReplace = (doc: Doc): AnyBulkWriteOperation<StoredDoc> => {
  const { _id, ...replacement } = doc;
  return {
    replaceOne: { filter: { _id, _position: { $lte: doc._position } }, replacement, upsert: true },
  };
};

const replace = (doc: Doc): AnyBulkWriteOperation<StoredDoc> => {
  const { _id, ...replacement } = doc;
  return { replaceOne: { filter: { _id }, replacement, upsert: true } };
};

/** The statements of a failed bulk write refused as duplicate keys, when no other error came. */
const duplicateKeys = (error: unknown): Set<number> | undefined => {
  if (!(error instanceof MongoBulkWriteError) || error.result.getWriteConcernError()) return;
  const writeErrors = ([] as WriteError[]).concat(error.writeErrors);
  if (writeErrors.length === 0 || writeErrors.some(({ code }) => code !== DUPLICATE_KEY)) return;
  return new Set(writeErrors.map(({ index }) => index));
};

const createIfMissing = async (db: Db, name: string): Promise<void> => {
  try {
    await db.createCollection(name);
  } catch (error) {
    if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
  }
};

/**
 * Whether a transaction that reads the checkpoints commits on this client. A refusal (a standalone
 * server, a server that lacks the commands) is `false`; an unreachable server is an error.
 */
export const probeTransactions = async (client: MongoClient, db: Db): Promise<boolean> => {
  const session = client.startSession();
  try {
    session.startTransaction();
    await db.collection<Checkpoint>(CHECKPOINTS).findOne({ _id: '' }, { session });
    await session.commitTransaction();
    return true;
  } catch (error) {
    if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
    if (error instanceof MongoNetworkError || error instanceof MongoServerSelectionError) {
      throw error;
    }
    return false;
  } finally {
    await session.endSession();
  }
};

/** A replica set member or mongos says so in `hello`; the probe confirms it takes transactions. */
const detectTransactions = async (client: MongoClient, db: Db): Promise<boolean> => {
  const admin = db.admin();
  const hello = await admin.command({ hello: 1 }).catch((error: unknown) => {
    // Servers older than 4.4.2 (4.2.10, 4.0.21) know only the former name.
    if (error instanceof MongoServerError && error.code === COMMAND_NOT_FOUND) {
      return admin.command({ isMaster: 1 });
    }
    throw error;
  });
  const replicated = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
  if (!replicated || !(await probeTransactions(client, db))) return false;
  // Collections are not created inside transactions: the checkpoints' one exists beforehand.
  await createIfMissing(db, CHECKPOINTS);
  return true;
};

/**
 * The statements of a write command, `size` at a time (`statementsPerCommand`; all at once when
 * unset). FerretDB's SQLite backend keeps every statement's SQLite cursor open until its command
 * ends and has 100 SQLite connections per database in all: one command of a hundred statements,
 * or a few of them at once, leave none for anything else, and the database stops answering.
 */
const chunks = <T>(items: readonly T[], size: number | undefined): T[][] => {
  if (items.length === 0) return [];
  if (size === undefined || items.length <= size) return [[...items]];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * The distributed read store: a MongoDB collection per read-store collection (`rm_<name>`),
 * checkpoints in `rm_checkpoints`. A put never replaces a document with a higher `_position`, so
 * where the server has no transactions (FerretDB) a batch that landed partly before a crash is
 * replayed without harm. `contains` and string order follow `query-semantics.ts`, not collation.
 */
export class MongoReadStore implements ReadStore {
  private readonly specs = new Map<string, CollectionSpec>();
  private closed = false;
  /** Checkpoints of batches that wrote nothing, by projection, to write by `lateTimer`. */
  private readonly lateCheckpoints = new Map<string, number>();
  private lateTimer: NodeJS.Timeout | undefined;
  /** The write of late checkpoints in flight. */
  private lateWrite: Promise<void> = Promise.resolve();
  private readonly timeoutMs: number;
  private transactional: Promise<boolean> | undefined;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly ownsClient: boolean,
    private readonly options: MongoReadStoreOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const size = options.statementsPerCommand;
    if (size !== undefined && !(Number.isInteger(size) && size >= 1)) {
      throw new Error(`statementsPerCommand must be a whole number of at least 1, not ${size}`);
    }
  }

  /**
   * Connects to the server at `url` (MONGODB_URL) and keeps the read models in the database
   * `dbName`. Fails within `timeoutMs` when the server cannot be reached, with an error naming
   * MONGODB_URL. `close()` closes the connection.
   */
  static async connect(
    url: string,
    dbName: string,
    options: MongoReadStoreOptions = {},
  ): Promise<MongoReadStore> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let client: MongoClient;
    try {
      client = new MongoClient(url, {
        ignoreUndefined: true,
        serverSelectionTimeoutMS: timeoutMs,
        connectTimeoutMS: timeoutMs,
      });
    } catch (error) {
      throw new Error(`MONGODB_URL: ${redact(url)} is not a MongoDB connection string`, {
        cause: error,
      });
    }
    try {
      await client.connect();
      const store = new MongoReadStore(client, client.db(dbName), true, options);
      await store.usesTransactions();
      return store;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new Error(
        `MONGODB_URL: cannot use ${redact(url)} within ${timeoutMs} ms (${messageOf(error)})`,
        { cause: error },
      );
    }
  }

  /**
   * A store on a client its caller owns and shares (the caller connects and closes it: this
   * store's `close()` leaves it open). The commit mode is settled on first use.
   */
  static fromClient(
    client: MongoClient,
    dbName: string,
    options: MongoReadStoreOptions = {},
  ): MongoReadStore {
    return new MongoReadStore(client, client.db(dbName), false, options);
  }

  /**
   * Whether a batch and its checkpoint commit in one transaction. Settled once, by `connect` or
   * on first use: never with `transactions: 'never'`, else by `hello` and a probe transaction.
   */
  usesTransactions(): Promise<boolean> {
    if (this.options.transactions === 'never') return Promise.resolve(false);
    this.transactional ??= detectTransactions(this.client, this.db).catch((error: unknown) => {
      this.transactional = undefined;
      throw error;
    });
    return this.transactional;
  }

  /** Resolves when the server answers a `ping` within `timeoutMs` (default: the store's). */
  async ping(timeoutMs: number = this.timeoutMs): Promise<void> {
    await withDeadline(this.open().command({ ping: 1 }), timeoutMs, 'MongoDB read store ping');
  }

  async ensureCollections(specs: readonly CollectionSpec[]): Promise<void> {
    for (const spec of specs) {
      const name = `rm_${checkCollectionName(spec.name)}`;
      await createIfMissing(this.db, name);
      const collection = this.db.collection(name);
      for (const fields of indexesOf(spec)) {
        await collection.createIndex(
          Object.fromEntries(fields.map((field) => [checkName(field), 1])),
        );
      }
      this.specs.set(spec.name, spec);
    }
  }

  async get(collection: string, id: string): Promise<Doc | undefined> {
    return (await this.collection(collection).findOne({ _id: id })) ?? undefined;
  }

  async getMany(collection: string, ids: readonly string[]): Promise<Map<string, Doc>> {
    const docs = await this.collection(collection)
      .find({ _id: { $in: [...new Set(ids)] } })
      .toArray();
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  async find(collection: string, options: FindOptions = {}): Promise<Doc[]> {
    checkAfter(options);
    const where = this.filter(collection, options.where);
    const sort: Record<string, 1 | -1> = {};
    for (const { field, direction } of options.orderBy ?? []) {
      sort[this.indexed(collection, field)] = direction === 'asc' ? 1 : -1;
    }
    sort._id ??= 1;
    const select = async (filter: Filter<StoredDoc>, limit: number | undefined) => {
      // MongoDB reads a limit of 0 as no limit at all.
      if (limit === 0) return [];
      const cursor = this.collection(collection).find(filter, { sort });
      if (limit !== undefined) cursor.limit(limit);
      return cursor.toArray();
    };
    if (!options.after) return select(where, options.limit);
    // The runs after the place, in order, each an index range, until the limit is filled.
    const found: Doc[] = [];
    for (const run of afterRuns(options.orderBy ?? [], options.after)) {
      const left = options.limit === undefined ? undefined : options.limit - found.length;
      if (left !== undefined && left <= 0) break;
      found.push(...(await select({ $and: [where, this.afterRun(collection, run)] }, left)));
    }
    return found;
  }

  async count(collection: string, where?: Where): Promise<number> {
    return this.collection(collection).countDocuments(this.filter(collection, where));
  }

  async commit(projection: string, writes: readonly Write[], position: number): Promise<void> {
    const delayMs = this.options.emptyCheckpointDelayMs ?? EMPTY_CHECKPOINT_DELAY_MS;
    const late = this.lateCheckpoints.get(projection);
    if (writes.length === 0 && delayMs > 0) {
      if (late === undefined || late < position) this.lateCheckpoints.set(projection, position);
      if (!this.lateTimer) {
        this.lateTimer = setTimeout(() => void this.writeLateCheckpoints(), delayMs);
        this.lateTimer.unref();
      }
      return;
    }
    // This batch's checkpoint is past it.
    if (late !== undefined && late <= position) this.lateCheckpoints.delete(projection);
    const plans = this.plan(writes);
    if (!(await this.usesTransactions())) {
      await this.applyGuarded(plans);
      await this.moveCheckpoint(projection, position);
      return;
    }
    const session = this.client.startSession();
    try {
      await session.withTransaction(async (s) => {
        await this.applyInTransaction(plans, s);
        await this.moveCheckpoint(projection, position, s);
      });
    } finally {
      await session.endSession();
    }
  }

  async checkpoint(projection: string): Promise<number | undefined> {
    const stored = (await this.checkpoints.findOne({ _id: projection }))?.position;
    const late = this.lateCheckpoints.get(projection);
    return late === undefined || (stored !== undefined && stored > late) ? stored : late;
  }

  /**
   * Forgets the checkpoint first, then empties the collections (not in a transaction: they may be
   * large). A crash in between leaves documents with no checkpoint, which a rebuild from the start
   * replays over harmlessly, never a checkpoint over missing documents.
   */
  async reset(projection: string, collections: readonly string[]): Promise<void> {
    const targets = collections.map((name) => this.collection(name));
    // A late checkpoint must not land after the reset.
    this.lateCheckpoints.delete(projection);
    await this.lateWrite;
    await this.checkpoints.deleteOne({ _id: projection });
    for (const target of targets) await target.deleteMany({});
  }

  async upsert(collection: string, doc: Doc): Promise<void> {
    const { _id, ...replacement } = doc;
    await this.collection(collection).replaceOne({ _id }, replacement, { upsert: true });
  }

  async remove(collection: string, id: string): Promise<void> {
    await this.collection(collection).deleteOne({ _id: id });
  }

  /**
   * A lease is a log of terms, `{ _id: "<name>#<term>" }`: taking or renewing it inserts the next
   * term, so of the callers that read the same term the unique `_id` lets one in (a filtered update
   * would not: FerretDB reads, filters, then writes). Older terms are deleted, and a late caller
   * may insert one again, never the highest: so the answer comes from reading the terms back.
   */
  async acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const current = await this.currentTerm(name);
    if (current && current.holder !== holder && current.expiresAt > now) return false;
    await this.appendTerm(name, (current?.term ?? 0) + 1, holder, now + ttlMs);
    const after = await this.currentTerm(name);
    return after?.holder === holder && after.expiresAt > now;
  }

  /** Writes a term without a holder after the holder's own, unless another term came first. */
  async releaseLease(name: string, holder: string): Promise<void> {
    const current = await this.currentTerm(name);
    if (current?.holder !== holder) return;
    await this.appendTerm(name, current.term + 1, null, 0);
  }

  /** Closes the client if `connect` made it; a client given to `fromClient` stays open. */
  async close(): Promise<void> {
    await this.writeLateCheckpoints();
    this.closed = true;
    if (this.ownsClient) await this.client.close();
  }

  /** Folds a batch into one plan per document, keeping the order of its writes. */
  private plan(writes: readonly Write[]): Map<string, Map<string, Plan>> {
    const plans = new Map<string, Map<string, Plan>>();
    for (const write of writes) {
      this.spec(write.collection);
      let byId = plans.get(write.collection);
      if (!byId) plans.set(write.collection, (byId = new Map<string, Plan>()));
      if (write.kind === 'delete') {
        byId.set(write.id, { deleteFirst: true });
      } else {
        const plan = byId.get(write.doc._id) ?? { deleteFirst: false };
        if (!plan.put || plan.put._position <= write.doc._position) plan.put = write.doc;
        byId.set(write.doc._id, plan);
      }
    }
    return plans;
  }

  /** Writes the late checkpoints (after the write in flight, if any). */
  private writeLateCheckpoints(): Promise<void> {
    clearTimeout(this.lateTimer);
    this.lateTimer = undefined;
    const due = [...this.lateCheckpoints];
    this.lateCheckpoints.clear();
    const previous = this.lateWrite;
    this.lateWrite = (async () => {
      await previous;
      for (const [projection, position] of due) {
        // Lost: the next batch that writes moves it; a restart replays batches that write nothing.
        await this.moveCheckpoint(projection, position).catch(() => undefined);
      }
    })();
    return this.lateWrite;
  }

  private async moveCheckpoint(
    projection: string,
    position: number,
    session?: ClientSession,
  ): Promise<void> {
    await this.checkpoints.updateOne(
      { _id: projection },
      { $max: { position } },
      { upsert: true, session },
    );
  }

  /** Inside a transaction: reads the stored positions, then writes only what the guard allows. */
  private async applyInTransaction(
    plans: Map<string, Map<string, Plan>>,
    session: ClientSession,
  ): Promise<void> {
    for (const [name, byId] of plans) {
      const collection = this.collection(name);
      const guarded = [...byId].filter(([, plan]) => plan.put && !plan.deleteFirst);
      const stored =
        guarded.length === 0
          ? []
          : await collection
              .find(
                { _id: { $in: guarded.map(([_id]) => _id) } },
                { projection: { _position: 1 }, session },
              )
              .toArray();
      const positions = new Map(stored.map((doc) => [doc._id, doc._position]));
      const operations: AnyBulkWriteOperation<StoredDoc>[] = [];
      for (const [_id, { deleteFirst, put }] of byId) {
        if (deleteFirst) operations.push({ deleteOne: { filter: { _id } } });
        const current = positions.get(_id);
        if (put && (current === undefined || current <= put._position)) {
          operations.push(replace(put));
        }
      }
      if (operations.length > 0) await collection.bulkWrite(operations, { session });
    }
  }

  /** Without a transaction: deletes, then puts guarded by `_position` (see `putAll`). */
  private async applyGuarded(plans: Map<string, Map<string, Plan>>): Promise<void> {
    for (const [collection, byId] of plans) {
      const deletes = [...byId]
        .filter(([, plan]) => plan.deleteFirst)
        .map(([_id]): AnyBulkWriteOperation<StoredDoc> => ({ deleteOne: { filter: { _id } } }));
      for (const chunk of chunks(deletes, this.options.statementsPerCommand)) {
        await this.collection(collection).bulkWrite(chunk, { ordered: false });
      }
      await this.putAll(
        collection,
        [...byId.values()].flatMap(({ put }) => (put ? [put] : [])),
      );
    }
  }

  /**
   * Inserts the missing documents (`insertNew`), then replaces each other one whose stored
   * `_position` is not higher: a higher one makes the upsert collide on `_id`, the guard refusing
   * it. A collision may also be an insert race lost to another writer, so a refused put is retried.
   */
  private async putAll(collection: string, docs: readonly Doc[]): Promise<void> {
    for (const chunk of chunks(docs, this.options.statementsPerCommand)) {
      await this.putChunk(collection, chunk);
    }
  }

  private async putChunk(collection: string, docs: readonly Doc[]): Promise<void> {
    let pending = (await this.insertNew(collection, docs)).map((doc) => ({ doc, refused: false }));
    while (pending.length > 0) {
      try {
        await this.collection(collection).bulkWrite(
          pending.map(({ doc }) => guardedReplace(doc)),
          { ordered: false },
        );
        return;
      } catch (error) {
        const refused = duplicateKeys(error);
        if (!refused) throw error;
        // Once more for a put that lost an insert race; the driver may have skipped the others.
        pending = pending.flatMap((put, index) =>
          !refused.has(index) ? [put] : put.refused ? [] : [{ doc: put.doc, refused: true }],
        );
      }
    }
  }

  /**
   * Inserts the documents not stored yet and returns the others, for the guarded replace: an insert
   * is the one write FerretDB's SQLite backend checks against its `_id` index, where a guarded
   * replace scans the whole collection, and most of a batch's documents are new.
   */
  private async insertNew(collection: string, docs: readonly Doc[]): Promise<readonly Doc[]> {
    try {
      await this.collection(collection).bulkWrite(
        docs.map((document) => ({ insertOne: { document } })),
        { ordered: false },
      );
      return [];
    } catch (error) {
      const taken = duplicateKeys(error);
      if (!taken) throw error;
      return docs.filter((_, index) => taken.has(index));
    }
  }

  private filter(collection: string, where: Where | undefined): Filter<StoredDoc> {
    const filter: Record<string, unknown> = {};
    for (const [field, condition] of Object.entries(where ?? {})) {
      const key = this.indexed(collection, field);
      const c: Condition = condition;
      if (typeof c === 'object' && c !== null) {
        filter[key] =
          'contains' in c ? { $regex: containsPattern(c.contains) } : { $in: [...c.in] };
      } else {
        filter[key] = c;
      }
    }
    return filter;
  }

  /** One run of the documents after a place (`afterRuns`) as a filter. */
  private afterRun(collection: string, run: AfterRun): Filter<StoredDoc> {
    const key = (field: string) => this.indexed(collection, field);
    const { lead } = run;
    const leadKey = key(lead.field);
    const bounds: Record<AfterRun['lead']['bound'], Filter<StoredDoc>> = {
      atLeast: { [leadKey]: { $gte: lead.value } },
      atMost: { [leadKey]: { $lte: lead.value } },
      null: { [leadKey]: null },
      notNull: { [leadKey]: { $ne: null } },
    };
    if (!run.keys) return bounds[lead.bound];
    const keys = run.keys;
    const beyond = ({ field, direction, value }: PlaceKey): Filter<StoredDoc> | undefined => {
      const k = key(field);
      if (value === null) return direction === 'asc' ? { [k]: { $ne: null } } : undefined;
      return direction === 'asc'
        ? { [k]: { $gt: value } }
        : { $or: [{ [k]: { $lt: value } }, { [k]: null }] };
    };
    const alternatives = keys.flatMap((place, k) => {
      const next = beyond(place);
      if (!next) return [];
      const equal = keys.slice(0, k).map((prior) => ({ [key(prior.field)]: prior.value }));
      return [equal.length === 0 ? next : { $and: [...equal, next] }];
    });
    // Never empty: the keys end with `_id`, never null.
    return { $and: [bounds[lead.bound], { $or: alternatives }] };
  }

  private spec(collection: string): CollectionSpec {
    const spec = this.specs.get(collection);
    if (!spec) throw new Error(`Collection ${collection} is not declared (ensureCollections)`);
    return spec;
  }

  private collection(name: string): Collection<StoredDoc> {
    this.spec(name);
    return this.open().collection<StoredDoc>(`rm_${checkName(name)}`);
  }

  private async currentTerm(name: string): Promise<LeaseTerm | undefined> {
    const leases = this.leases();
    return (await leases.findOne({ name }, { sort: { term: -1 } })) ?? undefined;
  }

  /** Inserts a lease term unless another caller inserted it first, then drops the terms before it. */
  private async appendTerm(
    name: string,
    term: number,
    holder: string | null,
    expiresAt: number,
  ): Promise<void> {
    const leases = this.leases();
    try {
      await leases.insertOne({ _id: `${name}#${term}`, name, term, holder, expiresAt });
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return;
      throw error;
    }
    await leases.deleteMany({ name, term: { $lt: term } });
  }

  /**
   * The leases' collection. It needs no index beyond `_id`: each name holds one or two terms, so a
   * scan is as cheap as a look-up, and no node has to create an index while others write to it.
   */
  private leases(): Collection<LeaseTerm> {
    return this.open().collection<LeaseTerm>(LEASES);
  }

  private get checkpoints(): Collection<Checkpoint> {
    return this.open().collection<Checkpoint>(CHECKPOINTS);
  }

  /** The database, unless this store was closed (a client it shares may still be open). */
  private open(): Db {
    if (this.closed) throw new Error('The MongoDB read store is closed');
    return this.db;
  }

  private indexed(collection: string, field: string): string {
    if (field === '_id') return field;
    if (!this.spec(collection).indexes.includes(field)) {
      throw new Error(`${collection}.${field} is not an indexed field`);
    }
    return field;
  }
}
