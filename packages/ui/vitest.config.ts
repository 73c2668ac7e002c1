import { defineConfig } from 'vitest/config';

/**
 * Component tests in a real browser: test/gallery renders every component, served by Vite in the
 * test process, and headless Chromium (the system's, as the hosted app's e2e tests use) drives it
 * through playwright-core. One browser at a time on the two-core machines.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.vitest-report.json' },
  },
});
