import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { MongoClient } from 'mongodb';

/**
 * Counts of the work a node sends to its stores, for the cluster benchmark (`OP_COUNTS_DIR`): every
 * MongoDB wire command by name and collection (the driver's command monitoring: `mongodb <command>
 * <collection>`, and the milliseconds from sending it to its answer, `ms mongodb ...`), and every Kafka
 * produce request, message produced and consumed, and offset commit, by topic kind. Unset (the
 * default), nothing is counted and nothing is written. Set, each thread of each process writes its
 * running totals to `<dir>/<pid>-<thread>.json` every 200 ms and at exit; the benchmark sums the
 * files before and after a phase. A diagnostic: no setting of the product, not in `Config`.
 */
const dir = process.env.OP_COUNTS_DIR?.trim() || undefined;

const counts = new Map<string, number>();
let dirty = false;
let timer: NodeJS.Timeout | undefined;

const flush = () => {
  if (!dir || !dirty) return;
  dirty = false;
  try {
    // Renamed into place: a reader never sees half a file.
    const file = join(dir, `${process.pid}-${threadId}.json`);
    writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(counts)));
    renameSync(`${file}.tmp`, file);
  } catch {
    // A diagnostic must never fail the node.
  }
};

/** Whether counting is on (`OP_COUNTS_DIR` set). */
export const countingOps = dir !== undefined;

/** Adds `n` to the count named `key` (nothing when counting is off). */
export const countOp = (key: string, n = 1): void => {
  if (!dir) return;
  counts.set(key, (counts.get(key) ?? 0) + n);
  dirty = true;
  if (!timer) {
    mkdirSync(dir, { recursive: true });
    timer = setInterval(flush, 200);
    timer.unref();
    process.once('exit', flush);
  }
};

/**
 * The option that makes the driver report commands, and the listener that counts them as
 * `mongodb <command> <collection>`; both no-ops when counting is off.
 */
export const mongoCommandMonitoring = { monitorCommands: countingOps } as const;

export const countMongoCommands = (client: MongoClient): void => {
  if (!countingOps) return;
  const keys = new Map<number, string>();
  client.on('commandStarted', (event) => {
    const target: unknown = event.command[event.commandName];
    const collection =
      event.commandName === 'getMore'
        ? String(event.command.collection)
        : typeof target === 'string'
          ? target
          : '-';
    const key = `mongodb ${event.commandName} ${collection}`;
    keys.set(event.requestId, key);
    countOp(key);
  });
  const answered = (event: { requestId: number; duration: number }) => {
    const key = keys.get(event.requestId);
    if (key === undefined) return;
    keys.delete(event.requestId);
    countOp(`ms ${key}`, event.duration);
  };
  client.on('commandSucceeded', answered);
  client.on('commandFailed', answered);
};
