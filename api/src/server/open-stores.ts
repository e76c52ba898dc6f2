import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Clock,
  type EventStore,
  EventStoreDbEventStore,
  SqliteEventStore,
  systemClock,
} from '@auction/engine';
import { MongoReadStore, type ReadStore, SqliteReadStore } from '@auction/projections';
import { MongoClient } from 'mongodb';
import type { AccountStore } from '../accounts/account-store';
import { MongoAccountStore } from '../accounts/mongo-account-store';
import { SqliteAccountStore } from '../accounts/sqlite-account-store';
import type { StoreName, StoreStatus } from '../app-deps';
import type { Config } from '../config/config';
import { GridFsImageStore } from '../stores/images/gridfs-image-store';
import { MongoRateLimitStore } from '../stores/rate-limits/mongo-rate-limit-store';
import { MongoSessionStore } from '../stores/sessions/mongo-session-store';
import { SqliteSessionStore } from '../stores/sessions/sqlite-session-store';
import { FileImageStore } from '../stores/images/file-image-store';
import { countMongoCommands, mongoCommandMonitoring } from '../stores/op-counts';
import type { ImageStore } from '../stores/images/image-store';
import { type RateLimitStores, inProcessRateLimits } from '../stores/rate-limits/rate-limit-store';
import type { UserSessionStore } from '../stores/sessions/session-store';

export type StoreConfig = Pick<
  Config,
  | 'DATA_DIR'
  | 'EVENTSTORE_CONNECTION_STRING'
  | 'MONGODB_URL'
  | 'MONGODB_DB'
  | 'STORE_CONNECT_TIMEOUT_MS'
> &
  Partial<Pick<Config, 'MONGODB_STATEMENTS_PER_COMMAND'>> &
  Partial<Pick<Config, 'KAFKA_BROKERS'>>;

/** Below this much free space in DATA_DIR, health reports the embedded stores as not writable. */
export const MIN_FREE_BYTES = 1024 * 1024;

/** Whether the file system of `dir` has `MIN_FREE_BYTES` free (true when it cannot tell). */
const hasRoom = async (dir: string): Promise<boolean> => {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize >= MIN_FREE_BYTES;
  } catch {
    return true;
  }
};

/** Every store the product keeps its state in, chosen by configuration. */
export interface Stores {
  /** The event log. Only the engine appends to it. */
  readonly events: EventStore;
  readonly read: ReadStore;
  readonly accounts: AccountStore;
  readonly sessions: UserSessionStore;
  readonly images: ImageStore;
  /** Shared counters for the rate limits (undefined: in process). */
  readonly rateLimits: RateLimitStores;
  /**
   * A random secret for session cookies, made once and kept beside the sessions (a file in
   * DATA_DIR, or a document in MongoDB that every app node reads), so sessions survive restarts.
   */
  keptSessionSecret(): Promise<string>;
  /** Asks every store whether it answers, each within `timeoutMs`. */
  health(timeoutMs?: number): Promise<Record<StoreName, StoreStatus>>;
  close(): Promise<void>;
}

const HEALTH_TIMEOUT_MS = 2000;

/** Hides the password of a connection string in messages. */
export const redact = (url: string): string => url.replace(/\/\/[^/@]*@/, '//***@');

const withDeadline = async <T>(work: Promise<T>, ms: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
};

/** Connects to MongoDB, failing within the timeout with a message that names the setting. */
export const connectMongo = async (url: string, timeoutMs: number): Promise<MongoClient> => {
  const client = new MongoClient(url, {
    ignoreUndefined: true,
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    ...mongoCommandMonitoring,
  });
  countMongoCommands(client);
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(
      `MONGODB_URL: cannot reach ${redact(url)} within ${timeoutMs} ms (${(error as Error).message})`,
      { cause: error },
    );
  }
};

