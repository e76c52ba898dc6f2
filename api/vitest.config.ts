import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.spec.ts'],
    // Crash and fuzz suites run on their own: vitest.resilience.config.ts.
    exclude: [...configDefaults.exclude, 'src/resilience/**'],
    testTimeout: 60_000,
  },
});
