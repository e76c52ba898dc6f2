import { loadConfig } from './config/config';
import { startServer } from './server/server';

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
let running;
try {
  running = await startServer(config);
} catch (error) {
  console.error(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
console.log(`Auction marketplace listening on ${running.url} (data in ${config.DATA_DIR})`);

let stopping = false;
const stop = (signal: string) => {
  // A process manager, or a terminal's Ctrl-C, may signal the whole process group: `npm start`
  // then passes the same signal on, and it arrives twice. The drain is bounded; a repeat waits.
  if (stopping) {
    console.log(
      `${signal}: already stopping (within SHUTDOWN_TIMEOUT_MS, ${config.SHUTDOWN_TIMEOUT_MS} ms)`,
    );
    return;
  }
  stopping = true;
  console.log(`${signal}: draining in-flight commands and closing`);
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('Shutdown failed', error);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
