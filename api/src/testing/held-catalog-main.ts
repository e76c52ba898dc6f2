import { createInterface } from 'node:readline';
import { loadConfig } from '../config/config';
import { startServer } from '../server/server';
import { Gate, heldCommits } from './held-commits';

/**
 * The product as `api/src/main.ts` runs it, with one test seam: the catalog read model's commits
 * wait while the test holds them, through the server's `projectionStore` option (the same seam
 * the API's integration tests use), so a browser can meet a server whose catalog is behind the
 * log. The test says `hold` or `release` on standard input; each is answered `catalog held` or
 * `catalog released` on standard output.
 */
const catalog = new Gate();
const config = loadConfig();
const running = await startServer(config, {
  projectionStore: heldCommits((projection) =>
    projection === 'catalog' ? catalog.promise : undefined,
  ),
});
console.log(`Auction marketplace listening on ${running.url} (catalog held on request)`);

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'hold') {
    catalog.close();
    console.log('catalog held');
  } else if (line.trim() === 'release') {
    catalog.open();
    console.log('catalog released');
  }
});

const stop = () => {
  catalog.open();
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
