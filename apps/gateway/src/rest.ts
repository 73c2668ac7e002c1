import { type ApiContext, type ApiDeps, createApiContext, isDownload, type RestRoute } from '@commerce/api';
import { AppError } from '@commerce/core';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { Context, Hono } from 'hono';
import type { GatewayEnv } from './env.ts';

/**
 * A procedure called the way tRPC's own server-side caller calls it, without
 * building the caller's proxy on every request.
 */
type ProcedureCall = (options: {
  path: string;
  type: 'query' | 'mutation';
  ctx: ApiContext;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>;

/**
 * Serves the versioned REST contract from the tRPC router: each procedure with
 * OpenAPI meta becomes a route of Hono's router, its input assembled from the
 * path, the query string or the JSON body, and its output sent with the
 * success status its meta declares. Errors propagate to the gateway's one
 * error renderer.
 */
export function mountRestRoutes(
  app: Hono<GatewayEnv>,
  router: AnyRouter,
  routes: RestRoute[],
  deps: ApiDeps,
  options: { trustProxyIp: (c: Context<GatewayEnv>) => string },
): void {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  for (const route of routes) {
    const procedure = procedures[route.procedurePath] as unknown as ProcedureCall;
    const template = `${route.method} /api/v1${route.path}`;
    const readsBody = route.method !== 'GET' && route.method !== 'DELETE';
    const status = route.meta.successStatus ?? 200;

    app.on(route.method, `/api/v1${route.routerPath}`, async (c) => {
      c.set('route', template);
      const params = c.req.param() as Record<string, string>;
      const input = readsBody ? { ...(await readJsonObject(c)), ...params } : { ...readQuery(c), ...params };
      const ctx = createApiContext(
        deps,
        {
          requestId: c.get('requestId'),
          headers: c.req.raw.headers,
          clientIp: options.trustProxyIp(c),
          surface: 'rest',
          tenant: c.get('tenant'),
        },
        c.get('observed'),
      );
      const data = await procedure({
        path: route.procedurePath,
        type: route.type,
        ctx,
        getRawInput: async () => input,
        signal: undefined,
        batchIndex: 0,
      });
      for (const [name, value] of ctx.resHeaders.entries) c.header(name, value, { append: true });
      if (status === 204) return c.body(null, 204);
      if (isDownload(data)) {
        c.header('content-type', data.contentType);
        c.header('content-disposition', `attachment; filename="${data.filename}"`);
        c.header('cache-control', 'no-store');
        return c.body(toByteStream(data.chunks), status);
      }
      return c.json(data as object, status);
    });
  }
}

/**
 * Pulls the next chunk only when the socket has taken the previous one, so a
 * slow client holds the producer (and its database cursor) instead of memory;
 * a client that goes away closes the producer.
 */
function toByteStream(chunks: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          // Headers are gone: the only signal left is an aborted body.
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

function readQuery(c: Context): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(c.req.queries())) {
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** A missing or empty body reads as `{}`, so that body-less actions (archive, restore …) need no `{}`. */
async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw AppError.validation(
      [{ path: 'headers.content-type', message: 'must be application/json' }],
      'The body must be JSON',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw AppError.validation([{ path: 'body', message: 'is not valid JSON' }], 'The body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.validation(
      [{ path: 'body', message: 'must be a JSON object' }],
      'The body must be a JSON object',
    );
  }
  return body as Record<string, unknown>;
}
