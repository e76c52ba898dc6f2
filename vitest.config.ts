import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/contracts',
      'packages/testkit',
      'engine',
      'projections',
      'api',
      'web',
      // The repository's own checks: the lint rules, the documentation's links.
      'scripts',
    ],
  },
});
