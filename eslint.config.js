import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = import.meta.dirname;

const workspaces = ['contracts', 'testkit', 'engine', 'projections', 'api', 'web'];

/** Which workspaces each workspace may import: dependencies point one way (ARCHITECTURE.md, the dependency rule). */
const allowedImports = {
  'packages/contracts': [],
  'packages/testkit': ['contracts'],
  engine: ['contracts', 'testkit'],
  projections: ['contracts', 'testkit'],
  api: ['contracts', 'testkit', 'engine', 'projections'],
  web: ['contracts'],
};

const boundaries = Object.entries(allowedImports).map(([dir, allowed]) => ({
  files: [`${dir}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: workspaces
          .filter((w) => !allowed.includes(w) && !dir.endsWith(w))
          .map((w) => ({
            group: [`@auction/${w}`, `@auction/${w}/*`],
            message: `${dir} may not depend on @auction/${w} (see ARCHITECTURE.md, dependency rule).`,
          }))
          .concat([
            {
              group: ['../../*/src/*', '../../../*/src/*'],
              message: 'Import other workspaces by package name, never by relative path.',
            },
          ]),
      },
    ],
  },
}));

/** Tests, test support and benchmarks of the read side may drive the real engine to make events. */
const readSideTests = {
  files: [
    'projections/src/testing/**/*.ts',
    'projections/**/*.spec.ts',
    'projections/bench/**/*.ts',
  ],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: ['api', 'web'].map((w) => ({
          group: [`@auction/${w}`, `@auction/${w}/*`],
          message: `projections may not depend on @auction/${w}.`,
        })),
      },
    ],
  },
};

/** The web app's features: each folder of `web/src/features/`. */
const webFeatures = readdirSync(join(root, 'web/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The decider: pure functions of a command and the state (and the state's own fold). */
const deciderFiles = ['decide', 'evolve', 'decider-types', 'state', 'proxy', 'ending-soon'];
const decider = deciderFiles.map((name) => `engine/src/auction/${name}.ts`);

/**
 * The parts of `api/src/`, from the top floor down: a part imports only the parts below it. The
 * composition root (`server/`, `main.ts`, `cli/`) wires the rest; nothing below imports it.
 */
const apiFloors = [
  ['server', 'cli', 'main.ts'],
  ['http'],
  ['realtime'],
  ['followers'],
  ['app-deps.ts'],
  ['accounts', 'audit'],
  ['stores'],
  ['config'],
].map((floor) => floor.map((part) => `api/src/${part}`));

const apiFloorZones = apiFloors.slice(0, -1).map((floor, i) => ({
  target: apiFloors.slice(i + 1).flat(),
  from: floor,
  message: `No import runs up the floors of api/src/ (ARCHITECTURE.md): ${floor.join(', ')} is above this file.`,
}));

/**
 * Folders and files inside a workspace that may not import each other, one way
 * (`import-x/no-restricted-paths`; type-only imports count too). Paths are from the repository root.
 */
const zones = [
  {
    target: decider,
    from: 'engine/src/**',
    except: [join(root, `engine/src/auction/{${deciderFiles.join(',')}}.ts`)],
    message:
      'The decider is pure: it imports contracts and its own rules, never the actor, the registry, a store, the scheduler or the clock.',
  },
  {
    target: 'engine/src/command-bus',
    from: ['engine/src/auction', 'engine/src/scheduler', 'engine/src/cluster'],
    message:
      'The command bus is the port: the registry and the cluster router implement it, it knows neither.',
  },
  {
    target: ['engine/src/event-store', 'engine/src/chain'],
    from: [
      'engine/src/auction/actor.ts',
      'engine/src/auction/actor-registry.ts',
      'engine/src/command-bus',
      'engine/src/scheduler',
      'engine/src/cluster',
    ],
    message:
      'The event stores and the hash chain sit below the actors, the bus and the schedulers.',
  },
  {
    target: ['projections/src/read-store', 'projections/src/runner'],
    from: ['activity', 'catalog', 'notifications', 'watchlist', 'winnings'].map(
      (model) => `projections/src/${model}`,
    ),
    message: 'The read stores and the projection runner know no read model.',
  },
  ...apiFloorZones,
  ...webFeatures.map((feature) => ({
    target: `web/src/features/${feature}`,
    from: 'web/src/features/*/**',
    except: [join(root, `web/src/features/${feature}/**`)],
    message:
      'A web feature does not import another feature: shared UI lives in web/src/components/, the rest in web/src/lib/.',
  })),
  {
    target: ['web/src/components', 'web/src/lib'],
    from: ['web/src/features', 'web/src/app'],
    message: 'Shared components and lib code never import a feature or the app shell.',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist.*/**', '**/coverage/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  { files: ['**/*.{js,mjs}'], ...tseslint.configs.disableTypeChecked },
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'web/tsconfig.app.json', 'web/tsconfig.node.json'].map(
            (file) => join(root, file),
          ),
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // Cycles of runtime imports: the plugin skips type-only ones (erased when compiled); a
      // folder-level type cycle such as the bus's interface and its implementation is the zones' job.
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { basePath: root, zones }],
    },
  },
  {
    // A test may drive a part through one above it (a store under the real rate limiter, a route
    // through the whole server): the floors bind the product's code, not its tests.
    files: ['api/src/**/*.spec.ts', 'api/src/**/*.contract.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { basePath: root, zones: zones.filter((zone) => !apiFloorZones.includes(zone)) },
      ],
    },
  },
  ...boundaries,
  readSideTests,
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Tests read whatever JSON a real server answered, and assert on it.
    files: ['**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);
