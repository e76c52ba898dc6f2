import { randomUUID } from 'node:crypto';

/**
 * What the nodes of one test cluster share: the data directory, the MongoDB server (a database
 * of the cluster's own, `auction_<name>_…`), the Kafka broker (topics under a prefix of its own)
 * and the number of partitions. Empty where the server is not configured; the suites skip then.
 */
export const clusterTestEnv = (name: string, dataDir: string, partitions: number) => ({
  DATA_DIR: dataDir,
  MONGODB_URL: process.env.MONGODB_URL ?? '',
  MONGODB_DB: `auction_${name}_${randomUUID().slice(0, 12).replace(/-/g, '')}`,
  MONGODB_STATEMENTS_PER_COMMAND: process.env.MONGODB_STATEMENTS_PER_COMMAND ?? '',
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '',
  KAFKA_TOPIC_PREFIX: `${name}-${randomUUID().slice(0, 8)}.`,
  KAFKA_PARTITIONS: String(partitions),
});
