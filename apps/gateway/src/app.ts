import { type ApiContext, type ApiDeps, appRouter, createApiContext, listRestRoutes } from '@commerce/api';
import { settleBookingPayment } from '@commerce/bookings';
import { AppError, newId } from '@commerce/core';
import { customerEmailConfigOf } from '@commerce/notifications';
import { runPaymentActions, settlePaymentEvent } from '@commerce/orders';
import type { AnyRouter } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import { createClientIp } from './client-ip.ts';
import { compressLargeJson } from './compression.ts';
import { mountCors } from './cors.ts';
import { mountDocs } from './docs.ts';
import type { GatewayEnv } from './env.ts';
import { errorEnvelope, toAppError } from './errors.ts';
import { mountHostedApp } from './hosted-app.ts';
import { guardTrpcRequest, TRPC_MAX_BATCH_SIZE } from './input-guard.ts';
import { gatewayOpenApiDocument } from './openapi.ts';
import { createPublicCachePolicy, NOT_CACHEABLE } from './public-cache.ts';
import { createResponseHeaders } from './response-headers.ts';
import { mountRestRoutes } from './rest.ts';
import { sandboxHeaders } from './sandbox.ts';
import {
  applyPaymentEvent,
  type GatewayPaymentEventHandler,
  mountPaymentWebhook,
  type PaymentWebhookDeps,
} from './webhooks.ts';

export interface GatewayDeps extends ApiDeps {
  logger: Logger;
  /** Answers when the database takes a query (for /readyz). */
  pingDatabase: () => Promise<void>;
  version: string;
  router?: AnyRouter;
  /** Applies a verified, first-seen payment event in the webhook's transaction; checkout's settlement by default. */
  onPaymentEvent?: GatewayPaymentEventHandler;
  /** The hosted app's build (apps/hosted/dist by default), see hosted-app.ts. */
  hostedAppDir?: string;
  /** True once the process is shutting down: new requests are refused with 503 (see server.ts). */
  isDraining?: () => boolean;
}

/** Seconds a client refused by a gateway that is shutting down is told to wait (another one takes it). */
const DRAINING_RETRY_AFTER_SECONDS = 1;

/**
 * Builds the whole HTTP surface from its dependencies; `main.ts` only reads
 * configuration and listens, and tests call `app.request()` in-process.
 */
