import { testConfig } from '@commerce/vitest-config';

// The key fallback test replaces the global crypto: it runs in a module graph of its own.
export default testConfig(['test/idempotency-key-fallback.test.ts']);
