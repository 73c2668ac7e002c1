import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/**
 * The browser bundle must hold no server code: the app imports the API's router only as a type and
 * its zod schemas from the packages' browser-safe `./schemas` subpaths (src/lib/schemas.ts). This
 * fails the build if anything else slipped in (a database driver, Node built-ins, the service
 * packages' entry points).
 */
function noServerCode(): Plugin {
  const forbidden = [
    /[\\/]node_modules[\\/](kysely|pg|pg-[a-z]+|@electric-sql|pino|nodemailer|ioredis|stripe)[\\/]/,
    /^node:/,
    // A service package's entry point; the design system's (`packages/ui`) is browser code.
    /[\\/]packages[\\/](?!ui[\\/])[a-z-]+[\\/]src[\\/]index\.ts$/,
    /[\\/]packages[\\/](db|api)[\\/]/,
  ];
  return {
    name: 'hosted:no-server-code',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const bad = chunk.moduleIds.filter((id) => forbidden.some((pattern) => pattern.test(id)));
        if (bad.length > 0) this.error(`server code in the browser bundle: ${bad.join(', ')}`);
      }
    },
  };
}

/**
 * Strings only React's development build carries (its owner-stack frames): found in a chunk, the
 * build stops, whatever made it a development one.
 */
export const REACT_DEVELOPMENT_MARKERS = ['react-stack-top-frame'];

function productionOnly(): Plugin {
  return {
    name: 'hosted:production-only',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const marker = REACT_DEVELOPMENT_MARKERS.find((text) => chunk.code.includes(text));
        if (marker) this.error(`${chunk.fileName} is a development build (it carries "${marker}")`);
      }
    },
  };
}

/**
 * zod compiles a fast object parser with `new Function` when it may: its first object schema
 * probes for it, and under the page's policy (no 'unsafe-eval') the caught probe is still reported
 * as a violation on every page. `jitless` skips the probe, and must be set before the first schema
 * is built, which an entry module cannot guarantee (zod and the shared schemas are in a chunk that
 * runs before the entry's own code), so it is set at the end of zod's own configuration module.
 */
function zodWithoutEval(): Plugin {
  const configModule = /[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/;
  let applied = false;
  return {
    name: 'hosted:zod-without-eval',
    apply: 'build',
    transform(code, id) {
      if (!configModule.test(id)) return;
      if (!/export function config\(/.test(code)) this.error(`${id} no longer exports zod's config()`);
      applied = true;
      return { code: `${code}\nconfig({ jitless: true });\n`, map: null };
    },
    buildEnd() {
      if (!applied) this.error("zod's configuration module (zod/v4/core/core.js) was not in the build");
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** What the gateway serves precompressed (apps/gateway/src/hosted-app.ts); images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|svg|json|map)$/;

/**
 * Each script and stylesheet also written as `<name>.br` (brotli at its best quality) and
 * `<name>.gz` (gzip level 9), once at build time, for the gateway to send to a client that accepts
 * one; a file no smaller compressed gets none.
 */
function precompress(): Plugin {
  return {
    name: 'hosted:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir;
      if (outDir === undefined) return this.error('the build has no output folder');
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => COMPRESSIBLE.test(name))
          .map(async (name) => {
            const file = join(outDir, name);
            const plain = await readFile(file);
            const [br, gz] = await Promise.all([
              brotli(plain, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.byteLength,
                },
              }),
              gzip(plain, { level: 9 }),
            ]);
            if (br.byteLength < plain.byteLength) await writeFile(`${file}.br`, br);
            if (gz.byteLength < plain.byteLength) await writeFile(`${file}.gz`, gz);
          }),
      );
    },
  };
}

export default defineConfig(({ command }) => {
  // What the gateway serves is always the production build: React, React Aria and TanStack pick
  // their development code (and React Aria leaves out its style element under `test`) from
  // NODE_ENV, which a shell, CI job or test runner may have set to anything. Vite reads it after
  // loading this file; the bundle's `process.env.NODE_ENV` and `import.meta.env.PROD` follow.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    // Served by the gateway under a prefix no tenant slug can take (apps/gateway/src/hosted-app.ts).
    base: '/hosted/_app/',
    build: {
      target: 'es2022',
      assetsDir: 'assets',
      reportCompressedSize: true,
      // One chunk on purpose (every page shares React, the router and zod); its size is reported
      // above and in docs/hosted-app.md ("Bundle"), and this warns only if it grows past that.
      chunkSizeWarningLimit: 600,
      rollupOptions: {
        // React libraries mark their modules "use client" (for server components); one bundle has no use for it.
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
    plugins: [noServerCode(), productionOnly(), zodWithoutEval(), precompress()],
  };
});
