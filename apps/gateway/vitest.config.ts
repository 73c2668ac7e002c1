import { testConfig } from '@commerce/vitest-config';

// `vi.mock` of @commerce/admin and of the docs renderer; the server's Request and Response as globals.
export default testConfig([
  'test/gateway/cors.lookup.http.test.ts',
  'test/gateway/docs.test.ts',
  'test/gateway/response-fast-path.http.test.ts',
]);
