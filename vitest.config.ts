import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/contracts', 'packages/testkit', 'engine', 'projections', 'api', 'web'],
  },
});
