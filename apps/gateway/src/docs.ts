import { createHash } from 'node:crypto';
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

  const reference = Scalar<GatewayEnv>({
    url: '/api/v1/openapi.json',
    cdn: '/api/v1/docs/scalar.js',
    pageTitle: 'Commerce API reference',
  });
  // The page is the same for every request: rendered once, with a policy that runs only its own
  // scripts (the bundle from this origin and the inline start-up script, by hash). A failed render
  // is forgotten, so the next request renders again rather than failing until a restart.
  let page: Promise<{ html: string; policy: string }> | undefined;
  app.get('/api/v1/docs', async (c, next) => {
    c.set('route', 'GET /api/v1/docs');
    page ??= Promise.resolve(reference(c, next))
      .then((response) => (response as Response).text())
      .then((html) => ({ html, policy: docsPolicy(html) }))
      .catch((error: unknown) => {
        page = undefined;
        throw error;
      });
    const { html, policy } = await page;
    return c.html(html, 200, { 'content-security-policy': policy });
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

/**
 * The docs page's Content-Security-Policy: scripts from this origin and the page's inline scripts by
 * their SHA-256; inline styles (the reference sets them at run time); fonts from this origin only, so
 * the page falls back to system fonts rather than reaching the reference's font CDN; requests to this
 * origin (the document and "try it").
 */
export function docsPolicy(html: string): string {
  const inlineScripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src 'self' ${inlineScripts.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function scalarStandalonePath(): string {
  const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
  return join(dirname(entry), 'browser', 'standalone.js');
}
