import { testConfig } from '@commerce/vitest-config';

// `vi.mock` of @commerce/admin and of the docs renderer; the server's Request and Response as globals.
export default testConfig([
  'src/cors.lookup.http.test.ts',
  'src/docs.test.ts',
  'src/response-fast-path.http.test.ts',
]);