export interface OpenStoresOptions {
  /**
   * In a cluster (KAFKA_BROKERS) on the SQLite log: how often a subscription reads the shared file
   * for other nodes' appends. Default 50 ms, for nodes that are not told of them (the server tells
   * its nodes, and polls less: `CLUSTER_POLL_MS`).
   */
  readonly clusterLogPollMs?: number;
}

const openEvents = async (
  config: StoreConfig,
  options: OpenStoresOptions = {},
): Promise<EventStore> => {
  const connectionString = config.EVENTSTORE_CONNECTION_STRING;
  if (connectionString === undefined) {
    const filename = join(config.DATA_DIR, 'events.sqlite');
    // The nodes of a cluster on one machine share the file; a subscription learns of another
    // process's appends when the cluster tells it (`PositionFeed`, `appendedElsewhere`) or at its
    // next poll (default 200 alone).
    return new SqliteEventStore(
      config.KAFKA_BROKERS
        ? { filename, pollIntervalMs: options.clusterLogPollMs ?? 50 }
        : { filename },
    );
  }
  try {
    return await EventStoreDbEventStore.connect({
      connectionString,
      timeoutMs: config.STORE_CONNECT_TIMEOUT_MS,
    });
  } catch (error) {
    throw new Error(`EVENTSTORE_CONNECTION_STRING: ${(error as Error).message}`, {
      cause: error,
    });
  }
};

const openMongo = (config: StoreConfig): Promise<MongoClient | undefined> =>
  config.MONGODB_URL === undefined
    ? Promise.resolve(undefined)
    : connectMongo(config.MONGODB_URL, config.STORE_CONNECT_TIMEOUT_MS);

const newSecret = () => randomBytes(48).toString('base64url');

const secretInFile = (file: string): string => {
  if (!existsSync(file)) writeFileSync(file, newSecret(), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
};

const secretInMongo = async (mongo: MongoClient, dbName: string): Promise<string> => {
  const settings = mongo.db(dbName).collection<{ _id: string; value: string }>('settings');
  const keep = () =>
    settings.findOneAndUpdate(
      { _id: 'session-secret' },
      { $setOnInsert: { value: newSecret() } },
      { upsert: true, returnDocument: 'after' },
    );
  // Two nodes starting at once: the loser of the upsert race reads the winner's secret.
  const kept = await keep().catch(() => keep());
  if (!kept) throw new Error('MongoDB did not return the kept session secret');
  return kept.value;
};

const readStoreOn = (config: StoreConfig, mongo: MongoClient | undefined): ReadStore =>
  mongo
    ? MongoReadStore.fromClient(mongo, config.MONGODB_DB, {
        statementsPerCommand: config.MONGODB_STATEMENTS_PER_COMMAND,
      })
    : new SqliteReadStore({ filename: join(config.DATA_DIR, 'read.sqlite') });

/**
 * The event log and the read models alone: what the command-line tools and the projections'
 * thread (`read-side/projection-thread.ts`) need, on connections of their own.
 */
export const openLogAndReadModels = async (
  config: StoreConfig,
  options: OpenStoresOptions = {},
): Promise<Pick<Stores, 'events' | 'read' | 'close'>> => {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const mongo = await openMongo(config);
  try {
    const events = await openEvents(config, options);
    const read = readStoreOn(config, mongo);
    return {
      events,
      read,
      close: async () => {
        await read.close();
        await events.close();
        await mongo?.close();
      },
    };
  } catch (error) {
    await mongo?.close();
    throw error;
  }
};

/** The account store alone (for `npm run admin`). */
export const openAccounts = async (
  config: StoreConfig,
): Promise<{ accounts: AccountStore; close(): Promise<void> }> => {
  if (config.MONGODB_URL === undefined) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    const accounts = new SqliteAccountStore(join(config.DATA_DIR, 'accounts.sqlite'));
    return { accounts, close: () => accounts.close() };
  }
  const mongo = await connectMongo(config.MONGODB_URL, config.STORE_CONNECT_TIMEOUT_MS);
  const accounts = await MongoAccountStore.create(mongo, config.MONGODB_DB);
  return {
    accounts,
    close: async () => {
      await accounts.close();
      await mongo.close();
    },
  };
};

