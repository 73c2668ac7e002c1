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
    /[\\/]packages[\\/][a-z-]+[\\/]src[\\/]index\.ts$/,
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

export default defineConfig({
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
  plugins: [noServerCode()],
});
