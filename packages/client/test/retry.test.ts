import { describe, expect, it } from 'vitest';
import {
  CommerceApiError,
  createCommerceClient,
  IDEMPOTENT_OPERATIONS,
  retryAfterMs,
  unwrap,
  unwrapConditional,
} from '../dist/index.js';

const envelope = (code: string, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: { code, message: code, requestId: 'req_1' } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A client whose fetch answers from `answers` in turn, recording each request and each wait. */
function scripted(answers: (() => Response)[], retry?: { retries?: number; maxDelayMs?: number }) {
  const requests: { method: string; key: string | null; tenant: string | null; body: string }[] = [];
  const waits: number[] = [];
  const client = createCommerceClient({
    baseUrl: 'http://api.test/api/v1/',
    organization: 'shop',
    ...(retry ? { retry } : {}),
    fetch: async (request) => {
      requests.push({
        method: request.method,
        key: request.headers.get('x-idempotency-key'),
        tenant: request.headers.get('x-organization-slug'),
        body: await request.text(),
      });
      const answer = answers[requests.length - 1];
      if (!answer) throw new Error('no more answers');
      return answer();
    },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { client, requests, waits };
}

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const now = Date.parse('2026-07-01T08:00:00Z');
    expect(retryAfterMs('Wed, 01 Jul 2026 08:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Wed, 01 Jul 2026 07:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('retries', () => {
  it('retries a 503 of a write that reads the key after its Retry-After with the same key, tenant and body', async () => {
    const { client, requests, waits } = scripted([
      () => envelope('SERVICE_UNAVAILABLE', 503, { 'retry-after': '2' }),
      () => new Response(JSON.stringify({ id: 'x' }), { status: 200 }),
    ]);
    const { data } = await client.POST('/merchant/bookings/{id}/cancel', {
      params: { path: { id: 'bkg_1' } },
      body: { slug: 's' } as never,
    });
    expect(data).toEqual({ id: 'x' });
    expect(waits).toEqual([2000]);
    expect(requests).toHaveLength(2);
    expect(requests[1]).toEqual(requests[0]);
    expect(requests[0]).toMatchObject({ method: 'POST', tenant: 'shop' });
    expect(requests[0]!.key).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(requests[1]!.body)).toMatchObject({ slug: 's' });
  });

  it('keeps the caller’s own idempotency key', async () => {
    const { client, requests } = scripted([
      () => envelope('RATE_LIMIT_EXCEEDED', 429),
      () => new Response('{}', { status: 200 }),
    ]);
    await client.POST('/public/customer/auth/request-link', {
      body: { email: 'a@example.test' },
      headers: { 'x-idempotency-key': 'my-own-key-0123456789' },
    });
    expect(requests.map((request) => request.key)).toEqual([
      'my-own-key-0123456789',
      'my-own-key-0123456789',
    ]);
  });

  it('backs off exponentially without Retry-After, and gives the last answer after the retries', async () => {
    const { client, requests, waits } = scripted(
      [1, 2, 3, 4].map(() => () => envelope('SERVICE_UNAVAILABLE', 503)),
      { retries: 3 },
    );
    const { error, response } = await client.GET('/public/organization');
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(requests).toHaveLength(4);
    expect(waits).toHaveLength(3);
    waits.forEach((wait, attempt) => {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(250 * 2 ** attempt);
    });
  });

  it('does not wait longer than maxDelayMs: the 429 goes back to the caller', async () => {
    const { client, requests, waits } = scripted(
      [() => envelope('RATE_LIMIT_EXCEEDED', 429, { 'retry-after': '60' })],
      {
        maxDelayMs: 5_000,
      },
    );
    const { response } = await client.GET('/public/organization');
    expect(response.status).toBe(429);
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('does not retry other errors', async () => {
    const { client, requests } = scripted([() => envelope('CONFLICT', 409)]);
    const { response } = await client.GET('/public/organization');
    expect(response.status).toBe(409);
    expect(requests).toHaveLength(1);
  });

  it('retries a network failure of a GET', async () => {
    const read = scripted([
      () => {
        throw new TypeError('fetch failed');
      },
      () => new Response('{}', { status: 200 }),
    ]);
    expect((await read.client.GET('/public/organization')).response.status).toBe(200);
    expect(read.requests).toHaveLength(2);
  });
});

describe('which writes are keyed and resent', () => {
  const fail = () => {
    throw new TypeError('fetch failed');
  };
  const ok = () => new Response('{}', { status: 200 });
  const booking = { reason: 'double booked' };

  it('lists the operations whose document declares the key, and not the writes that ignore it', () => {
    const listed = IDEMPOTENT_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(listed).toContain('POST /merchant/bookings');
    expect(listed).toContain('POST /merchant/bookings/{id}/cancel');
    // An endpoint created twice would receive every event twice: its create reads the key.
    expect(
      IDEMPOTENT_OPERATIONS.find((operation) => operation.path === '/merchant/webhook-endpoints'),
    ).toMatchObject({
      method: 'POST',
      required: false,
    });
    expect(listed).not.toContain('POST /merchant/webhook-endpoints/{id}/test');
    expect(listed).not.toContain('POST /merchant/items');
    expect(listed).not.toContain('POST /public/orders');
    expect(listed).not.toContain('POST /public/customer/auth/request-link');
    expect(IDEMPOTENT_OPERATIONS.find((operation) => operation.path === '/merchant/bookings')).toMatchObject({
      method: 'POST',
      required: true,
    });
  });

  it('does not send a write that ignores the key again after a 503: it may have been stored', async () => {
    const { client, requests, waits } = scripted([
      () => envelope('SERVICE_UNAVAILABLE', 503, { 'retry-after': '1' }),
      () => new Response(JSON.stringify({ id: 'x' }), { status: 201 }),
    ]);
    const { response } = await client.POST('/merchant/items', {
      body: { slug: 's', name: 'n', type: 'SALE', priceInCents: 1 },
    });
    expect(response.status).toBe(503);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.key).toBeNull();
    expect(waits).toEqual([]);
  });

  it('does not send a write that ignores the key again after a network failure, even with a key of the caller', async () => {
    for (const headers of [{}, { 'x-idempotency-key': 'my-own-key-0123456789' }]) {
      const { client, requests } = scripted([fail, ok]);
      await expect(
        client.POST('/public/customer/auth/request-link', { body: { email: 'a@example.test' }, headers }),
      ).rejects.toThrow('fetch failed');
      expect(requests).toHaveLength(1);
    }
  });

  it('sends a keyed write again after a 503 and after a network failure, with the same key and body', async () => {
    for (const first of [() => envelope('SERVICE_UNAVAILABLE', 503, { 'retry-after': '1' }), fail]) {
      const { client, requests } = scripted([first, () => new Response('{"id":"bkg_1"}', { status: 200 })]);
      const { data, response } = await client.POST('/merchant/bookings/{id}/cancel', {
        params: { path: { id: 'bkg_1' } },
        body: booking as never,
      });
      expect(response.status).toBe(200);
      expect(data).toEqual({ id: 'bkg_1' });
      expect(requests).toHaveLength(2);
      expect(requests[0]!.key).toMatch(/^[0-9a-f]{32}$/);
      expect(requests[1]).toEqual(requests[0]);
    }
  });

  it('matches path templates under the base URL: a booking cancel is keyed, an item archive is not', async () => {
    const { client, requests } = scripted([fail, ok, fail]);
    await client.POST('/merchant/bookings/{id}/cancel', {
      params: { path: { id: 'bkg_1' } },
      body: {} as never,
    });
    expect(requests.map((request) => request.key !== null)).toEqual([true, true]);
    await expect(
      client.POST('/merchant/items/{id}/archive', { params: { path: { id: 'itm_1' } } }),
    ).rejects.toThrow('fetch failed');
    expect(requests).toHaveLength(3);
    expect(requests[2]!.key).toBeNull();
  });

  it('does not resend a listed write whose key a middleware removed', async () => {
    const requests: string[] = [];
    const unkeyed = createCommerceClient({
      baseUrl: 'http://api.test/api/v1',
      fetch: async (request) => {
        requests.push(request.method);
        throw new TypeError('fetch failed');
      },
      sleep: async () => {},
    });
    unkeyed.use({
      onRequest: ({ request }) => {
        request.headers.delete('x-idempotency-key');
        return request;
      },
    });
    await expect(
      unkeyed.POST('/merchant/bookings/{id}/cancel', {
        params: { path: { id: 'bkg_1' } },
        body: booking as never,
      }),
    ).rejects.toThrow('fetch failed');
    expect(requests).toEqual(['POST']);
  });

  it('sends any write again after a 429: the API refuses it before carrying out anything', async () => {
    const { client, requests, waits } = scripted([
      () => envelope('RATE_LIMIT_EXCEEDED', 429, { 'retry-after': '2' }),
      ok,
    ]);
    const { response } = await client.POST('/public/customer/auth/request-link', {
      body: { email: 'a@example.test' },
    });
    expect(response.status).toBe(200);
    expect(requests).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('never resends a held-units 429 whose cart alone passes the cap, and resends one that a wait can cure', async () => {
    const held = (requestedUnits: number) => () =>
      new Response(
        JSON.stringify({
          error: {
            code: 'RATE_LIMIT_EXCEEDED',
            message: 'held',
            requestId: 'req_1',
            details: { reason: 'HELD_UNITS_CAP', maxUnits: 20, requestedUnits },
          },
        }),
        { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' } },
      );
    const bind = (client: ReturnType<typeof scripted>['client']) =>
      client.POST('/public/checkout/sessions/{token}/bind', {
        params: { path: { token: 'c1_x' } },
        body: {},
      });

    const hopeless = scripted([held(21), ok]);
    const error = await unwrap(bind(hopeless.client)).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', details: { requestedUnits: 21 } });
    expect(hopeless.requests).toHaveLength(1);
    expect(hopeless.waits).toEqual([]);

    const later = scripted([held(20), ok]);
    expect((await bind(later.client)).response.status).toBe(200);
    expect(later.requests).toHaveLength(2);
  });
});

describe('304 Not Modified', () => {
  const notModified = () =>
    new Response(null, { status: 304, headers: { etag: '"v1"', 'x-request-id': 'req_304' } });

  it('unwrap throws the client’s own NOT_MODIFIED, not UNEXPECTED_RESPONSE', async () => {
    const { client } = scripted([notModified]);
    const error = await unwrap(
      client.GET('/public/items/{slug}', {
        params: { path: { slug: 'lamp' }, header: { 'If-None-Match': '"v1"' } },
      } as never),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommerceApiError);
    expect(error).toMatchObject({ code: 'NOT_MODIFIED', status: 304, requestId: 'req_304' });
  });

  it('unwrapConditional says notModified, or gives the data and its ETag', async () => {
    const { client } = scripted([
      notModified,
      () => new Response('{"slug":"lamp"}', { status: 200, headers: { etag: '"v2"' } }),
    ]);
    const read = () => client.GET('/public/items/{slug}', { params: { path: { slug: 'lamp' } } });
    expect(await unwrapConditional(read())).toEqual({ notModified: true, etag: '"v1"' });
    expect(await unwrapConditional(read())).toEqual({
      notModified: false,
      data: { slug: 'lamp' },
      etag: '"v2"',
    });
  });
});