type Probes = Record<StoreName, { adapter: string; probe: () => Promise<unknown> }>;

/**
 * `GET /health`'s view of the stores: each probe within `timeoutMs`, and the embedded ones marked
 * not writable when DATA_DIR's file system has no room.
 */
const storeHealth =
  (probes: Probes, dir: string) =>
  async (timeoutMs = HEALTH_TIMEOUT_MS): Promise<Record<StoreName, StoreStatus>> => {
    const room = hasRoom(dir);
    const entries = await Promise.all(
      Object.entries(probes).map(async ([name, { adapter, probe }]) => {
        const reachable = await withDeadline(probe(), timeoutMs, name).then(
          () => true,
          () => false,
        );
        const full = (adapter === 'sqlite' || adapter === 'files') && !(await room);
        return [
          name,
          full ? { adapter, reachable, writable: false } : { adapter, reachable },
        ] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<StoreName, StoreStatus>;
  };

/**
 * Opens every store: the event log on EventStoreDB when EVENTSTORE_CONNECTION_STRING is set, the
 * rest on MongoDB when MONGODB_URL is set, and each on its embedded default (SQLite and files
 * under DATA_DIR) otherwise. A server that cannot be reached stops start-up within
 * STORE_CONNECT_TIMEOUT_MS, with the setting named.
 */
export const openStores = async (
  config: StoreConfig,
  clock: Clock = systemClock,
  options: OpenStoresOptions = {},
): Promise<Stores> => {
  mkdirSync(config.DATA_DIR, { recursive: true });
  const mongo = await openMongo(config);
  const opened: { close(): Promise<void> }[] = [];
  try {
    const events = await openEvents(config, options);
    opened.push(events);
    const read = readStoreOn(config, mongo);
    opened.push(read);
    const now = () => clock.now();
    const dbName = config.MONGODB_DB;
    const dir = config.DATA_DIR;
    const [accounts, sessions, images] = mongo
      ? await Promise.all([
          MongoAccountStore.create(mongo, dbName),
          MongoSessionStore.create(mongo, dbName),
          GridFsImageStore.create(mongo, dbName),
        ])
      : [
          new SqliteAccountStore(join(dir, 'accounts.sqlite')),
          new SqliteSessionStore(join(dir, 'sessions.sqlite'), now),
          new FileImageStore(join(dir, 'uploads')),
        ];
    const rateLimits: RateLimitStores = mongo
      ? (prefix) => new MongoRateLimitStore(mongo, dbName, prefix)
      : inProcessRateLimits;
    const onMongo = (embedded: string) => (mongo ? 'mongodb' : embedded);
    const probes: Probes = {
      events: {
        adapter: config.EVENTSTORE_CONNECTION_STRING ? 'eventstoredb' : 'sqlite',
        probe: () => events.streamRevision('health-probe'),
      },
      read: { adapter: onMongo('sqlite'), probe: () => read.checkpoint('health-probe') },
      accounts: { adapter: onMongo('sqlite'), probe: () => accounts.ping() },
      sessions: { adapter: onMongo('sqlite'), probe: () => sessions.ping() },
      images: { adapter: onMongo('files'), probe: () => images.ping() },
    };
    return {
      events,
      read,
      accounts,
      sessions,
      images,
      rateLimits,
      keptSessionSecret: () =>
        mongo
          ? secretInMongo(mongo, dbName)
          : Promise.resolve(secretInFile(join(dir, 'session-secret'))),
      health: storeHealth(probes, dir),
      close: async () => {
        await Promise.allSettled([sessions.close(), accounts.close(), images.close()]);
        await read.close();
        await events.close();
        await mongo?.close();
      },
    };
  } catch (error) {
    await Promise.allSettled(opened.map((store) => store.close()));
    await mongo?.close().catch(() => undefined);
    throw error;
  }
};
