import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const workspaces = ['contracts', 'testkit', 'engine', 'projections', 'api', 'web'];

/** Which workspaces each workspace may import: dependencies point one way (style.md §2). */
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

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', 'data/**'] },
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
