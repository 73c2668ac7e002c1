import { hash } from 'node:crypto';
import { answerKeys, type PublicCacheRule } from '@commerce/api';
import type { Config } from '@commerce/core';
import type { Context } from 'hono';
import type { GatewayEnv } from './env.ts';
import { addVary, jsonWithHeaders } from './response-headers.ts';

/**
 * HTTP caching of the public catalog, collection, page and booking-service reads (docs/api.md,
 * "HTTP caching of public reads"). Every other API answer, errors included, is
 * `Cache-Control: private, no-store` (`NOT_CACHEABLE`, set for every /api and /trpc request in
 * app.ts) and never carries an ETag.
 */
export const NOT_CACHEABLE = 'private, no-store';

/** What the OpenAPI document's description says of caching, beside each cacheable operation's own headers. */
export const CACHE_NOTE =
  'Caching: the public item, collection, page and booking-service reads that say so are cacheable (a strong `ETag`, `304` to `If-None-Match`, a `Cache-Control` that makes every cache revalidate unless the operator let a CDN keyed by `x-organization-slug` keep them, and surrogate keys); every other answer, and every error, is `Cache-Control: private, no-store`.';

/**
 * The default `Cache-Control` of a cacheable read: any cache may store it but must ask the origin
 * before each use, and the origin compares the `If-None-Match` with the tag of the requesting
 * tenant's own answer. A CDN that keys by URL alone (the tenant is a header, not the path) thus
 * never hands one shop's answer to another's shopper.
 */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** The `Cache-Control` of a cacheable read once the operator said the CDN keys by the tenant header. */
export const sharedCacheControl = (config: Config['publicCache']) =>
  `public, max-age=0, s-maxage=${config.sMaxAgeSeconds}, stale-while-revalidate=${config.staleWhileRevalidateSeconds}`;

/**
 * The tenant is named by `x-organization-slug`, not the path: a cache that honours `Vary` keys on
 * it (many CDNs do not: hence `no-cache` unless `PUBLIC_CACHE_SHARED`). `Origin` is there already
 * (CORS names the request's origin).
 */
const VARY_TENANT = 'x-organization-slug';
const VARY_ORIGIN_AND_TENANT = `Origin, ${VARY_TENANT}`;

/** An `If-None-Match` longer than this is not read (no client holds that many of our tags). */
const MAX_IF_NONE_MATCH_LENGTH = 4096;

export interface PublicCachePolicy {
  /** Answers a cacheable read: its ETag, caching headers and keys, or `304` to a matching `If-None-Match`. */
  answer(
    c: Context<GatewayEnv>,
    rule: PublicCacheRule,
    tenant: { organizationId: string; slug: string },
    body: string,
    subjectId: string | undefined,
  ): Response;
  /** Whether a tenant's reads are cacheable (caching on, the tenant not opted out). */
  cacheable(slug: string): boolean;
}

/**
 * The policy of the configuration: its `Cache-Control` value built once, `no-cache` unless the
 * operator turned on `PUBLIC_CACHE_SHARED` (docs/api.md, "HTTP caching of public reads").
 */
export function createPublicCachePolicy(config: Config['publicCache']): PublicCachePolicy {
  const cacheControl = config.shared ? sharedCacheControl(config) : REVALIDATE_CACHE_CONTROL;
  const disabled = new Set(config.disabledTenants);
  return {
    cacheable: (slug) => config.enabled && !disabled.has(slug),
    answer(c, rule, tenant, body, subjectId) {
      const etag = entityTag(body);
      const keys = answerKeys(rule, tenant.organizationId, subjectId);
      const headers = c.get('responseHeaders');
      headers['cache-control'] = cacheControl;
      headers.etag = etag;
      headers['surrogate-key'] = keys.join(' ');
      headers['cache-tag'] = keys.join(',');
      // CORS put `Origin` there on every storefront answer: the usual case needs no merge.
      const vary = headers.vary;
      if (vary === undefined) headers.vary = VARY_TENANT;
      else if (vary === 'Origin') headers.vary = VARY_ORIGIN_AND_TENANT;
      else addVary(headers, VARY_TENANT);
      if (ifNoneMatchMatches(c.req.header('if-none-match'), etag)) {
        c.set('headersIncluded', true);
        return new Response(null, { status: 304, headers });
      }
      return jsonWithHeaders(c, body, 200);
    },
  };
}

/**
 * A strong ETag of a JSON body: the body is the whole representation (one content type, never
 * compressed by the gateway on these routes), so its digest changes exactly when the body does.
 * SHA-1 through Node's one-shot `crypto.hash` costs a few microseconds for a catalog answer; a
 * collision would only make a client keep a copy, and the bodies are the merchant's own.
 */
export function entityTag(body: string): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * Whether `If-None-Match` matches `etag` by weak comparison, as a GET's precondition is evaluated:
 * `*` matches any current representation, else any listed tag whose opaque part equals ours,
 * `W/` or not. A value that is not a list of entity tags matches nothing (the full answer goes
 * out), whatever tags it holds; one longer than `MAX_IF_NONE_MATCH_LENGTH` is not read.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.length > MAX_IF_NONE_MATCH_LENGTH) return false;
  const value = header.trim();
  if (value === '*') return true;
  let matched = false;
  const end = value.length;
  let index = 0;
  while (index < end && value.charCodeAt(index) === 0x2c) index = skipWhitespace(value, index + 1);
  // Each round reads one `[W/]"…"` and what may follow it: whitespace, then a comma or the end.
  while (index < end) {
    let start = index;
    if (value.charCodeAt(start) === 0x57 && value.charCodeAt(start + 1) === 0x2f) start += 2; // W/
    if (value.charCodeAt(start) !== 0x22) return false; // not an entity tag
    const close = value.indexOf('"', start + 1);
    if (close === -1) return false;
    if (close - start + 1 === etag.length && value.startsWith(etag, start)) matched = true;
    index = skipWhitespace(value, close + 1);
    if (index === end) break;
    if (value.charCodeAt(index) !== 0x2c) return false; // tags are separated by commas
    // Empty list elements (`a, , b`) are allowed, as in every list header.
    while (index < end && (value.charCodeAt(index) === 0x2c || isWhitespace(value.charCodeAt(index))))
      index++;
  }
  return matched;
}

const isWhitespace = (char: number) => char === 0x20 || char === 0x09;

function skipWhitespace(value: string, from: number): number {
  let index = from;
  while (index < value.length && isWhitespace(value.charCodeAt(index))) index++;
  return index;
}
