/**
 * Writes the OpenAPI document the gateway serves at `/api/v1/openapi.json`, built from the same
 * router and notes, without starting a server or a database:
 *
 *   npx tsx apps/gateway/scripts/openapi-document.ts [output file]
 *
 * With no file it prints the document. The linter (`pnpm lint:openapi`) and the typed client's
 * build (`packages/client`, which generates its types from it) read the file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { appRouter } from '@commerce/api';
import { gatewayOpenApiDocument } from '../src/openapi.ts';

const output = process.argv[2];
const json = `${JSON.stringify(gatewayOpenApiDocument(appRouter, process.env.OPENAPI_VERSION ?? '1.0.0'), null, 2)}\n`;
if (output) {
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, json);
} else process.stdout.write(json);
