import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';

/**
 * Bundles the gateway with everything it imports into one file, so a start
 * reads one module instead of resolving hundreds. Packages that locate files
 * beside their own code at run time (PGlite's WebAssembly, the API
 * reference's browser script) stay external and load from node_modules.
 */
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: [
    '@electric-sql/pglite',
    '@electric-sql/pglite/*',
    '@scalar/api-reference',
    'pg-native',
    'cloudflare:sockets',
  ],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});

// The bundle's own snapshot of a migrated embedded database (see openEmbeddedAtLatest in
// @commerce/db): without it the first start on a new data directory runs PGlite's initdb (~2.6 s).
// A deployment on PostgreSQL does not need it, so a failure here only warns.
try {
  execFileSync(process.execPath, ['dist/main.js', 'prepare-embedded'], { stdio: 'inherit' });
} catch (error) {
  console.warn(
    `build: no embedded database snapshot (${error.message}); new data directories will run initdb`,
  );
}
