import { defineConfig } from 'tsdown';

// Two ESM entries with declarations: the client (browser-safe) and the receivers' webhook check.
export default defineConfig({
  entry: { index: 'src/index.ts', webhooks: 'src/webhooks.ts' },
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  dts: true,
  clean: true,
  outExtensions: () => ({ js: '.js', dts: '.d.ts' }),
});
