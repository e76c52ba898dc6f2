import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'scripts',
    include: ['*.spec.ts'],
    // The lint spec runs the real, type-aware ESLint.
    testTimeout: 120_000,
  },
});
