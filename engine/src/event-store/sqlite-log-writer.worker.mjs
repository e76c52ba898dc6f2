// The event log's writer thread: its own connection to the log file, one group commit per message,
// so that the fsync and the inserts run beside the thread that decides the next commands.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { SqliteLogWriter, configureLogConnection, unpackGroup } from './sqlite-log-writer.mjs';

const db = new Database(workerData.filename);
configureLogConnection(db, workerData.busyTimeoutMs);
const writer = new SqliteLogWriter(db);

parentPort.on('message', (message) => {
  if (message.close) {
    db.close();
    parentPort.postMessage({ closed: true });
    return;
  }
  try {
    parentPort.postMessage({
      settled: writer.write(unpackGroup(message.group), message.snapshots),
    });
  } catch (error) {
    parentPort.postMessage({
      failed: { message: String(error?.message ?? error), code: error?.code },
    });
  }
});
