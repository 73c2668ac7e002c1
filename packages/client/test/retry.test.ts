import { describe, expect, it } from 'vitest';
import { createCommerceClient, retryAfterMs } from '../dist/index.js';

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
  it('retries a 503 after its Retry-After with the same key, tenant and body', async () => {
    const { client, requests, waits } = scripted([
      () => envelope('SERVICE_UNAVAILABLE', 503, { 'retry-after': '2' }),
      () => new Response(JSON.stringify({ id: 'x' }), { status: 201 }),
    ]);
    const { data } = await client.POST('/merchant/items', {
      body: { slug: 's', name: 'n', type: 'SALE', priceInCents: 1 },
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

  it('retries a network failure of a GET and of a keyed write, never of a write without a key', async () => {
    const fail = () => {
      throw new TypeError('fetch failed');
    };
    const ok = () => new Response('{}', { status: 200 });
    const read = scripted([fail, ok]);
    expect((await read.client.GET('/public/organization')).response.status).toBe(200);
    const write = scripted([fail, ok]);
    await write.client.POST('/public/customer/auth/request-link', { body: { email: 'a@example.test' } });
    expect(write.requests).toHaveLength(2);

    // A caller that removes the key (an empty header is no key) takes the failure itself.
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
      unkeyed.POST('/public/customer/auth/request-link', { body: { email: 'a@example.test' } }),
    ).rejects.toThrow('fetch failed');
    expect(requests).toEqual(['POST']);
  });
});
