import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

/**
 * Bundles the worker with the workspace packages it uses (they ship
 * TypeScript source, which Node cannot load) into dist/main.js. Every other
 * package stays external and loads from this app's node_modules, so each one
 * the bundle imports must be a dependency in package.json: the build fails
 * otherwise, rather than the process at start.
 */
const manifest = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const builtins = new Set(builtinModules);
const undeclared = new Set();

const packageName = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const externalizeDependencies = {
  name: 'externalize-dependencies',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@commerce/')) return undefined;
      const name = packageName(args.path);
      if (!name.startsWith('node:') && !builtins.has(name) && !declared.has(name)) {
        undeclared.add(`${name} (imported by ${args.importer})`);
      }
      return { path: args.path, external: true };
    });
  },
};

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalizeDependencies],
  banner: {
    // For bundled code that calls require(); an alias keeps the banner's import clear of bundled names.
    js: "import { createRequire as __workerCreateRequire } from 'module'; const require = __workerCreateRequire(import.meta.url);",
  },
});

if (undeclared.size > 0) {
  console.error(
    `dist/main.js imports packages missing from apps/worker/package.json dependencies:\n  ${[...undeclared].join('\n  ')}`,
  );
  process.exit(1);
}
