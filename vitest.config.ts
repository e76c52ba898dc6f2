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
      // The documentation's links (scripts/docs-links.unit.spec.ts).
      { test: { name: 'docs', include: ['scripts/**/*.spec.ts'] } },
    ],
  },
});
