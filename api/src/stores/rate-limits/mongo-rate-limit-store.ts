import { createHash, randomBytes } from 'node:crypto';
import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from 'express-rate-limit';
import { type Collection, type MongoClient, MongoServerError } from 'mongodb';

/** One key's counter in one window. */
interface WindowDoc {
  /** `<window start>:<prefix><key>` (`<window start>#<sha256>` for a long key): see `idOf`. */
  _id: string;
  /** The limiter's prefix (for `resetAll`). */
  p: string;
  /** Requests counted, less those taken back. */
  n: number;
  /** When the window ends: the document may go. */
  e: Date;
  /** Random, set when the document is made: tells a counter from one made again after a reset. */
  t: string;
}

export interface MongoRateLimitStoreOptions {
  /**
   * Default `rate_limit_windows`: each limiter keeps its counters in `<this>.<prefix>` (its prefix
   * with characters other than letters, digits, `-` and `_` as `_`).
   */
  readonly collectionName?: string;
  /** Ended windows are deleted at most this often, on an increment (default a minute). */
  readonly sweepEveryMs?: number;
  /**
   * Whether the server may lose concurrent updates of one document (FerretDB v1 does, see
   * `mongo-update-isolation.int.spec.ts`). Default: asked of the server (`ferretDbVersion`).
   */
  readonly lossyUpdates?: boolean;
}

/** Keys longer than this are stored by their hash, so a document's size does not follow the key. */
const MAX_KEY_CHARS = 200;
/** Attempts at an upsert that lost the race to create its document (a duplicate key error). */
const UPSERT_ATTEMPTS = 5;

const notImplemented = (error: unknown): boolean =>
  error instanceof MongoServerError &&
  (error.code === 238 || error.codeName === 'NotImplemented' || error.code === 115);

const duplicateKey = (error: unknown): boolean =>
  error instanceof MongoServerError && error.code === 11000;

/** FerretDB's version when the server is FerretDB (its `buildInfo` says so), else undefined. */
export const ferretDbVersion = async (client: MongoClient): Promise<string | undefined> => {
  const info = await client.db('admin').command({ buildInfo: 1 });
  const version: unknown = info.ferretdbVersion;
  return typeof version === 'string' ? version : undefined;
};

/**
 * The collection of a limiter's counters: one per limiter, so that on a server where a lookup reads
 * the whole collection (FerretDB v1 on SQLite) one limiter's keys (a flood of sign-ups from many
 * addresses) do not slow another's (bids).
 */
export const rateLimitCollection = (prefix: string, base = 'rate_limit_windows'): string =>
  `${base}.${prefix.replace(/[^A-Za-z0-9_-]/g, '_') || '_'}`;

/** A request waiting for its turn at a counter: +1 counted (answered its rank), -1 taken back. */
interface Queued {
  readonly delta: 1 | -1;
  readonly resolve: (rank: number) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * An express-rate-limit `Store` on MongoDB, so every node counts against one limit: one document
 * per key and fixed window, counted by `findOneAndUpdate` on its string `_id` (the only filter
 * FerretDB v1 hands to its backend). FerretDB loses concurrent `$inc`s of one document, so a store
 * never has two in flight per counter and also counts in memory: see ../README.md, Rate-limit.
 */
export class MongoRateLimitStore implements Store {
  /** Counters are shared with every other instance on the same collection and prefix. */
  readonly localKeys = false;
  private readonly client: MongoClient;
  private readonly windows: Collection<WindowDoc>;
  private readonly sweepEveryMs: number;
  private windowMs = 60_000;
  private lossy: boolean | undefined;
  private lastSweep = Date.now();
  private prepared: Promise<void> | undefined;
  /** Counters with an update in flight, by `_id`: the requests queued for the next one. */
  private readonly lanes = new Map<string, Queued[]>();
  /** On a lossy server: this store's own requests per counter of window `ownWindow`. */
  private readonly own = new Map<string, { readonly t: string; readonly n: number }>();
  private ownWindow = 0;

  constructor(
    client: MongoClient,
    dbName: string,
    readonly prefix: string,
    options: MongoRateLimitStoreOptions = {},
  ) {
    this.client = client;
    this.windows = client
      .db(dbName)
      .collection<WindowDoc>(rateLimitCollection(prefix, options.collectionName));
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
    this.lossy = options.lossyUpdates;
  }

  /** Called by express-rate-limit with the limiter's options. */
  init(options: Options): Promise<void> {
    this.windowMs = options.windowMs;
    return this.prepare();
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    await this.prepare();
    const { w, resetTime } = this.window();
    const id = this.idOf(key, w);
    const doc = await this.windows.findOne({ _id: id });
    const own = doc && w === this.ownWindow ? this.own.get(id) : undefined;
    const totalHits = Math.max(doc?.n ?? 0, own?.t === doc?.t ? (own?.n ?? 0) : 0);
    return totalHits > 0 ? { totalHits, resetTime } : undefined;
  }

  async increment(key: string): Promise<IncrementResponse> {
    await this.prepare();
    const { w, resetTime } = this.window();
    const totalHits = await this.queue(this.idOf(key, w), w, 1);
    this.sweepIfDue();
    return { totalHits, resetTime };
  }

