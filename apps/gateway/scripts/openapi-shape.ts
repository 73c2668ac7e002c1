/**
 * The OpenAPI document's shape without its prose: every operation with its
 * parameters, request and response schemas, security and error codes, and
 * every component schema, with `description`, `summary` and examples removed
 * and keys sorted. Two builds whose shapes are equal publish the same
 * contract, whatever their texts say; a restructuring compares them:
 *
 *   npx tsx apps/gateway/scripts/openapi-shape.ts > /tmp/after.json
 *   git stash && npx tsx apps/gateway/scripts/openapi-shape.ts > /tmp/before.json && git stash pop
 *   diff /tmp/before.json /tmp/after.json && echo same shape
 *
 * With `--size` it prints the whole document's size in bytes instead.
 */
import { appRouter, buildOpenApiDocument, listRestRoutes } from '@commerce/api';
import { paymentWebhookOpenApiPaths } from '../src/webhooks.ts';

const PROSE = new Set(['description', 'summary', 'example', 'examples']);

function withoutProse(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([key]) => !PROSE.has(key))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, inner]) => [key, withoutProse(inner)]);
  return Object.fromEntries(entries);
}

const document = buildOpenApiDocument(appRouter, listRestRoutes(appRouter), {
  version: 'shape',
  extraPaths: paymentWebhookOpenApiPaths,
});
if (process.argv.includes('--size')) process.stdout.write(`${JSON.stringify(document).length}\n`);
else
  process.stdout.write(
    `${JSON.stringify(withoutProse({ paths: document.paths, components: document.components }), null, 1)}\n`,
  );
