import { loadConfig } from './config';
import { startServer } from './server';

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

const stop = (signal: string) => {
  console.log(`${signal}: draining in-flight commands and closing`);
  running.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('Shutdown failed', error);
      process.exit(1);
    },
  );
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
