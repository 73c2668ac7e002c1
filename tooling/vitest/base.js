import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Shared test settings. Every test file gets its own database (see
 * `@commerce/db/testing`), so files run in parallel; two workers fit the
 * two-core machines this project runs on.
 */
const test = {
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  pool: 'forks',
  maxWorkers: 2,
  passWithNoTests: true,
  testTimeout: 20_000,
  hookTimeout: 30_000,
  reporters: process.env.CI ? ['default', 'json'] : ['default'],
  outputFile: { json: '.vitest-report.json' },
};

/**
 * The test settings of a package. The files of a worker share one module graph (`isolate: false`):
 * importing a package's whole dependency graph again for every file was most of the suites' CPU
 * (two thirds of the gateway's). Files share no state that matters, since each makes its own
 * database; the files in `isolated` replace a module (`vi.mock`) or a global that must not reach
 * another file, and run each in its own graph, as vitest does by default.
 */
export function testConfig(isolated = []) {
  if (isolated.length === 0) return defineConfig({ test: { ...test, isolate: false } });
  return defineConfig({
    test: {
      ...test,
      projects: [
        { test: { ...test, name: 'isolated', include: isolated } },
        {
          test: {
            ...test,
            name: 'shared',
            exclude: [...configDefaults.exclude, ...isolated],
            isolate: false,
          },
        },
      ],
    },
  });
}

export const baseConfig = testConfig();
