import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { GatewayEnv } from './env.ts';

/**
 * The headers every answer carries (the security set, `x-request-id`, CORS) are gathered per
 * request in one plain record, `c.var.responseHeaders`, filled by the middlewares before the route
 * runs. A route that builds its answer with them (`jsonWithHeaders`: the REST adapter's JSON answers)
 * leaves nothing to do afterwards; any other answer gets them once the route is done, on its own
 * headers, without replacing a header the route set itself (the docs page's policy) and adding to
 * its `Vary`.
 *
 * Why not set them on the answer afterwards every time, as Hono's `secureHeaders` and `cors` do:
 * a dozen `Headers.set` calls on the Fetch headers of every answer, with their WebIDL checks, cost
 * about a tenth of a public read's CPU, and a plain record lets @hono/node-server write the answer
 * in one `writeHead` (docs/performance.md, "Session 3", and docs/api.md, "One header record
 * per request").
 */
export type HeaderRecord = Record<string, string>;

/** Hono's `secureHeaders` for API answers: data, never a page to render or frame. */
export const apiSecureHeaders = () =>
  secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    xFrameOptions: 'DENY',
    overwrite: false,
  });

/**
 * The headers Hono's `secureHeaders` middleware sets, read once by running it: the library keeps
 * deciding the set and the values, the gateway only applies them more cheaply.
 */
export async function readSecureHeaders(middleware: MiddlewareHandler): Promise<HeaderRecord> {
  const probe = new Hono();
  probe.use('*', middleware);
  probe.get('/', (c) => c.body(null, 204));
  const response = await probe.request('/');
  return Object.fromEntries(response.headers);
}

/** Adds `value`'s tokens to a `Vary` header, each once. */
export function mergeVary(current: string | null, value: string): string {
  if (!current) return value;
  const present = new Set(current.split(',').map((token) => token.trim().toLowerCase()));
  const added = value.split(',').filter((token) => !present.has(token.trim().toLowerCase()));
  return added.length === 0 ? current : `${current}, ${added.join(', ')}`;
}

/** Applies the record to an answer made without it: the route's own headers win, `Vary` merges. */
export function applyHeaderRecord(headers: Headers, record: HeaderRecord): void {
  for (const name in record) {
    const value = record[name]!;
    if (name === 'vary') headers.set('vary', mergeVary(headers.get('vary'), value));
    else if (!headers.has(name)) headers.set(name, value);
  }
}

/** Adds to the record's `Vary`. */
export function addVary(record: HeaderRecord, value: string): void {
  record.vary = record.vary === undefined ? value : mergeVary(record.vary, value);
}

/**
 * Starts each request's record with the security headers and its id (`start`, awaited only until
 * the security set is read), and applies it afterwards to any answer not built with it (`finish`).
 */
export function createResponseHeaders(extra: HeaderRecord = {}) {
  const ready = readSecureHeaders(apiSecureHeaders()).then((headers) => Object.assign(headers, extra));
  let security: HeaderRecord | undefined;
  return {
    async start(c: Context<GatewayEnv>): Promise<void> {
      security ??= await ready;
      // Object.assign, not a spread with a key after it: V8 gives such a spread a map of its own
      // every time, which makes each header added later, and every walk over the record (Hono's
      // and Node's header loops), take the slow path (docs/performance.md, "Session 6").
      const record: HeaderRecord = Object.assign({}, security);
      record['x-request-id'] = c.get('requestId');
      c.set('responseHeaders', record);
      c.set('headersIncluded', false);
    },
    finish(c: Context<GatewayEnv>): void {
      if (!c.get('headersIncluded')) applyHeaderRecord(c.res.headers, c.get('responseHeaders'));
    },
  };
}

/** A JSON answer built with the request's header record: nothing is left to set on it afterwards. */
export function jsonWithHeaders(c: Context<GatewayEnv>, body: string, status: number): Response {
  c.set('headersIncluded', true);
  // The record is this request's own: it becomes the answer's headers as it is.
  const headers = c.get('responseHeaders');
  headers['content-type'] = 'application/json';
  return new Response(body, { status, headers });
}
