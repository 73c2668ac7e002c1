// Writes src/generated/idempotent-operations.ts: the operations whose OpenAPI parameters declare the
// idempotency key header (`x-idempotency-key`, or its alias `Idempotency-Key`), with whether the
// route requires it. Only these get a generated key and are sent again after a network failure or
// a 503: the others ignore the header, so a second send could carry the write out twice.
// Run by `generate` after the document is written.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const HEADERS = new Set(['x-idempotency-key', 'idempotency-key']);
const WRITES = new Set(['post', 'put', 'patch', 'delete']);

const [input, output] = process.argv.slice(2);
const document = JSON.parse(readFileSync(input, 'utf8'));
const listed = [];
const unlisted = [];
for (const [path, item] of Object.entries(document.paths))
  for (const [method, operation] of Object.entries(item)) {
    if (!WRITES.has(method)) continue;
    const header = (operation.parameters ?? []).find(
      (parameter) => parameter.in === 'header' && HEADERS.has(String(parameter.name).toLowerCase()),
    );
    const entry = { method: method.toUpperCase(), path };
    if (header) listed.push({ ...entry, required: header.required === true });
    else unlisted.push(entry);
  }
if (listed.length === 0) throw new Error(`no operation of ${input} declares the idempotency key header`);

// The client matches a request's path against these templates ({param} is one segment). A write
// that does not read the key must never match one, or a resend could repeat it.
const pattern = (path) =>
  new RegExp(
    `^${path
      .split('/')
      .map((segment) =>
        /^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('/')}$`,
  );
for (const other of unlisted)
  for (const entry of listed)
    if (entry.method === other.method && pattern(entry.path).test(other.path))
      throw new Error(`${other.method} ${other.path} would be taken for ${entry.method} ${entry.path}`);

listed.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
mkdirSync(dirname(output), { recursive: true });
writeFileSync(
  output,
  `// Generated from the OpenAPI document by scripts/idempotent-operations.mjs; do not edit.\n` +
    `/** The writes that read \`x-idempotency-key\` (and whether they require it): only these are keyed and resent. */\n` +
    `export const IDEMPOTENT_OPERATIONS: readonly { method: string; path: string; required: boolean }[] = ${JSON.stringify(listed, null, 2)};\n`,
);
