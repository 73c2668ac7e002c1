import { defineConfig } from 'vitest/config';

/**
 * Shared test settings. Every test file gets its own database (see
 * `@commerce/db/testing`), so files run in parallel; two workers fit the
 * two-core machines this project runs on.
 */
export const baseConfig = defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    passWithNoTests: true,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.vitest-report.json' },
  },
});
