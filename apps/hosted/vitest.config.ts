import { defineConfig } from 'vitest/config';

/**
 * Browser tests (e2e/): each file starts a gateway in-process on its own test database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL) and drives headless Chromium through playwright-core. The
 * global setup builds the app when its sources changed and installs Debian's chromium if missing.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    // One browser at a time: the machine has two cores and the gateway runs in the same process.
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.vitest-report.json' },
  },
});
