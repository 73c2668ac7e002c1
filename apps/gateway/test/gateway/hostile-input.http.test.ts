import { appRouter, listRestRoutes } from '@commerce/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness, PLATFORM_TOKEN } from '../support/harness.ts';

/**
 * A hostile client over every operation of the OpenAPI document: NUL in a path
 * parameter, a query value, a nested body string and a header, plus text the
 * edge lets through (emoji, C1 controls, quotes) and values of the wrong type.
 * No request may answer 500, and every error is the API's error envelope.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: { 'application/json'?: { schema?: { properties?: Record<string, unknown> } } } };
}
type Document = { info: { description: string }; paths: Record<string, Record<string, Operation>> };

let h: Harness;
let ownerToken: string;
let document: Document;
const guarded = new Set<string>();

beforeAll(async () => {
  h = await createHarness();
  await h.provision('shop', 'owner@shop.test');
  ownerToken = await h.token({ email: 'owner@shop.test' });
  // The first request binds the pending Owner membership.
  await h.app.request('/api/v1/merchant/auth/session', {
    headers: { authorization: `Bearer ${ownerToken}` },
  });
  document = (await (await h.app.request('/api/v1/openapi.json')).json()) as Document;
  for (const route of listRestRoutes(appRouter)) guarded.add(`${route.method} ${route.path}`);
});
afterAll(async () => {
  await h.close();
});

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

const credentials = (path: string): Record<string, string> =>
  path.startsWith('/platform/')
    ? { authorization: `Bearer ${PLATFORM_TOKEN}` }
    : { authorization: `Bearer ${ownerToken}`, 'x-organization-slug': 'shop' };

const pathParams = (operation: Operation) =>
  (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map(({ name }) => name);
const queryParams = (operation: Operation) =>
  (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map(({ name }) => name);
const takesBody = (method: string) => method !== 'GET' && method !== 'DELETE';

function fill(path: string, value: (name: string) => string): string {
  return `/api/v1${path.replace(/\{([^}]+)\}/g, (_match, name: string) => value(name))}`;
}

/** Status below 500, and the envelope whenever it is an error. */
async function expectNoFault(response: Response, what: string) {
  expect(response.status, `${what}: ${response.status} ${await response.clone().text()}`).toBeLessThan(500);
  if (response.status >= 400) await errorOf(response);
}

async function expectRefusedAt(response: Response, issuePath: string, what: string) {
  if (response.status !== 400) throw new Error(`${what}: expected 400, got ${response.status}`);
  const error = await errorOf(response);
  expect(error.code, what).toBe('VALIDATION_FAILED');
  expect(
    error.details?.issues?.map((issue) => issue.path),
    what,
  ).toContain(issuePath);
}

