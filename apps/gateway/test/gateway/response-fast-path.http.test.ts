import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSecureHeaders, readSecureHeaders } from '../../src/response-headers.ts';
import { createHarness, type Harness } from '../support/harness.ts';

/*
 * @hono/node-server replaces the global Response with a lightweight one that keeps a string body
 * and its headers as they are and writes them to the socket in one go. Reading anything of such a
 * response beyond its status and headers (its body, `bodyUsed`: what Hono does when a middleware
 * writes into `c.res` before the route runs, or calls `c.header()` after it) turns it into a Fetch
 * Response whose body is a stream, which the server then reads chunk by chunk: on the public read
 * that cost more CPU than the route itself (docs/performance.md, "Regression fixed"). These tests
 * run the app with the server's globals, as in production, and check that the answers stay light.
 */

const originalRequest = globalThis.Request;
const originalResponse = globalThis.Response;

const STOREFRONT = 'https://fast.example';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness({ env: { ADMIN_APP_ORIGIN: 'https://admin.example' } });
  await h.provision('fast', 'owner@fast.test');
  token = await h.token({ email: 'owner@fast.test' });
  const patched = await h.app.request('/api/v1/merchant/settings', {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${token}`,
      'x-organization-slug': 'fast',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ apiSettings: { allowedOrigins: [STOREFRONT] } }),
  });
  expect(patched.status).toBe(200);
  // Installs the server's Request and Response as globals, as `serve` does.
  getRequestListener(h.app.fetch);
  expect(globalThis.Response).not.toBe(originalResponse);
});
afterAll(async () => {
  Object.defineProperty(globalThis, 'Request', { value: originalRequest });
  Object.defineProperty(globalThis, 'Response', { value: originalResponse });
  await h?.close();
});

/** Whether the server can still write `response` from its cached status, headers and body. */
const isLight = (response: Response) =>
  Object.getOwnPropertySymbols(response).some((symbol) => symbol.description === 'cache');

/** The headers the server would write, as the response caches them (before anything reads them). */
const cachedHeaders = (response: Response): unknown => {
  const symbol = Object.getOwnPropertySymbols(response).find((entry) => entry.description === 'cache');
  return symbol && (response as unknown as Record<symbol, [number, unknown, unknown]>)[symbol]?.[2];
};

describe('answers stay on the server fast path', () => {
  it.each([
    ['/healthz', '/healthz', {}, 200],
    ['a public read', '/api/v1/public/organization', { 'x-organization-slug': 'fast' }, 200],
    [
      'a cross-origin public read',
      '/api/v1/public/organization',
      { 'x-organization-slug': 'fast', origin: STOREFRONT },
      200,
    ],
    [
      'a public error',
      '/api/v1/public/items/no-such-item',
      { 'x-organization-slug': 'fast', origin: STOREFRONT },
      404,
    ],
    ['a customer error', '/api/v1/customer/account/profile', { 'x-organization-slug': 'fast' }, 401],
    ['an unknown route', '/nowhere', {}, 404],
  ])('%s', async (_case, path, headers: Record<string, string>, status) => {
    const response = await h.app.request(path, { headers });
    expect(isLight(response)).toBe(true);
    expect(response.status).toBe(status);
    // The headers the middleware adds after the route are on it all the same.
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    if (headers.origin) {
      expect(response.headers.get('access-control-allow-origin')).toBe(headers.origin);
      expect(response.headers.get('vary')).toContain('Origin');
    }
  });

  it('a REST JSON answer is built with all its headers as a plain record, which the server writes as is', async () => {
    const expected = await readSecureHeaders(apiSecureHeaders());
    expect(expected['x-content-type-options']).toBe('nosniff');
    const response = await h.app.request('/api/v1/public/organization', {
      headers: { 'x-organization-slug': 'fast', origin: STOREFRONT },
    });
    // Not a Headers object: nothing was set on the answer after the route made it.
    const cached = cachedHeaders(response);
    expect(cached).not.toBeInstanceOf(Headers);
    expect(cached).toEqual({
      ...expected,
      'x-request-id': expect.stringMatching(/^req_/),
      'access-control-allow-origin': STOREFRONT,
      'access-control-expose-headers': 'x-request-id,Retry-After,idempotent-replayed,ETag',
      vary: 'Origin',
      'cache-control': 'private, no-store',
      'content-type': 'application/json',
    });
  });

  it('a cacheable public read and its 304 carry their caching headers in the same record', async () => {
    const created = await h.app.request('/api/v1/merchant/pages', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'x-organization-slug': 'fast',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ title: 'About', slug: 'about', content: '<p>x</p>', status: 'PUBLISHED' }),
    });
    expect(created.status).toBe(201);
    const headers = { 'x-organization-slug': 'fast', origin: STOREFRONT };
    const response = await h.app.request('/api/v1/public/pages/about', { headers });
    expect(isLight(response)).toBe(true);
    const cached = cachedHeaders(response) as Record<string, string>;
    expect(cached).not.toBeInstanceOf(Headers);
    expect(cached).toMatchObject({
      etag: expect.stringMatching(/^"/),
      'cache-control': 'no-cache',
      vary: 'Origin, x-organization-slug',
      'content-type': 'application/json',
    });
    const notModified = await h.app.request('/api/v1/public/pages/about', {
      headers: { ...headers, 'if-none-match': cached.etag! },
    });
    expect(notModified.status).toBe(304);
    expect(isLight(notModified)).toBe(true);
    const cached304 = cachedHeaders(notModified) as Record<string, string>;
    expect(cached304).not.toBeInstanceOf(Headers);
    expect(cached304).toMatchObject({ etag: cached.etag, 'surrogate-key': cached['surrogate-key'] });
    expect(cached304['content-type']).toBeUndefined();
  });

  it('a merchant read from the admin app', async () => {
    const response = await h.app.request('/api/v1/merchant/settings', {
      headers: {
        authorization: `Bearer ${token}`,
        'x-organization-slug': 'fast',
        origin: 'https://admin.example',
      },
    });
    expect(isLight(response)).toBe(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://admin.example');
  });
});
