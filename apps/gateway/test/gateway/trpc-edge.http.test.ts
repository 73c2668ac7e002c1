import type { AddressInfo } from 'node:net';
import { appRouter, type Download, downloadSchema, publicProcedure, router } from '@commerce/api';
import { AppError } from '@commerce/core';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, errorOf, type Harness } from '../support/harness.ts';

const download = (chunks: () => AsyncGenerator<string>): Download => ({
  kind: 'download',
  contentType: 'text/csv',
  filename: 'probe.csv',
  chunks: chunks(),
});

const testRouter = router({
  ...appRouter._def.record,
  probe: router({
    boom: publicProcedure
      .meta({ openapi: { method: 'GET', path: '/test/boom' } })
      .input(z.object({}))
      .output(z.object({}))
      .query(() => {
        throw new Error('invalid byte sequence for encoding "UTF8": 0x00 in relation secret_table');
      }),
    refusedExport: publicProcedure
      .meta({
        openapi: { method: 'GET', path: '/test/refused-export' },
        download: { contentType: 'text/csv' },
      })
      .input(z.object({}))
      .output(downloadSchema)
      .query(() =>
        download(async function* () {
          // The query a real export runs before its first row, failing.
          const rows: string[] = await Promise.reject(AppError.notFound('Nothing to export'));
          yield* rows;
        }),
      ),
    brokenExport: publicProcedure
      .meta({
        openapi: { method: 'GET', path: '/test/broken-export' },
        download: { contentType: 'text/csv' },
      })
      .input(z.object({}))
      .output(downloadSchema)
      .query(() =>
        download(async function* () {
          yield 'a,b\r\n';
          yield '1,2\r\n';
          throw new Error('the cursor broke');
        }),
      ),
  }),
});

let h: Harness;
let memberToken: string;
let strangerToken: string;

beforeAll(async () => {
  h = await createHarness({ router: testRouter });
  await h.provision('shop', 'owner@shop.test');
  memberToken = await h.token({ email: 'owner@shop.test' });
  strangerToken = await h.token({ email: 'stranger@elsewhere.test' });
});
afterAll(async () => {
  await h.close();
});

interface TrpcError {
  message: string;
  code: number;
  data: {
    code: string;
    httpStatus: number;
    appCode: string;
    path?: string;
    details?: { issues?: { path: string; message: string }[] };
    stack?: string;
  };
}

const input = (value: unknown) => `input=${encodeURIComponent(JSON.stringify(value))}`;
const tenant = { 'x-organization-slug': 'shop' };

async function trpcError(response: Response): Promise<TrpcError> {
  const body = (await response.json()) as { error: TrpcError };
  expect(body.error.data.httpStatus).toBe(response.status);
  return body.error;
}

describe('/trpc at the edge', () => {
  it('refuses NUL in a query input with 400 VALIDATION_FAILED at the field', async () => {
    const response = await h.app.request(`/trpc/public.organization.get?${input({ note: 'a\u0000b' })}`, {
      headers: tenant,
    });
    expect(response.status).toBe(400);
    const error = await trpcError(response);
    expect(error).toMatchObject({
      code: -32600,
      message: 'The request is invalid',
      data: { code: 'BAD_REQUEST', appCode: 'VALIDATION_FAILED', path: 'public.organization.get' },
    });
    expect(error.data.details?.issues).toEqual([{ path: 'note', message: expect.stringMatching(/U\+0000/) }]);
  });

  it('refuses NUL in a mutation body, as PostgreSQL once did with its own words', async () => {
    const response = await h.app.request('/trpc/merchant.auth.updateProfile', {
      method: 'POST',
      headers: { authorization: `Bearer ${memberToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a\u0000b' }),
    });
    expect(response.status).toBe(400);
    const text = await response.clone().text();
    expect(text).not.toMatch(/UTF8|byte sequence/);
    expect((await trpcError(response)).data.details?.issues?.[0]?.path).toBe('name');
  });

  it("refuses a body or a procedure path that is not UTF-8 in tRPC's shape, not the REST envelope", async () => {
    const body = await h.app.request('/trpc/merchant.auth.updateProfile', {
      method: 'POST',
      headers: { authorization: `Bearer ${memberToken}`, 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(body.status).toBe(400);
    expect(await trpcError(body)).toMatchObject({
      code: -32600,
      data: {
        code: 'BAD_REQUEST',
        appCode: 'VALIDATION_FAILED',
        details: { issues: [{ path: 'body', message: 'is not UTF-8 text' }] },
      },
    });
    const path = await h.app.request('/trpc/public.organization.get%FF', { headers: tenant });
    expect(path.status).toBe(400);
    expect(await trpcError(path)).toMatchObject({ code: -32600, data: { appCode: 'VALIDATION_FAILED' } });
  });

  it('refuses an 8,000-deep body with 400 before anything recurses', async () => {
    const response = await h.app.request('/trpc/merchant.auth.updateProfile', {
      method: 'POST',
      headers: { authorization: `Bearer ${memberToken}`, 'content-type': 'application/json' },
      body: `{"name":${'['.repeat(8000)}${']'.repeat(8000)}}`,
    });
    expect(response.status).toBe(400);
    const error = await trpcError(response);
    expect(error.message).not.toMatch(/call stack/);
    expect(error.data.details?.issues).toEqual([
      { path: 'body', message: 'must not nest more than 64 levels' },
    ]);
  });

  it('gives each call of a refused batch the same answer', async () => {
    const response = await h.app.request(
      `/trpc/public.organization.get,public.organization.get?batch=1&${input({ 0: {}, 1: { x: '\ud800' } })}`,
      { headers: tenant },
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: TrpcError }[];
    expect(body).toHaveLength(2);
    for (const { error } of body) expect(error.data.details?.issues?.[0]?.path).toBe('1.x');
  });

  it('answers a schema failure with the contract code and the issues', async () => {
    const response = await h.app.request('/trpc/merchant.auth.updateProfile', {
      method: 'POST',
      headers: { authorization: `Bearer ${memberToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 7 }),
    });
    expect(response.status).toBe(400);
    const error = await trpcError(response);
    expect(error.data.appCode).toBe('VALIDATION_FAILED');
    expect(error.data.details?.issues?.[0]?.path).toBe('name');
  });
});

