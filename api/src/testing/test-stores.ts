import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';

/**
 * Which stores the whole-product tests run the server on: the embedded ones by default, or
 * MongoDB when `TEST_STORES=mongodb` (with `MONGODB_URL`), each server in a database of its own.
 * The returned settings always name both distributed stores and the Kafka brokers, blank for "not
 * used", so a setting in the test runner's own environment never leaks into a server or a
 * command-line child (a cluster is what `cluster.resilience.spec.ts` builds on purpose).
 */
export const testStoreEnv = (): Record<string, string> => {
  const choice = process.env.TEST_STORES ?? 'embedded';
  if (choice === 'embedded')
    return { MONGODB_URL: '', EVENTSTORE_CONNECTION_STRING: '', KAFKA_BROKERS: '' };
  const url = process.env.MONGODB_URL;
  if (choice !== 'mongodb' || url === undefined || url === '') {
    throw new Error('TEST_STORES must be embedded or mongodb, and mongodb needs MONGODB_URL');
  }
  return {
    MONGODB_URL: url,
    MONGODB_DB: `auction_test_${randomUUID().slice(0, 12).replace(/-/g, '')}`,
    // 8 on FerretDB's SQLite backend (scripts/with-mongodb.sh, .ci/run); blank: bulk writes.
    MONGODB_STATEMENTS_PER_COMMAND: process.env.MONGODB_STATEMENTS_PER_COMMAND ?? '',
    EVENTSTORE_CONNECTION_STRING: '',
    KAFKA_BROKERS: '',
  };
};

/** Drops the database a test server used, if it was on MongoDB. */
export const dropTestStores = async (env: Record<string, string>): Promise<void> => {
  if (!env.MONGODB_URL || !env.MONGODB_DB) return;
  const client = await MongoClient.connect(env.MONGODB_URL, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db(env.MONGODB_DB).dropDatabase();
  } finally {
    await client.close();
  }
};
