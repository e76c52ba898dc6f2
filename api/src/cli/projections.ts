/**
 * `npm run projections -- status`            each projection's position and how far behind it is
 * `npm run projections -- rebuild [name...]` empty the read models and build them again from the
 *                                             event log (all of them when no name is given)
 * Run it while the server is stopped: the server's own runner writes the same read models.
 */
import { allProjections, ProjectionRunner } from '@auction/projections';
import { loadConfig } from '../config/config';
import { openLogAndReadModels } from '../server/open-stores';

const usage = 'usage: npm run projections -- status | rebuild [name...]';

const main = async (args: readonly string[]): Promise<number> => {
  const [command, ...names] = args;
  if (command !== 'status' && command !== 'rebuild') {
    console.error(usage);
    return 2;
  }
  const known = allProjections.map((p) => p.name);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    console.error(`Unknown projection ${unknown.join(', ')}; known: ${known.join(', ')}`);
    return 2;
  }
  const stores = await openLogAndReadModels(loadConfig());
  const chosen =
    names.length === 0 ? allProjections : allProjections.filter((p) => names.includes(p.name));
  const runner = new ProjectionRunner({
    source: stores.events,
    store: stores.read,
    projections: chosen,
  });
  try {
    if (command === 'rebuild') {
      await stores.read.ensureCollections(chosen.flatMap((p) => p.collections));
      for (const projection of chosen) {
        const started = performance.now();
        await runner.rebuild(projection.name);
        const [status] = (await runner.status()).filter((s) => s.name === projection.name);
        console.log(
          JSON.stringify({
            rebuilt: projection.name,
            position: status?.position,
            ms: Math.round(performance.now() - started),
          }),
        );
      }
    } else {
      await runner.start();
      for (const status of await runner.status()) console.log(JSON.stringify(status));
    }
    return 0;
  } finally {
    await runner.stop();
    await stores.close();
  }
};

process.exitCode = await main(process.argv.slice(2));
