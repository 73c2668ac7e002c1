import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';
import { acceptedQuality } from './compression.ts';
import type { GatewayEnv } from './env.ts';
import { mergeVary } from './response-headers.ts';

/**
 * The hosted app (apps/hosted): a single-page app built by Vite into `apps/hosted/dist`.
 * `GET /hosted/:orgSlug/*` answers its `index.html` (the page reads its tenant from the path); the
 * link paths the service emails or documents answer it at the root too, for links whose base has
 * no `{orgSlug}` (the page asks the server which store the token names and moves to
 * `/hosted/<slug>/…`). Hashed assets live under one prefix that no slug can take (`_` is not a
 * slug character) with a year's cache, brotli or gzip from the files the build compressed
 * beforehand when the client accepts one; the HTML is never cached.
 */
export const HOSTED_ASSET_PREFIX = '/hosted/_app/assets/';

/**
 * The root paths of the links emails carry, relative to HOSTED_CHECKOUT_URL
 * (docs/hosted-app.md "Link bases and link tokens").
 */
export const HOSTED_ROOT_LINK_PATHS = [
  '/account',
  '/account/*',
  '/order-status',
  '/cart/reminders/unsubscribe',
  '/email/unsubscribe',
  '/bookings/manage/*',
  '/checkout/*',
];

/**
 * The page's policy: its own scripts, styles and requests, plus what Stripe's Payment Element
 * needs (its script and frames from js.stripe.com, 3-D Secure frames from hooks.stripe.com, its
 * API from api.stripe.com). No inline script: Vite emits none. The one inline style allowed is
 * the `<style>` element React Aria inserts (its press and scroll-lock rules), by this response's
 * `nonce`, never `'unsafe-inline'`: the page names the nonce in `<meta property="csp-nonce" nonce>`, which
 * React Aria reads and sets on the elements it inserts. Images may come from any https origin: the
 * store header shows the logo the merchant's settings name (Stripe's images are https too).
 */
export function hostedContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' https://js.stripe.com",
    `style-src 'self' 'nonce-${nonce}'`,
    // A store's logo lives wherever the merchant put it (any https origin); no other image source.
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self' https://api.stripe.com",
    'frame-src https://js.stripe.com https://hooks.stripe.com',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page with this response's style nonce, where React Aria looks for it (first in `<head>`). */
export function withStyleNonce(html: string, nonce: string): string {
  return html.replace(/<head(\s[^>]*)?>/i, (head) => `${head}<meta property="csp-nonce" nonce="${nonce}">`);
}

/** An organization slug (packages/admin organizations/schemas.ts): `_app` and the like are never one. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * The encodings the build writes beside each script and stylesheet (apps/hosted/vite.config.ts,
 * `<name>.br` and `<name>.gz`), best first: brotli is about a seventh smaller than gzip here.
 */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.map']);

/**
 * The precompressed encodings `Accept-Encoding` accepts, by its quality (brotli first on a tie);
 * empty when it accepts neither (no header: identity).
 */
export function acceptedPrecompressed(header: string | undefined): ('br' | 'gzip')[] {
  return PRECOMPRESSED.map(({ encoding }) => ({ encoding, q: acceptedQuality(header, encoding) }))
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q)
    .map(({ encoding }) => encoding);
}

/** apps/hosted/dist, seen from this file (apps/gateway/src) and from the bundle (apps/gateway/dist). */
export const DEFAULT_HOSTED_APP_DIR = fileURLToPath(new URL('../../hosted/dist', import.meta.url));

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hosted app not built</title></head>
<body><h1>The hosted app is not built</h1>
<p>Run <code>pnpm build</code> (or <code>pnpm --filter @commerce/hosted build</code>) and restart the gateway.</p></body></html>
`;

export function mountHostedApp(app: Hono<GatewayEnv>, options: { dir?: string } = {}): void {
  const dir = options.dir ?? DEFAULT_HOSTED_APP_DIR;
  const assetsDir = join(dir, 'assets');
  // Read once; a missing build is looked for again on the next request (built while running).
  let index: Promise<string | undefined> | undefined;
  const readIndex = () => {
    index ??= readFile(join(dir, 'index.html'), 'utf8').catch(() => {
      index = undefined;
      return undefined;
    });
    return index;
  };

  const page = async (c: Context<GatewayEnv>) => {
    c.set('route', `GET ${c.req.routePath}`);
    const slug = c.req.param('orgSlug');
    if (slug !== undefined && !SLUG.test(slug)) return c.notFound();
    const html = await readIndex();
    // A new nonce per answer (the page is never cached): 128 random bits.
    const nonce = randomBytes(16).toString('base64');
    const headers = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy':
        html === undefined ? "default-src 'none'" : hostedContentSecurityPolicy(nonce),
      'x-frame-options': 'DENY',
    };
    if (html === undefined) return c.body(NOT_BUILT, 503, headers);
    return c.body(withStyleNonce(html, nonce), 200, headers);
  };

  app.get(`${HOSTED_ASSET_PREFIX}*`, async (c) => {
    c.set('route', `GET ${HOSTED_ASSET_PREFIX}*`);
    let name: string;
    try {
      name = decodeURIComponent(c.req.path.slice(HOSTED_ASSET_PREFIX.length));
    } catch {
      // A malformed escape (`%E0%A4%A`) names no asset: 404, never a 500.
      return c.notFound();
    }
    const file = normalize(join(assetsDir, name));
    const type = CONTENT_TYPES[extname(file)];
    if (!file.startsWith(assetsDir + sep) || type === undefined) return c.notFound();
    const headers: Record<string, string> = {
      'content-type': type,
      // Names carry their content hash: a changed file is a new name.
      'cache-control': 'public, max-age=31536000, immutable',
    };
    if (COMPRESSIBLE.has(extname(file))) {
      // The answer depends on Accept-Encoding, whichever encoding this one has.
      headers.vary = mergeVary(c.res.headers.get('vary'), 'Accept-Encoding');
      for (const encoding of acceptedPrecompressed(c.req.header('accept-encoding'))) {
        const suffix = PRECOMPRESSED.find((candidate) => candidate.encoding === encoding)!.suffix;
        const encoded = await readFile(file + suffix).catch(() => undefined);
        if (encoded !== undefined)
          return c.body(new Uint8Array(encoded), 200, { ...headers, 'content-encoding': encoding });
      }
    }
    const body = await readFile(file).catch(() => undefined);
    if (body === undefined) return c.notFound();
    return c.body(new Uint8Array(body), 200, headers);
  });
  app.get('/hosted/:orgSlug', page);
  app.get('/hosted/:orgSlug/*', page);
  for (const path of HOSTED_ROOT_LINK_PATHS) app.get(path, page);
}
