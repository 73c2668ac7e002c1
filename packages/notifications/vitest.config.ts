import { testConfig } from '@commerce/vitest-config';

// `vi.mock` of node:net.
export default testConfig(['src/smtp-transport.test.ts']);
