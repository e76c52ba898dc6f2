import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import rules of `eslint.config.js`, run by the real ESLint on the real tree: a file is linted
 * as it is, or with the text given in place of its own (nothing is written), so each case shows
 * what the lint says of one import added to the tree.
 */
const root = join(import.meta.dirname, '..');
const importRules = ['import-x/no-cycle', 'import-x/no-restricted-paths'];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

const findingsOf = (results: ESLint.LintResult[]) =>
  results.flatMap((result) => {
    expect(result.messages.filter((message) => message.fatal)).toEqual([]);
    return result.messages
      .filter((message) => importRules.includes(message.ruleId ?? ''))
      .map((message) => `${message.ruleId}: ${message.message}`);
  });

/** What the import rules say of `file` (from the repository root) were its text `code`. */
const findings = async (file: string, code: string): Promise<string[]> =>
  findingsOf(await eslint.lintText(code, { filePath: join(root, file) }));

const rulesOf = (found: readonly string[]) => found.map((finding) => finding.split(':')[0]);

describe('the import rules', () => {
  it('pass the files the cycles and zones are about, as they are', async () => {
    const files = [
      'api/src/http/routes/auth/google.ts',
      'api/src/http/routes/auth/routes.ts',
      'api/src/app-deps.ts',
      'api/src/stores/sessions/session-cache.ts',
      'api/src/realtime/gateway.ts',
      'api/src/server/server.ts',
      'engine/src/command-bus/command-bus.ts',
      'engine/src/auction/actor.ts',
      'engine/src/auction/actor-registry.ts',
      'engine/src/auction/evolve.ts',
      'web/src/lib/session/log-out.ts',
      'web/src/features/auth/login-page.tsx',
      'web/src/features/auctions/auction-detail-page.tsx',
    ];
    expect(findingsOf(await eslint.lintFiles(files.map((file) => join(root, file))))).toEqual([]);
  });

  it('fail a runtime import cycle: the actor importing the registry that imports it', async () => {
    const found = await findings(
      'engine/src/auction/actor.ts',
      "import { AuctionActorRegistry } from './actor-registry';\n\nexport const registry = AuctionActorRegistry;\n",
    );
    expect(rulesOf(found)).toEqual(['import-x/no-cycle']);
  });

  it('leave a type-only cycle to the zones (the plugin skips type-only imports)', async () => {
    const found = await findings(
      'engine/src/auction/actor.ts',
      "import type { AuctionActorRegistry } from './actor-registry';\n\nexport type Registry = AuctionActorRegistry;\n",
    );
    expect(found).toEqual([]);
  });

  it('fail the command bus importing the auction folder, even for a type', async () => {
    const found = await findings(
      'engine/src/command-bus/command-bus.ts',
      "import type { AuctionState } from '../auction/decider-types';\n\nexport type State = AuctionState;\n",
    );
    expect(rulesOf(found)).toEqual(['import-x/no-restricted-paths']);
  });

  it('fail the decider importing the clock or the actor', async () => {
    const found = await findings(
      'engine/src/auction/evolve.ts',
      "import type { Clock } from '../clock';\nimport type { AuctionActor } from './actor';\n\nexport type Parts = Clock | AuctionActor;\n",
    );
    expect(rulesOf(found)).toEqual([
      'import-x/no-restricted-paths',
      'import-x/no-restricted-paths',
    ]);
    expect(found[0]).toContain('The decider is pure');
  });

  it('fail a web feature importing another feature', async () => {
    const found = await findings(
      'web/src/features/auth/login-page.tsx',
      "import { dashboardApi } from '../dashboard/api';\n\nexport const api = dashboardApi;\n",
    );
    expect(rulesOf(found)).toEqual(['import-x/no-restricted-paths']);
    expect(found[0]).toContain('A web feature does not import another feature');
  });

  it('fail shared web code importing a feature (the session resetting the notifications itself)', async () => {
    const found = await findings(
      'web/src/lib/session/forget.ts',
      "import { useNotifications } from '../../features/notifications/store';\n\nexport const reset = () => useNotifications.getState().reset();\n",
    );
    // The notifications register with `forget.ts`, so this is a cycle as well.
    expect(rulesOf(found).sort()).toEqual(['import-x/no-cycle', 'import-x/no-restricted-paths']);
  });

  // One bad import per floor of api/src/, each from a file to a part one floor or more above it.
  const upward: readonly (readonly [string, string])[] = [
    ['api/src/http/routes/bids/routes.ts', '../../../server/server'],
    ['api/src/http/middleware/session.ts', '../../cli/admin'],
    ['api/src/realtime/gateway.ts', '../http/middleware/read-your-writes'],
    ['api/src/followers/image-cleanup.ts', '../realtime/realtime-link'],
    ['api/src/app-deps.ts', './followers/image-cleanup'],
    ['api/src/accounts/account.ts', '../app-deps'],
    ['api/src/audit/audit-state.ts', '../http/respond'],
    ['api/src/stores/sessions/session-cache.ts', '../../accounts/account'],
    ['api/src/stores/images/image-store.ts', '../../audit/audit-events'],
    ['api/src/config/config.ts', '../stores/sqlite-store'],
  ];
  it.each(upward)('fail %s importing %s, a part above it', async (file, spec) => {
    const found = await findings(
      file,
      `import * as above from '${spec}';\n\nexport const parts = above;\n`,
    );
    expect(rulesOf(found)).toContain('import-x/no-restricted-paths');
    expect(found.join('\n')).toContain('No import runs up the floors of api/src/');
  });

  it('let a part import the parts below it', async () => {
    const found = await findings(
      'api/src/http/routes/bids/routes.ts',
      "import * as deps from '../../../app-deps';\nimport * as stores from '../../../stores/images/image-store';\nimport * as config from '../../../config/config';\n\nexport const parts = [deps, stores, config];\n",
    );
    expect(found).toEqual([]);
  });

  it('let a test drive a part through one above it', async () => {
    const found = await findings(
      'api/src/stores/rate-limits/mongo-rate-limit-store.int.spec.ts',
      "import { limiter } from '../../http/middleware/rate-limit';\n\nexport const limit = limiter;\n",
    );
    expect(found).toEqual([]);
  });
});
