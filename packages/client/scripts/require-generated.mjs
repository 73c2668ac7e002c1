// Run before `typecheck` and `test`: the sources import src/generated/ (from `generate`) and the
// tests and README examples import dist/ (from `build`). Neither is committed, so a fresh checkout
// says what to run instead of failing with a page of unresolved imports.
import { existsSync } from 'node:fs';

const missing = [
  ['src/generated/api.ts', 'src/generated/idempotent-operations.ts', 'src/generated/error-codes.ts'].find(
    (file) => !existsSync(new URL(`../${file}`, import.meta.url)),
  ),
  process.argv.includes('--dist') && !existsSync(new URL('../dist/index.js', import.meta.url))
    ? 'dist/index.js'
    : undefined,
].filter(Boolean);
if (missing.length > 0) {
  console.error(
    `@commerce/client: ${missing.join(' and ')} missing. They are generated from the gateway's routes, not committed:\n` +
      '  run `pnpm turbo run build --filter=@commerce/client` from the repository root\n' +
      '  (or `pnpm run generate && pnpm run build` here), then this command again.',
  );
  process.exit(1);
}
