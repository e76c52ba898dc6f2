/**
 * The rate-limit store the API used on MongoDB before the counter documents of
 * `../src/stores/rate-limits/mongo-rate-limit-store.ts`, kept for `rate-limit-store.bench.ts` to measure against:
 * one document per counted request, inserted and then counted (`countDocuments({k, w})`, which
 * FerretDB v1 answers by reading every document of the collection).
 */
import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from 'express-rate-limit';
import { type Collection, type MongoClient, MongoServerError, type ObjectId } from 'mongodb';

/** One counted request: its limiter's prefix, its key (with the prefix) and its window. */
interface HitDoc {
  _id?: ObjectId;
  /** The limiter's prefix. */
  p: string;
  /** The prefixed key. */
  k: string;
  /** The window's start, ms since the epoch (windows are aligned to multiples of `windowMs`). */
  w: number;
  /** When the window ends: the document may go. */
  e: Date;
}

export interface MongoRateLimitStoreOptions {
  /** Default `rate_limits`; every limiter shares it, told apart by prefix. */
  readonly collectionName?: string;
  /** Ended windows are deleted at most this often, on an increment (default a minute). */
  readonly sweepEveryMs?: number;
}

const notImplemented = (error: unknown): boolean =>
  error instanceof MongoServerError &&
  (error.code === 238 || error.codeName === 'NotImplemented' || error.code === 115);

/** The window index and the expiry index: a TTL index where the server has them (not FerretDB). */
const createIndexes = async (hits: Collection<HitDoc>): Promise<void> => {
  await hits.createIndex({ k: 1, w: 1 }, { name: 'key_window' });
  await hits
    .createIndex({ e: 1 }, { name: 'expires_ttl', expireAfterSeconds: 0 })
    .catch(async (error: unknown) => {
      if (!notImplemented(error)) throw error;
      await hits.createIndex({ e: 1 }, { name: 'expires' });
    });
};

/**
 * An express-rate-limit `Store` on MongoDB, so every node counts against the same limit. Fixed
 * windows aligned to multiples of `windowMs`. Each counted request is a document of its own,
 * inserted and then counted with the others of its key and window: FerretDB applies `$inc` (and
 * any read-modify-write update) without isolation, losing concurrent increments, while inserts are
 * atomic there as everywhere. A request therefore sees at least as many hits as were counted
 * before it, so no more than `limit` pass a window. Once a key is over its limit, a request's own
 * document is taken back out again, so a flood stores at most `limit + 1` per key and window.
 * `decrement` deletes one hit of the current window (on FerretDB two at once may pick the same
 * one: a request stays counted, never the other way round). Ended windows go by a TTL index where
 * the server has one and by a sweep at most every `sweepEveryMs`. Several limiters share the
 * collection, told apart by `prefix`.
 */
export class HitPerDocumentRateLimitStore implements Store {
  /** Counters are shared with every other instance on the same collection and prefix. */
  readonly localKeys = false;
  private readonly hits: Collection<HitDoc>;
  private readonly sweepEveryMs: number;
  private windowMs = 60_000;
  /** Hits kept per key and window; more only tell that the key is over its limit. */
  private keep = Number.POSITIVE_INFINITY;
  private lastSweep = Date.now();
  private indexes: Promise<void> | undefined;

  constructor(
    client: MongoClient,
    dbName: string,
    readonly prefix: string,
    options: MongoRateLimitStoreOptions = {},
  ) {
    this.hits = client.db(dbName).collection<HitDoc>(options.collectionName ?? 'rate_limits');
    this.sweepEveryMs = options.sweepEveryMs ?? 60_000;
  }

  /** Called by express-rate-limit with the limiter's options. */
  init(options: Options): Promise<void> {
    this.windowMs = options.windowMs;
    const counted = !options.skipFailedRequests && !options.skipSuccessfulRequests;
    // Trimming is only sound when no request is taken back out by `decrement` afterwards.
    this.keep =
      counted && typeof options.limit === 'number' ? options.limit + 1 : Number.POSITIVE_INFINITY;
    return this.ensureIndexes();
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { w, resetTime } = this.window();
    const totalHits = await this.hits.countDocuments({ k: this.prefix + key, w });
    return totalHits > 0 ? { totalHits, resetTime } : undefined;
  }

  async increment(key: string): Promise<IncrementResponse> {
    await this.ensureIndexes();
    const { w, resetTime } = this.window();
    const k = this.prefix + key;
    const { insertedId } = await this.hits.insertOne({ p: this.prefix, k, w, e: resetTime });
    const totalHits = await this.hits.countDocuments({ k, w });
    if (totalHits > this.keep) await this.hits.deleteOne({ _id: insertedId });
    this.sweepIfDue();
    return { totalHits, resetTime };
  }

  async decrement(key: string): Promise<void> {
    const hit = await this.hits.findOne({ k: this.prefix + key, w: this.window().w });
    if (hit) await this.hits.deleteOne({ _id: hit._id });
  }

  async resetKey(key: string): Promise<void> {
    await this.hits.deleteMany({ k: this.prefix + key });
  }

  async resetAll(): Promise<void> {
    await this.hits.deleteMany({ p: this.prefix });
  }

  /** Once per store; again after a failure. */
  private ensureIndexes(): Promise<void> {
    this.indexes ??= createIndexes(this.hits).catch((error: unknown) => {
      this.indexes = undefined;
      throw error;
    });
    return this.indexes;
  }

  private window(): { w: number; resetTime: Date } {
    const w = Math.floor(Date.now() / this.windowMs) * this.windowMs;
    return { w, resetTime: new Date(w + this.windowMs) };
  }

  private sweepIfDue(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    this.hits.deleteMany({ e: { $lte: new Date(now) } }).catch(() => undefined);
  }
}
