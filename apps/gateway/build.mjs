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
