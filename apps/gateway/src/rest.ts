import { type ApiDeps, createApiContext, isDownload, type RestRoute } from '@commerce/api';
import { AppError } from '@commerce/core';
import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { Context, Hono } from 'hono';
import type { GatewayEnv } from './env.ts';
import {
  checkHeaders,
  checkPathParams,
  checkQuery,
  decodeUtf8,
  IssueList,
  parseJson,
} from './input-guard.ts';
import { runProcedure } from './procedure-runner.ts';
import type { PublicCachePolicy } from './public-cache.ts';
import { jsonWithHeaders } from './response-headers.ts';

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
  options: {
    trustProxyIp: (c: Context<GatewayEnv>) => string;
    /** A download failed after its status went out: the client only sees the connection end. */
    onDownloadError: (c: Context<GatewayEnv>, error: unknown) => void;
    /** How the public reads that may be cached are answered (public-cache.ts). */
    publicCache: PublicCachePolicy;
  },
): void {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  for (const route of routes) {
    const procedure = procedures[route.procedurePath]!;
    const template = `${route.method} /api/v1${route.path}`;
    const routerTemplate = `/api/v1${route.routerPath}`;
    const readsBody = route.method !== 'GET' && route.method !== 'DELETE';
    const status = route.meta.successStatus ?? 200;
    const cacheRule = route.method === 'GET' ? route.meta.publicCache : undefined;

    app.on(route.method, routerTemplate, async (c) => {
      c.set('route', template);
      // Hostile text is refused here, once, whatever the route (see input-guard.ts).
      const issues = new IssueList();
      checkHeaders(c.req.raw.headers, issues);
      const { rawPath, rawQuery } = splitRawUrl(c.req.url);
      checkPathParams(rawPath, routerTemplate, issues);
      checkQuery(rawQuery, issues);
      const body = readsBody ? await readJsonObject(c, issues) : undefined;
      if (issues.issues.length > 0) throw AppError.validation(issues.issues);
      const params = c.req.param() as Record<string, string>;
      // Object.assign rather than a spread of two objects, which V8 gives a new map every time.
      const input = Object.assign(body ?? readQuery(c), params);
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
      const data = await runProcedure(procedure, {
        path: route.procedurePath,
        type: route.type,
        ctx,
        getRawInput: async () => input,
        signal: undefined,
        batchIndex: 0,
      });
      // The common answer, JSON and no header of the procedure's own, goes out with the request's
      // header record (response-headers.ts); the others get it afterwards.
      if (ctx.resHeaders.entries.length === 0 && status !== 204 && !isDownload(data)) {
        // A public read a shared cache may keep: its ETag, `Cache-Control` and keys, or 304.
        const tenant = ctx.observed.tenant;
        if (cacheRule !== undefined && tenant !== undefined && options.publicCache.cacheable(tenant.slug)) {
          const subjectId = ctx.observed.cacheSubjectId ?? (data as { id?: string }).id;
          return options.publicCache.answer(c, cacheRule, tenant, JSON.stringify(data), subjectId);
        }
        return jsonWithHeaders(c, JSON.stringify(data), status);
      }
      for (const [name, value] of ctx.resHeaders.entries) c.header(name, value, { append: true });
      if (status === 204) return c.body(null, 204);
      if (isDownload(data)) {
        // The first chunk is produced before the status goes out: a failure up to there is still an error response.
        const chunks = data.chunks[Symbol.asyncIterator]();
        const first = await chunks.next();
        c.header('content-type', data.contentType);
        c.header('content-disposition', `attachment; filename="${data.filename}"`);
        c.header('cache-control', 'no-store');
        return c.body(
          toByteStream(chunks, first, (error) => options.onDownloadError(c, error)),
          status,
        );
      }
      return c.json(data as object, status);
    });
  }
}

/**
 * Pulls the next chunk only when the socket has taken the previous one, so a
 * slow client holds the producer (and its database cursor) instead of memory;
 * a client that goes away closes the producer. A producer that fails after the
 * status went out errors the body: the server closes the connection before
 * the last chunk, so the client sees an incomplete download, never a hang.
 */
function toByteStream(
  iterator: AsyncIterator<string | Uint8Array>,
  first: IteratorResult<string | Uint8Array>,
  onError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<string | Uint8Array> | undefined = first;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = pending ?? (await iterator.next());
          pending = undefined;
          if (next.done) controller.close();
          else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
        } catch (error) {
          // Headers are gone: the only signal left is an aborted body.
          onError(error);
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

/** The path and the query of a request URL as they were sent, still percent-encoded. */
export function splitRawUrl(url: string): { rawPath: string; rawQuery: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const query = url.indexOf('?', start);
  return query === -1
    ? { rawPath: url.slice(start), rawQuery: '' }
    : { rawPath: url.slice(start, query), rawQuery: url.slice(query + 1) };
}

/**
 * A missing or empty body reads as `{}`, so that body-less actions (archive,
 * restore …) need no `{}`. Text the edge refuses (bytes that are not UTF-8,
 * JSON nested too deep, strings it cannot carry) adds to `issues`.
 */
async function readJsonObject(c: Context, issues: IssueList): Promise<Record<string, unknown>> {
  const text = decodeUtf8(await c.req.arrayBuffer());
  if (text === undefined) {
    throw AppError.validation([{ path: 'body', message: 'is not UTF-8 text' }], 'The body is not UTF-8 text');
  }
  if (text.trim() === '') return {};
  const contentType = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw AppError.validation(
      [{ path: 'headers.content-type', message: 'must be application/json' }],
      'The body must be JSON',
    );
  }
  const parsed = parseJson(text, 'body', '', issues);
  if (!parsed.ok) return {};
  const body = parsed.value;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw AppError.validation(
      [{ path: 'body', message: 'must be a JSON object' }],
      'The body must be a JSON object',
    );
  }
  return body as Record<string, unknown>;
}
