import { configDefaults, defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.spec.ts'],
    // Crash and fuzz suites run on their own: vitest.resilience.config.ts.
    exclude: [...configDefaults.exclude, 'src/resilience/**'],
    testTimeout: 60_000,
    // A server's start in a hook includes its read models' thread loading its modules and
    // catching up (`src/server/read-side/`): seconds on a busy machine, past vitest's default 10 s.
    hookTimeout: 30_000,
  },
});
