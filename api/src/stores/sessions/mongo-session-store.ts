import { MongoStore } from 'connect-mongo';
import session from 'express-session';
import { type Collection, type MongoClient, MongoServerError } from 'mongodb';
import type { UserSessionStore } from './session-store';

type Callback = (error?: unknown) => void;

/** A session as connect-mongo stores it with `stringify: false`: the data as a sub-document. */
interface SessionDoc {
  _id: string;
  session: { passport?: { user?: string } } & Record<string, unknown>;
  expires: Date;
  lastModified?: Date;
}

export interface MongoSessionStoreOptions {
  /** Default `sessions`. */
  readonly collectionName?: string;
  /** Expired sessions are deleted at most this often, on a write (default 10 minutes). */
  readonly sweepEveryMs?: number;
}

/** connect-mongo's answer to a touch of a session that is no longer there. */
const SESSION_GONE = 'Unable to find the session to touch';
/** A rolling session's new expiry is written at most once a minute, as on SQLite. */
const TOUCH_AFTER_SECONDS = 60;
/** When a session has no cookie expiry: a day, as on SQLite. */
const FALLBACK_TTL_SECONDS = 86_400;
const USER = 'session.passport.user';

const notImplemented = (error: unknown): boolean =>
  error instanceof MongoServerError &&
  (error.code === 238 || error.codeName === 'NotImplemented' || error.code === 115);

/**
 * Sessions on MongoDB through connect-mongo, stored unstringified so `session.passport.user` is
 * indexed and a user's sessions can be ended. Expired ones are swept where there is no TTL index
 * (FerretDB). Wraps the store rather than extending it, so `close` leaves the shared client open.
 */
export class MongoSessionStore extends session.Store implements UserSessionStore {
  private lastSweep = Date.now();

  private constructor(
    private readonly inner: MongoStore,
    private readonly mongo: MongoClient,
    private readonly dbName: string,
    private readonly docs: Collection<SessionDoc>,
    private readonly sweepEveryMs: number,
  ) {
    super();
  }

  /** The store on `client` (not owned), with its indexes. */
  static async create(
    client: MongoClient,
    dbName: string,
    options: MongoSessionStoreOptions = {},
  ): Promise<MongoSessionStore> {
    const docs = client.db(dbName).collection<SessionDoc>(options.collectionName ?? 'sessions');
    await docs.createIndex({ [USER]: 1 }, { name: 'session_user' });
    await docs
      .createIndex({ expires: 1 }, { name: 'expires_ttl', expireAfterSeconds: 0 })
      .catch(async (error: unknown) => {
        if (!notImplemented(error)) throw error;
        await docs.createIndex({ expires: 1 }, { name: 'expires' });
      });
    const inner = MongoStore.create({
      client,
      dbName,
      collectionName: docs.collectionName,
      stringify: false,
      touchAfter: TOUCH_AFTER_SECONDS,
      ttl: FALLBACK_TTL_SECONDS,
      // Its own TTL index would fail every call on a server without them: made above instead.
      autoRemove: 'disabled',
    });
    await inner.collectionP;
    return new MongoSessionStore(inner, client, dbName, docs, options.sweepEveryMs ?? 600_000);
  }

  override get(
    sid: string,
    callback: (error: unknown, session?: session.SessionData | null) => void,
  ): void {
    this.inner.get(sid, callback);
  }

  override set(sid: string, sess: session.SessionData, callback?: Callback): void {
    this.sweepIfDue();
    this.inner.set(sid, sess, callback);
  }

  /** A touch of a session that has meanwhile been destroyed does nothing, as on SQLite. */
  override touch(sid: string, sess: session.SessionData, callback?: Callback): void {
    this.inner.touch(sid, sess, (error?: unknown) =>
      callback?.(error instanceof Error && error.message === SESSION_GONE ? undefined : error),
    );
  }

  override destroy(sid: string, callback?: Callback): void {
    this.inner.destroy(sid, callback);
  }

  override length(callback: (error: unknown, length?: number) => void): void {
    this.inner.length(callback);
  }

  override clear(callback?: Callback): void {
    this.inner.clear(callback);
  }

  async destroyUser(userId: string): Promise<number> {
    return (await this.docs.deleteMany({ [USER]: userId })).deletedCount;
  }

  countForUser(userId: string): Promise<number> {
    return this.docs.countDocuments({ [USER]: userId, expires: { $gt: new Date() } });
  }

  async ping(): Promise<void> {
    await this.mongo.db(this.dbName).command({ ping: 1 });
  }

  /** Leaves the shared client open (connect-mongo's own `close` would close it). */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private sweepIfDue(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    this.docs.deleteMany({ expires: { $lte: new Date(now) } }).catch(() => undefined);
  }
}
