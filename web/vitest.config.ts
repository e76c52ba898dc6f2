import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    include: ['src/**/*.unit.spec.ts'],
    environment: 'node',
  },
});
