/**
 * The event log and the read models, opened from the server's settings: what the projections'
 * thread and the command-line tools need, apart from the rest of the stores (`open-stores.ts`),
 * so that the thread loads neither the session, account nor image stores nor their packages.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type EventStore, EventStoreDbEventStore, SqliteEventStore } from '@auction/engine';
import { MongoReadStore, type ReadStore, SqliteReadStore } from '@auction/projections';
import { MongoClient } from 'mongodb';
import type { Config } from '../config/config';
import { countMongoCommands, mongoCommandMonitoring } from '../stores/op-counts';

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

/** Hides the password of a connection string in messages. */
export const redact = (url: string): string => url.replace(/\/\/[^/@]*@/, '//***@');

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

export const openEvents = async (
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

export const openMongo = (config: StoreConfig): Promise<MongoClient | undefined> =>
  config.MONGODB_URL === undefined
    ? Promise.resolve(undefined)
    : connectMongo(config.MONGODB_URL, config.STORE_CONNECT_TIMEOUT_MS);

export const readStoreOn = (config: StoreConfig, mongo: MongoClient | undefined): ReadStore =>
  mongo
    ? MongoReadStore.fromClient(mongo, config.MONGODB_DB, {
        statementsPerCommand: config.MONGODB_STATEMENTS_PER_COMMAND,
      })
    : new SqliteReadStore({ filename: join(config.DATA_DIR, 'read.sqlite') });

/** The event log and the read models, on connections of their own. */
export interface LogAndReadModels {
  readonly events: EventStore;
  readonly read: ReadStore;
  readonly close: () => Promise<void>;
}

/**
 * The event log and the read models alone: what the command-line tools and the projections'
 * thread (`read-side/projection-thread.ts`) need, on connections of their own.
 */
export const openLogAndReadModels = async (
  config: StoreConfig,
  options: OpenStoresOptions = {},
): Promise<LogAndReadModels> => {
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
