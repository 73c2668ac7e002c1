// Writes src/generated/error-codes.ts: every error code the OpenAPI document's operations list
// (each error response narrows the envelope's `error.code` to an enum), so `CommerceApiError.code`
// is typed with them. Run by `generate` after the document is written.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const [input, output] = process.argv.slice(2);
const document = JSON.parse(readFileSync(input, 'utf8'));
const codes = new Set();
for (const item of Object.values(document.paths))
  for (const operation of Object.values(item))
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (Number(status) < 400) continue;
      for (const branch of response.content?.['application/json']?.schema?.allOf ?? [])
        for (const code of branch.properties?.error?.properties?.code?.enum ?? []) codes.add(code);
    }
if (codes.size === 0) throw new Error(`no error codes in ${input}`);
mkdirSync(dirname(output), { recursive: true });
writeFileSync(
  output,
  `// Generated from the OpenAPI document by scripts/error-codes.mjs; do not edit.\n` +
    `/** Every error code the API's operations document. */\n` +
    `export const ERROR_CODES = ${JSON.stringify([...codes].sort())} as const;\n` +
    `export type ErrorCode = (typeof ERROR_CODES)[number];\n`,
);
