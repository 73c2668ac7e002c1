import { testConfig } from '@commerce/vitest-config';

// `vi.mock` of the tenant lookup, @commerce/admin and the docs renderer; the server's Request and Response as globals.
export default testConfig([
  'test/gateway/tenant-directory.http.test.ts',
  'test/gateway/docs.test.ts',
  'test/gateway/response-fast-path.http.test.ts',
]);
