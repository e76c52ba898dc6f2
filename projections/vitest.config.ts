import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'projections',
    include: ['src/**/*.spec.ts'],
    testTimeout: 60_000,
  },
});
