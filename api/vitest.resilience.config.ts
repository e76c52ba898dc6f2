import { defineConfig } from 'vitest/config';

/** `npm run test:crash` and `npm run test:fuzz`: real servers under SIGKILL and hostile input. */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'api-resilience',
    include: ['src/resilience/**/*.resilience.spec.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