  async decrement(key: string): Promise<void> {
    await this.prepare();
    const { w } = this.window();
    await this.queue(this.idOf(key, w), w, -1);
  }

  async resetKey(key: string): Promise<void> {
    const id = this.idOf(key, this.window().w);
    this.own.delete(id);
    await this.windows.deleteOne({ _id: id });
  }

  async resetAll(): Promise<void> {
    this.own.clear();
    await this.windows.deleteMany({ p: this.prefix });
  }

  /**
   * The counter's `_id`: the window's start first (digits, then `:` or `#`), so no two keys and
   * windows give the same one; a key past `MAX_KEY_CHARS` by its SHA-256 (after `#`, where a
   * key's own text never goes).
   */
  private idOf(key: string, w: number): string {
    const k = this.prefix + key;
    return k.length <= MAX_KEY_CHARS
      ? `${w}:${k}`
      : `${w}#${createHash('sha256').update(k).digest('base64url')}`;
  }

  /**
   * Adds `delta` to the counter through its queue: sent at once when no update of it is in flight,
   * else with the others queued meanwhile, in one `$inc`. Resolves with the request's rank (its
   * count including itself) for +1, 0 for -1.
   */
  private queue(id: string, w: number, delta: 1 | -1): Promise<number> {
    return new Promise((resolve, reject) => {
      const queued = this.lanes.get(id);
      if (queued) {
        queued.push({ delta, resolve, reject });
        return;
      }
      const lane: Queued[] = [];
      this.lanes.set(id, lane);
      void this.drain(id, w, lane, [{ delta, resolve, reject }]);
    });
  }

  private async drain(id: string, w: number, lane: Queued[], first: Queued[]) {
    const resetTime = new Date(w + this.windowMs);
    let batch = first;
    while (batch.length > 0) {
      const added = batch.filter((q) => q.delta > 0).length;
      const delta = 2 * added - batch.length;
      try {
        const doc = await this.add(id, resetTime, delta, added > 0);
        // Taken back first, then counted in the order they came: ranks n - added + 1 .. n, and
        // on a lossy server at least the ranks among this store's own requests.
        let rank = (doc?.n ?? 0) - added;
        let own = (this.lossy ? this.countOwn(id, w, doc?.t, delta) : 0) - added;
        for (const q of batch) q.resolve(q.delta > 0 ? Math.max(++rank, ++own) : 0);
      } catch (error) {
        for (const q of batch) q.reject(error);
      }
      batch = lane.splice(0);
    }
    this.lanes.delete(id);
  }

  /** One `$inc` of the counter (made if `upsert`); the document after it. */
  private async add(
    id: string,
    resetTime: Date,
    delta: number,
    upsert: boolean,
  ): Promise<WindowDoc | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.windows.findOneAndUpdate(
          { _id: id },
          upsert
            ? {
                $inc: { n: delta },
                $setOnInsert: { p: this.prefix, e: resetTime, t: randomBytes(6).toString('hex') },
              }
            : { $inc: { n: delta } },
          { upsert, returnDocument: 'after' },
        );
      } catch (error) {
        // Another request (another node's, or before this store's queue) made it first.
        if (!duplicateKey(error) || attempt >= UPSERT_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Adds `delta` to this store's own count of counter `id` of window `w` (lossy servers), as its
   * queue answers, one batch at a time; its count after. Starts again from 0 when the document
   * answering is not the one counted before (`t`: it was reset, by any node) or is gone.
   */
  private countOwn(id: string, w: number, t: string | undefined, delta: number): number {
    if (w < this.ownWindow) return 0;
    if (w > this.ownWindow) {
      this.own.clear();
      this.ownWindow = w;
    }
    const before = this.own.get(id);
    const n = Math.max(0, (before && before.t === t ? before.n : 0) + delta);
    if (t === undefined || n === 0) this.own.delete(id);
    else this.own.set(id, { t, n });
    return n;
  }

  /** The expiry index and whether the server loses updates: once per store; again after a failure. */
  private prepare(): Promise<void> {
    this.prepared ??= (async () => {
      await this.windows
        .createIndex({ e: 1 }, { name: 'expires_ttl', expireAfterSeconds: 0 })
        .catch((error: unknown) => {
          // No TTL indexes (FerretDB v1): the sweep deletes ended windows; an index on `e` would
          // not serve it there (only `_id` filters use one) and would slow every write.
          if (!notImplemented(error)) throw error;
        });
      this.lossy ??= (await ferretDbVersion(this.client)) !== undefined;
    })().catch((error: unknown) => {
      this.prepared = undefined;
      throw error;
    });
    return this.prepared;
  }

  private window(): { w: number; resetTime: Date } {
    const w = Math.floor(Date.now() / this.windowMs) * this.windowMs;
    return { w, resetTime: new Date(w + this.windowMs) };
  }

  private sweepIfDue(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    this.windows.deleteMany({ e: { $lte: new Date(now) } }).catch(() => undefined);
  }
}

/**
 * A store per limiter on one shared collection (a `RateLimitStores`): rate limits counted across
 * every node.
 */
export const mongoRateLimitStores =
  (client: MongoClient, dbName: string, options: MongoRateLimitStoreOptions = {}) =>
  (prefix: string): MongoRateLimitStore =>
    new MongoRateLimitStore(client, dbName, prefix, options);