describe('every operation of the OpenAPI document', () => {
  it('states the rules in the document', () => {
    expect(document.info.description).toContain('JSON nested deeper than 64 levels');
  });

  it('refuses NUL in a path parameter, a query value, a nested body string and a header with 400 at its path', async () => {
    let requests = 0;
    for (const { path, method, operation } of operations()) {
      const what = `${method} ${path}`;
      const edge = guarded.has(what);
      const headers = credentials(path);
      const plain = fill(path, () => 'x');
      const send = async (url: string, init: RequestInit = {}) => {
        requests++;
        const response = await h.app.request(url, {
          method,
          ...init,
          headers: { ...headers, ...init.headers },
        });
        await expectNoFault(response.clone(), what);
        return response;
      };

      const [param] = pathParams(operation);
      if (param) {
        const response = await send(fill(path, (name) => (name === param ? 'x%00y' : 'x')));
        if (edge) await expectRefusedAt(response, param, `${what} path`);
      }

      const query = queryParams(operation)[0] ?? 'extra';
      const queried = await send(`${plain}?${query}=a%00b`);
      if (edge) await expectRefusedAt(queried, query, `${what} query`);

      if (takesBody(method)) {
        const response = await send(plain, {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ outer: { list: ['fine', 'a\u0000b'] } }),
        });
        if (edge) await expectRefusedAt(response, 'outer.list.1', `${what} body`);
      }

      // Fetch's Headers refuse NUL (so does Node's HTTP parser): the nearest a header gets is another control.
      const headed = await send(plain, { headers: { 'x-organization-slug': 'sh\u0001op' } });
      if (edge) await expectRefusedAt(headed, 'headers.x-organization-slug', `${what} header`);
    }
    expect(requests).toBeGreaterThan(300);
  }, 120_000);

  it('answers text the edge lets through, and values of the wrong type, without a fault', async () => {
    const odd = `😀\u0085'";--%_\\`;
    let requests = 0;
    for (const { path, method, operation } of operations()) {
      const what = `${method} ${path}`;
      const headers = credentials(path);
      const url = fill(path, () => encodeURIComponent(odd));
      const query = queryParams(operation)
        .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(odd)}`)
        .join('&');
      requests++;
      await expectNoFault(await h.app.request(query ? `${url}?${query}` : url, { method, headers }), what);

      if (takesBody(method)) {
        const properties = Object.keys(
          operation.requestBody?.content?.['application/json']?.schema?.properties ?? {},
        );
        for (const wrong of [odd, 1e300, { nested: [true] }, ['x', null]]) {
          const body = Object.fromEntries(properties.map((name) => [name, wrong]));
          requests++;
          await expectNoFault(
            await h.app.request(url, {
              method,
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            }),
            `${what} ${JSON.stringify(wrong)}`,
          );
        }
      }
    }
    expect(requests).toBeGreaterThan(150);
  }, 120_000);
});

describe('the requests of the report', () => {
  const owner = () => ({ authorization: `Bearer ${ownerToken}`, 'x-organization-slug': 'shop' });
  const cases: [string, string, string, RequestInit?][] = [
    ['GET /public/items/%00', '/api/v1/public/items/%00', 'slug'],
    ['GET /public/items/x%00y/reviews', '/api/v1/public/items/x%00y/reviews', 'itemId'],
    [
      'DELETE /merchant/auth/memberships/%00',
      '/api/v1/merchant/auth/memberships/%00',
      'id',
      { method: 'DELETE' },
    ],
    ['GET /public/items?cursor=%00', '/api/v1/public/items?cursor=%00', 'cursor'],
    ['GET /merchant/items?search=a%00b', '/api/v1/merchant/items?search=a%00b', 'search'],
    ['GET /merchant/audit-logs?targetId=%00', '/api/v1/merchant/audit-logs?targetId=%00', 'targetId'],
    ['GET /merchant/audit-logs/export?action=%00', '/api/v1/merchant/audit-logs/export?action=%00', 'action'],
    [
      'PATCH /merchant/auth/profile',
      '/api/v1/merchant/auth/profile',
      'name',
      { method: 'PATCH', body: JSON.stringify({ name: 'a\u0000b' }) },
    ],
    [
      'POST /public/items/resolve',
      '/api/v1/public/items/resolve',
      'slugs.0',
      { method: 'POST', body: JSON.stringify({ slugs: ['\u0000'] }) },
    ],
  ];
  for (const [name, url, issuePath, init] of cases) {
    it(`refuses ${name} with 400 at ${issuePath}`, async () => {
      const response = await h.app.request(url, {
        ...init,
        headers: { ...owner(), ...(init?.body ? { 'content-type': 'application/json' } : {}) },
      });
      await expectRefusedAt(response, issuePath, name);
    });
  }
});

describe('REST body and header limits', () => {
  const profile = (body: string | Uint8Array, headers: Record<string, string> = {}) =>
    h.app.request('/api/v1/merchant/auth/profile', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json', ...headers },
      body,
    });

  it('refuses JSON nested deeper than 64 levels with 400 at body, however deep', async () => {
    for (const depth of [65, 8000, 200_000]) {
      const response = await profile(`{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      const error = await expectError(response, 400, 'VALIDATION_FAILED');
      expect(error.details?.issues).toEqual([{ path: 'body', message: 'must not nest more than 64 levels' }]);
    }
  });

  it('accepts 64 levels, leaving the schema to judge them', async () => {
    const response = await profile(`{"name":${'['.repeat(63)}${']'.repeat(63)}}`);
    const error = await expectError(response, 400, 'VALIDATION_FAILED');
    expect(error.details?.issues?.[0]?.path).toBe('name');
  });

  it('refuses lone surrogates, other control characters and bytes that are not UTF-8', async () => {
    await expectRefusedAt(await profile('{"name":"a\\ud800b"}'), 'name', 'lone surrogate');
    await expectRefusedAt(await profile(JSON.stringify({ name: 'a\u001bb' })), 'name', 'escape');
    await expectRefusedAt(
      await profile(new Uint8Array([...new TextEncoder().encode('{"name":"'), 0xff, 0x22, 0x7d])),
      'body',
      'not UTF-8',
    );
  });

  it('keeps tab, line feed and carriage return in free text', async () => {
    const response = await profile(JSON.stringify({ name: 'Ann\tLee' }));
    expect(response.status).toBe(200);
  });

  it('refuses over-long header values before using them', async () => {
    const base = { authorization: `Bearer ${ownerToken}` };
    const slug = await h.app.request('/api/v1/public/organization', {
      headers: { 'x-organization-slug': 's'.repeat(256) },
    });
    await expectRefusedAt(slug, 'headers.x-organization-slug', 'slug');
    const authorization = await h.app.request('/api/v1/merchant/auth/session', {
      headers: { authorization: `Bearer ${'a'.repeat(9000)}` },
    });
    await expectRefusedAt(authorization, 'headers.authorization', 'authorization');
    const key = await profile(JSON.stringify({ name: 'Ann' }), {
      ...base,
      'x-idempotency-key': 'k'.repeat(256),
    });
    await expectRefusedAt(key, 'headers.x-idempotency-key', 'idempotency key');
  });

  it('refuses a query escape that is not UTF-8 rather than passing it on undecoded', async () => {
    // A lenient decoder searched for the three characters `%FF` and answered 200.
    const response = await h.app.request('/api/v1/merchant/items?search=%FF', {
      headers: { authorization: `Bearer ${ownerToken}`, 'x-organization-slug': 'shop' },
    });
    await expectRefusedAt(response, 'search', 'query escape');
  });
});
