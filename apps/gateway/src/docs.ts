import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';
import type { GatewayEnv } from './env.ts';

/**
 * The contract document and its interactive reference. The document is
 * serialised once at start; the reference's script is served from the
 * installed package, so the page works without reaching a CDN.
 */
export function mountDocs(app: Hono<GatewayEnv>, document: object): void {
  const json = JSON.stringify(document);
  app.get('/api/v1/openapi.json', (c) => {
    c.set('route', 'GET /api/v1/openapi.json');
    return c.body(json, 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  app.get('/api/v1/docs', async (c, next) => {
    c.set('route', 'GET /api/v1/docs');
    return Scalar<GatewayEnv>({
      url: '/api/v1/openapi.json',
      cdn: '/api/v1/docs/scalar.js',
      pageTitle: 'Commerce API reference',
    })(c, next);
  });

  let script: Promise<Buffer> | undefined;
  app.get('/api/v1/docs/scalar.js', async (c) => {
    c.set('route', 'GET /api/v1/docs/scalar.js');
    script ??= readFile(scalarStandalonePath());
    return c.body(new Uint8Array(await script), 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=86400',
    });
  });
}

function scalarStandalonePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return join(dirname(entry), 'browser', 'standalone.js');
}