describe('/trpc batches', () => {
  const batchUrl = (size: number) =>
    `/trpc/${Array(size).fill('public.organization.get').join(',')}?batch=1&${input(Object.fromEntries(Array.from({ length: size }, (_, index) => [index, {}])))}`;
  const batch = (size: number) => h.app.request(batchUrl(size), { headers: tenant });

  it('runs a batch of ten calls', async () => {
    const response = await batch(10);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(10);
  });

  it('refuses a batch of eleven before any call runs', async () => {
    const before = h.logs.length;
    const response = await batch(840);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain('Batch call exceeds maximum size');
    expect(text).toContain('VALIDATION_FAILED');
    expect((await batch(11)).status).toBe(400);
    // Nothing but the request lines was logged: no call reached a procedure.
    expect(h.logs.slice(before).every((line) => line.msg === 'request')).toBe(true);
  });

  it('counts every call of a batch against the per-client limit', async () => {
    const limited = await createHarness({ env: { RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '3' } });
    try {
      await limited.provision('tight', 'owner@tight.test');
      const response = await limited.app.request(batchUrl(5), {
        headers: { 'x-organization-slug': 'tight' },
      });
      // Calls that answered differently: tRPC's multi-status, each call with its own status.
      expect(response.status).toBe(207);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      const results = (await response.json()) as ({ result: unknown } | { error: TrpcError })[];
      expect(results.filter((item) => 'result' in item)).toHaveLength(3);
      const refused = results.flatMap((item) => ('error' in item ? [item.error] : []));
      expect(refused).toHaveLength(2);
      for (const error of refused)
        expect(error.data).toMatchObject({
          httpStatus: 429,
          appCode: 'RATE_LIMIT_EXCEEDED',
          code: 'TOO_MANY_REQUESTS',
        });
      // The budget is spent for REST as well: one budget per tenant and client, whichever door.
      expect(
        (
          await limited.app.request('/api/v1/public/organization', {
            headers: { 'x-organization-slug': 'tight' },
          })
        ).status,
      ).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('/trpc errors say what REST says', () => {
  it('answers 403 with a JSON-RPC code and httpStatus of 403', async () => {
    const response = await h.app.request(`/trpc/merchant.auth.listMemberships?${input({})}`, {
      headers: { ...tenant, authorization: `Bearer ${strangerToken}` },
    });
    expect(response.status).toBe(403);
    expect(await trpcError(response)).toMatchObject({
      code: -32003,
      message: 'You are not a member of this organization',
      data: { code: 'FORBIDDEN', appCode: 'FORBIDDEN' },
    });
  });

  it('answers an unknown procedure with 404 RESOURCE_NOT_FOUND', async () => {
    const response = await h.app.request('/trpc/public.nothing%00here?input=%7B%7D');
    expect(response.status).toBe(404);
    expect((await trpcError(response)).data).toMatchObject({
      code: 'NOT_FOUND',
      appCode: 'RESOURCE_NOT_FOUND',
    });
  });

  it('answers an unexpected fault with the generic message and logs its detail', async () => {
    const response = await h.app.request(`/trpc/probe.boom?${input({})}`);
    expect(response.status).toBe(500);
    const text = await response.clone().text();
    expect(text).not.toMatch(/secret_table|UTF8|stack/);
    const error = await trpcError(response);
    expect(error).toMatchObject({
      code: -32603,
      message: 'An unexpected error occurred',
      data: { code: 'INTERNAL_SERVER_ERROR', appCode: 'INTERNAL_ERROR' },
    });
    const requestId = response.headers.get('x-request-id');
    const logged = h.logs.find((line) => line.msg === 'unexpected error' && line.requestId === requestId);
    expect(JSON.stringify(logged)).toContain('secret_table');
  });
});

describe('streamed downloads', () => {
  it('answers a failure before the first byte with the error envelope', async () => {
    const response = await h.app.request('/api/v1/test/refused-export');
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toBe('Nothing to export');
  });

  it('ends the connection of a download that fails after its first byte, so the client sees it incomplete', async () => {
    const server = serve({ fetch: h.app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/test/broken-export`);
      expect(response.status).toBe(200);
      const outcome = await Promise.race([
        response.text().then(
          () => 'complete',
          () => 'aborted',
        ),
        new Promise((resolve) => setTimeout(() => resolve('hung'), 5_000)),
      ]);
      expect(outcome).toBe('aborted');
      const logged = h.logs.find(
        (line) =>
          line.msg === 'download failed mid-stream' &&
          line.requestId === response.headers.get('x-request-id'),
      );
      expect(JSON.stringify(logged)).toContain('the cursor broke');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
