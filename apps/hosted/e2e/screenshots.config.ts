import { defineConfig } from 'vitest/config';

/** The docs' screenshots (e2e/screenshots.shots.ts): run by hand, never by `test`. */
export default defineConfig({
  test: {
    include: ['e2e/screenshots.shots.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
