import { appRouter, publicProcedure, router } from '@commerce/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, errorOf, type Harness, json } from '../support/harness.ts';

const testRouter = router({
  ...appRouter._def.record,
  test: router({
    boom: publicProcedure
      .meta({ openapi: { method: 'GET', path: '/test/boom' } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => {
        throw new Error('relation "secret_table" does not exist at /srv/app/internal.ts:42');
      }),
    lost: publicProcedure
      .meta({ openapi: { method: 'GET', path: '/test/lost' } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => {
        // As node-postgres reports a connection ended by a server restart or a failover.
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
          severity: 'FATAL',
        });
      }),
    echo: publicProcedure
      .meta({ openapi: { method: 'POST', path: '/test/echo' }, successStatus: 201 })
      .input(
        z.strictObject({
          quantity: z.number().int().min(1),
          items: z.array(z.object({ sku: z.string() })).optional(),
        }),
      )
      .output(z.object({ quantity: z.number() }))
      .mutation(({ input }) => ({ quantity: input.quantity })),
  }),
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ router: testRouter, env: { MAX_BODY_BYTES: '2048' } });
});
afterAll(async () => {
  await h.close();
});

describe('gateway error paths', () => {
  it('answers an unknown route with the 404 envelope and a request id', async () => {
    const response = await h.app.request('/api/v1/nowhere');
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9A-Z]{26}$/);
    const error = await errorOf(response);
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('answers a wrong method on a known path with the 404 envelope', async () => {
    const response = await h.app.request('/api/v1/merchant/auth/session', { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('RESOURCE_NOT_FOUND');
  });

  it('rejects malformed JSON with 400 VALIDATION_FAILED', async () => {
    const response = await h.app.request('/api/v1/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"quantity": 1,',
    });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.issues?.[0]?.path).toBe('body');
  });

  it('rejects a JSON body that is not an object', async () => {
    const response = await h.app.request('/api/v1/test/echo', json([1, 2]));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('VALIDATION_FAILED');
  });

  it('rejects a body that is not JSON', async () => {
    const response = await h.app.request('/api/v1/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'quantity=1',
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.issues?.[0]?.path).toBe('headers.content-type');
  });

  it('names each failing field with its path', async () => {
    const response = await h.app.request(
      '/api/v1/test/echo',
      json({ quantity: 0, items: [{ sku: 7 }], extra: true }),
    );
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('VALIDATION_FAILED');
    const paths = error.details?.issues?.map((issue) => issue.path) ?? [];
    expect(paths).toEqual(expect.arrayContaining(['quantity', 'items.0.sku', '']));
  });

  it('answers a declared success status', async () => {
    const response = await h.app.request('/api/v1/test/echo', json({ quantity: 3 }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ quantity: 3 });
  });

  it('refuses an oversized body with 413 from its declared length', async () => {
    const body = JSON.stringify({ quantity: 1, pad: 'x'.repeat(4096) });
    const response = await h.app.request('/api/v1/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses an oversized streamed body without a length with 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await h.app.request('/api/v1/test/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it("refuses an oversized /trpc body with 413 in tRPC's error shape, one error per batched call", async () => {
    const body = JSON.stringify({ quantity: 1, pad: 'x'.repeat(4096) });
    const single = await h.app.request('/trpc/test.echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    expect(single.status).toBe(413);
    expect(await single.json()).toEqual({
      error: {
        message: 'The request body is larger than 2048 bytes',
        code: -32013,
        data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413, path: 'test.echo', appCode: 'PAYLOAD_TOO_LARGE' },
      },
    });

    const chunk = new TextEncoder().encode('x'.repeat(1024));
    let sent = 0;
    const streamed = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const batch = await h.app.request('/trpc/test.echo,test.echo?batch=1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamed,
      duplex: 'half',
    } as RequestInit);
    expect(batch.status).toBe(413);
    const errors = (await batch.json()) as { error: { data: { appCode: string; httpStatus: number } } }[];
    expect(errors.map((entry) => [entry.error.data.appCode, entry.error.data.httpStatus])).toEqual([
      ['PAYLOAD_TOO_LARGE', 413],
      ['PAYLOAD_TOO_LARGE', 413],
    ]);
  });

  it('turns a thrown exception into 500 INTERNAL_ERROR without leaking it', async () => {
    const response = await h.app.request('/api/v1/test/boom');
    expect(response.status).toBe(500);
    const text = await response.clone().text();
    expect(text).not.toMatch(/secret_table|internal\.ts|stack/i);
    const error = await errorOf(response);
    expect(error.code).toBe('INTERNAL_ERROR');
    // The detail goes to the log, with the request id that the client was given.
    const logged = h.logs.find(
      (line) => line.msg === 'unexpected error' && line.requestId === error.requestId,
    );
    expect(JSON.stringify(logged)).toContain('secret_table');
  });

  it('requires the tenant header on tenant routes', async () => {
    const response = await h.app.request('/api/v1/public/organization');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('TENANT_REQUIRED');
  });

  it('answers an unknown organization slug with 404', async () => {
    for (const slug of ['no-such-org', 'Not A Slug!']) {
      const response = await h.app.request('/api/v1/public/organization', {
        headers: { 'x-organization-slug': slug },
      });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('RESOURCE_NOT_FOUND');
    }
  });

  it('logs each request as JSON with request id, tenant, route template, status and duration', async () => {
    await h.provision('logged', 'owner@logged.test');
    const response = await h.app.request('/api/v1/public/organization', {
      headers: { 'x-organization-slug': 'logged' },
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    const line = h.logs.find((entry) => entry.msg === 'request' && entry.requestId === requestId);
    expect(line).toMatchObject({
      method: 'GET',
      route: 'GET /api/v1/public/organization',
      status: 200,
      tenant: 'logged',
    });
    expect(typeof line?.durationMs).toBe('number');
  });

  it('never logs a bearer credential', async () => {
    const token = await h.token({ email: 'someone@example.com' });
    await h.app.request('/api/v1/merchant/auth/session', { headers: { authorization: `Bearer ${token}` } });
    expect(JSON.stringify(h.logs)).not.toContain(token);
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await h.app.request('/healthz')).status).toBe(200);
    const ready = await h.app.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('answers a request that met a lost database connection with 503 SERVICE_UNAVAILABLE and Retry-After on REST and /trpc, logged as a warning', async () => {
    const rest = await h.app.request('/api/v1/test/lost');
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const error = await errorOf(rest);
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.message).not.toContain('administrator');
    expect(error.details).toEqual({ retryAfterSeconds: Number(rest.headers.get('retry-after')) });

    const trpc = await h.app.request('/trpc/test.lost?input=%7B%7D');
    expect(trpc.status).toBe(503);
    expect(trpc.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    const body = (await trpc.json()) as { error: { data: { appCode: string } } };
    expect(body.error.data.appCode).toBe('SERVICE_UNAVAILABLE');

    const logged = h.logs.filter((line) => line.msg === 'database unavailable');
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(
      h.logs.filter(
        (line) => line.msg === 'unexpected error' && JSON.stringify(line).includes('administrator'),
      ),
    ).toEqual([]);
  });

  it('lists 503 SERVICE_UNAVAILABLE with Retry-After on every route of the OpenAPI document', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { description: string; headers?: object }> }>
      >;
    };
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThan(50);
    for (const operation of operations) {
      expect(operation.responses['503']?.description).toContain('SERVICE_UNAVAILABLE');
    }
    expect(document.paths['/test/lost']?.get?.responses['503']?.headers).toHaveProperty('Retry-After');
  });
});

describe('a gateway that is shutting down', () => {
  let draining = false;
  let d: Harness;
  beforeAll(async () => {
    d = await createHarness({ router: testRouter, isDraining: () => draining });
  });
  afterAll(async () => {
    await d.close();
  });

  it('refuses new requests with 503 SERVICE_UNAVAILABLE, Retry-After and Connection: close', async () => {
    expect((await d.app.request('/api/v1/test/echo', json({ quantity: 1 }))).status).toBe(201);
    draining = true;
    const refused = await d.app.request('/api/v1/test/echo', json({ quantity: 1 }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await errorOf(refused)).code).toBe('SERVICE_UNAVAILABLE');
    expect((await d.app.request('/readyz')).status).toBe(503);
  });
});