export function createApp(deps: GatewayDeps): Hono<GatewayEnv> {
  const router = deps.router ?? appRouter;
  const { logger } = deps;
  const routes = listRestRoutes(router);
  const document = gatewayOpenApiDocument(router, deps.version, routes);
  const app = new Hono<GatewayEnv>();

  const renderError = (c: Context<GatewayEnv>, error: unknown) => {
    const { appError, unexpected } = toAppError(error);
    const requestId = c.get('requestId');
    if (unexpected) logger.error({ requestId, route: c.get('route'), err: error }, 'unexpected error');
    else if (appError.code === 'SERVICE_UNAVAILABLE' && error !== appError)
      logger.warn({ requestId, route: c.get('route'), err: error }, 'database unavailable');
    if (appError.retryAfterSeconds !== undefined) c.header('Retry-After', String(appError.retryAfterSeconds));
    c.header('x-request-id', requestId);
    return c.json(errorEnvelope(appError, requestId), appError.status as 400);
  };

  // Every answer is data, never a page to render or frame (the docs page sets a policy of its own,
  // which stays); the security headers, the request id and CORS are applied as one record.
  // A production process running sandbox providers marks every answer (sandbox.ts).
  const responseHeaders = createResponseHeaders(sandboxHeaders(deps.config));
  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = newId('req');
    c.set('requestId', requestId);
    c.set('observed', {});
    await responseHeaders.start(c);
    // No API answer is for a shared cache unless its route says so (public-cache.ts): a merchant's
    // or a customer's answer, or an error, could otherwise be kept and served to someone else.
    if (isApiPath(c.req.path)) c.get('responseHeaders')['cache-control'] = NOT_CACHEABLE;
    await next();
    responseHeaders.finish(c);
    const observed = c.get('observed');
    logger.info(
      {
        requestId,
        method: c.req.method,
        route: c.get('route') ?? null,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        tenant: observed.tenant?.slug ?? null,
        organizationId: observed.tenant?.organizationId ?? null,
        userId: observed.userId ?? null,
        customerId: observed.customerId ?? null,
      },
      'request',
    );
  });

  // A gateway that is shutting down finishes what it has and takes nothing new: the load balancer
  // retries elsewhere. `Connection: close` on every answer lets the server close its sockets.
  const isDraining = deps.isDraining;
  if (isDraining) {
    app.use('*', async (c, next) => {
      if (isDraining()) {
        c.header('Connection', 'close');
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'The server is shutting down; retry the request',
          { retryAfterSeconds: DRAINING_RETRY_AFTER_SECONDS },
          { retryAfterSeconds: DRAINING_RETRY_AFTER_SECONDS },
        );
      }
      await next();
      if (!isDraining()) return;
      try {
        c.header('Connection', 'close');
      } catch {
        // A response with immutable headers keeps them; the server closes the connection anyway.
      }
    });
  }

  mountCors(app, deps);
  mountSearchCompression(app);

  const tooLarge = () =>
    new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${deps.config.maxBodyBytes} bytes`);
  // Asking a request for its body makes @hono/node-server build the full Fetch Request; requests
  // that carry no body skip the check, which keeps that cost off every read.
  const whenBodyPresent =
    (limit: MiddlewareHandler<GatewayEnv>): MiddlewareHandler<GatewayEnv> =>
    (c, next) =>
      c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, next);
  // On REST only the methods with a body pass the check at all (another method reads no body):
  // reads skip a middleware level.
  app.on(
    ['POST', 'PUT', 'PATCH', 'DELETE'],
    '/api/*',
    bodyLimit({
      maxSize: deps.config.maxBodyBytes,
      onError: () => {
        throw tooLarge();
      },
    }),
  );

  app.get('/healthz', (c) => {
    c.set('route', 'GET /healthz');
    return c.json({ status: 'ok' });
  });
  app.get('/readyz', async (c) => {
    c.set('route', 'GET /readyz');
    try {
      await deps.pingDatabase();
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
      throw new AppError('PROVIDER_UNAVAILABLE', 'The database is not reachable');
    }
    return c.json({ status: 'ready' });
  });

  mountDocs(app, document);
  const webhookDeps: PaymentWebhookDeps = {
    db: deps.db,
    clock: deps.clock,
    payments: deps.payments,
    onPaymentEvent:
      deps.onPaymentEvent ??
      (async (trx, event) => {
        const settled = await settlePaymentEvent(trx, event, {
          at: deps.clock.now(),
          email: customerEmailConfigOf(deps.config),
          // Bookings depend on orders: a booking checkout's event is handed back to the bookings area.
          settleBookingPayment,
        });
        if (settled.outcome === 'booking') {
          const ids = {
            eventId: event.id,
            organizationId: settled.organizationId,
            salesRecordId: settled.salesRecordId,
            paymentAttemptId: settled.paymentAttemptId,
            result: settled.result,
          };
          // Money taken for another amount, or after some bookings' time was lost: a person reconciles it.
          if (settled.result === 'AMOUNT_MISMATCH' || settled.result === 'REFUND_REQUIRED')
            logger.warn(ids, 'booking payment needs attention');
          // More than the booking can keep: refunded through the processor once this commits.
          if (settled.result === 'REFUNDED') logger.warn(ids, 'booking payment not kept: refunding it');
          const owed = settled.paymentActions ?? [];
          if (owed.length === 0) return undefined;
          return async () => {
            for (const only of owed)
              await runPaymentActions(deps.db, {
                payments: deps.payments,
                at: deps.clock.now(),
                only,
                logger,
              });
          };
        }
        // A correctly signed event for an intent no checkout made: another environment sharing the account?
        if (settled.outcome === 'unknown_intent')
          logger.warn({ eventId: event.id, intentId: event.intentId }, 'payment event for an unknown intent');
        // Money was taken for another amount than the order's: the order stays unpaid until a person reconciles it.
        if (settled.outcome === 'amount_mismatch')
          logger.warn(
            {
              eventId: event.id,
              intentId: event.intentId,
              organizationId: settled.organizationId,
              orderId: settled.orderId,
              paymentAttemptId: settled.paymentAttemptId,
            },
            'payment event amount differs from the payment attempt',
          );
        // A payment for an order cancelled meanwhile: refunded through the processor once this commits.
        if (settled.outcome === 'refunded') {
          logger.warn(
            {
              eventId: event.id,
              organizationId: settled.organizationId,
              orderId: settled.orderId,
              paymentAttemptId: settled.paymentAttemptId,
            },
            'payment for a cancelled order: refunding it',
          );
          const only = { organizationId: settled.organizationId, paymentAttemptId: settled.paymentAttemptId };
          return async () => {
            await runPaymentActions(deps.db, { payments: deps.payments, at: deps.clock.now(), only, logger });
          };
        }
        return undefined;
      }),
    logger,
  };
  mountPaymentWebhook(app, webhookDeps);
  // The procedures' view of the process: the sandbox processor's test-card confirmation settles
  // through the webhook's own path (`applyPaymentEvent`).
  const apiDeps: typeof deps = {
    ...deps,
    paymentEvents: { apply: (event) => applyPaymentEvent(webhookDeps, event, deps.clock.now()) },
  };
  const socketIp = createClientIp(deps.config.trustProxy, deps.config.rateLimit.ipv6Prefix);
  mountRestRoutes(app, router, routes, apiDeps, {
    trustProxyIp: socketIp,
    publicCache: createPublicCachePolicy(deps.config.publicCache),
    onDownloadError: (c, error) =>
      logger.error(
        { requestId: c.get('requestId'), route: c.get('route'), err: error },
        'download failed mid-stream',
      ),
  });

  /**
   * Hands a /trpc request to tRPC. Refused input (`refused`) answers in tRPC's shape, for every call
   * of the request, through the context: the error formatter gives it the contract's code and status.
   */
  const answerTrpc = (c: Context<GatewayEnv>, request: Request, refused: AppError | undefined) => {
    c.set('route', `${c.req.method} /trpc`);
    // The procedures' response headers (Set-Cookie of a sign-in, Location …) go out as on REST.
    let context: ApiContext | undefined;
    return fetchRequestHandler({
      endpoint: '/trpc',
      req: request,
      router,
      maxBatchSize: TRPC_MAX_BATCH_SIZE,
      createContext: () => {
        if (refused) throw refused;
        context = createApiContext(
          apiDeps,
          {
            requestId: c.get('requestId'),
            headers: c.req.raw.headers,
            clientIp: socketIp(c),
            surface: 'trpc',
          },
          c.get('observed'),
        );
        return context;
      },
      // The error formatter (packages/api trpc.ts) gives each error the contract's status, from which
      // tRPC derives the response's (207 for a batch whose calls answered differently).
      responseMeta: ({ errors }) => {
        const headers = new Headers();
        for (const [name, value] of context?.resHeaders.entries ?? []) headers.append(name, value);
        for (const error of errors) {
          const { retryAfterSeconds } = toAppError(error).appError;
          if (retryAfterSeconds === undefined) continue;
          headers.set('Retry-After', String(retryAfterSeconds));
          break;
        }
        return { headers };
      },
      onError: ({ error }) => {
        const { appError, unexpected } = toAppError(error);
        if (unexpected) logger.error({ requestId: c.get('requestId'), err: error }, 'unexpected error');
        else if (appError.code === 'SERVICE_UNAVAILABLE' && error.cause !== appError)
          logger.warn({ requestId: c.get('requestId'), err: error }, 'database unavailable');
      },
    });
  };
  // An oversized body is refused in tRPC's shape too (413), its calls answered without reading it on.
  app.use(
    '/trpc/*',
    whenBodyPresent(
      bodyLimit({
        maxSize: deps.config.maxBodyBytes,
        onError: (c) => {
          const headers = new Headers(c.req.raw.headers);
          headers.delete('content-length');
          headers.delete('transfer-encoding');
          return answerTrpc(c, new Request(c.req.url, { method: c.req.method, headers }), tooLarge());
        },
      }),
    ),
  );
  app.all('/trpc/*', async (c) => {
    const { request, refused } = await guardTrpcRequest(c.req.raw);
    return answerTrpc(c, request, refused);
  });

  mountHostedApp(app, deps.hostedAppDir === undefined ? {} : { dir: deps.hostedAppDir });

  app.notFound((c) => renderError(c, AppError.notFound('Route not found')));
  app.onError((error, c) => renderError(c, error));
  return app;
}

/**
 * The versioned REST contract and /trpc, whose answers are data about a tenant, a merchant or a
 * customer; not the API's reference (`/api/v1/docs…`, `/api/v1/openapi.json`), which is the same
 * for everyone.
 */
function isApiPath(path: string): boolean {
  if (path.startsWith('/api/')) return !path.startsWith('/api/v1/docs') && path !== '/api/v1/openapi.json';
  return path.startsWith('/trpc');
}

/** An availability search procedure, as a `/trpc` path names it. */
const SEARCH_PROCEDURE = 'public.bookingAvailability.search';
/** Answers below this many bytes go as they are: compressing them saves little. */
export const COMPRESSION_THRESHOLD_BYTES = 8 * 1024;

/**
 * Availability searches answer up to megabytes of repetitive JSON: with `Accept-Encoding`, an
 * answer of 8 KiB or more is compressed (gzip, else deflate, at zlib's fastest level). Only the search is: its answer
 * carries no secret, so compression cannot leak one next to input an attacker chose (a `/trpc`
 * call is compressed only when every procedure of its batch is a search). Registered before the
 * routes, so it wraps their answers.
 */
function mountSearchCompression(app: Hono<GatewayEnv>): void {
  const compressLarge = compressLargeJson({ threshold: COMPRESSION_THRESHOLD_BYTES, level: 1 });
  app.use('/api/v1/public/booking-availability/search', compressLarge);
  app.use('/trpc/*', (c, next) => {
    // The path as sent (not decoded: a malformed escape is the input guard's to refuse).
    const procedures = new URL(c.req.url).pathname.slice('/trpc/'.length).split(',');
    return procedures.every((procedure) => procedure === SEARCH_PROCEDURE) ? compressLarge(c, next) : next();
  });
}
