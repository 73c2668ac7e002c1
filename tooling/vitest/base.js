import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
  assertIsolated(process.cwd(), isolated);
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

/** What a shared module graph must not see: a module mocked, a global stubbed. */
const REPLACES = /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/;

/** Fails the run when a test file that replaces a module or a global is not in `isolated`. */
function assertIsolated(root, isolated) {
  const offenders = [];
  const visit = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.test.ts')) {
        const file = relative(root, path);
        if (!isolated.includes(file) && REPLACES.test(readFileSync(path, 'utf8'))) offenders.push(file);
      }
    }
  };
  for (const top of ['src', 'test']) visit(join(root, top));
  if (offenders.length > 0)
    throw new Error(
      `${offenders.join(', ')} replace a module or a global: name them in testConfig([...]) of vitest.config.ts`,
    );
}
