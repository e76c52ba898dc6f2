import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'contracts',
    include: ['src/**/*.spec.ts'],
    testTimeout: 60_000,
  },
});
