import type { AddressInfo, Server } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { seedDemoOrganization, TenantDirectory } from '@commerce/admin';
import { type CachePurger, noopCachePurger, repurgingCachePurger } from '@commerce/api';
import { createMerchantTokenVerifier } from '@commerce/auth';
import { createDistanceProvider, startBookingSweeps } from '@commerce/bookings';
import { type Clock, type Config, systemClock } from '@commerce/core';
import { startHousekeeping } from '@commerce/customers';
import { type DatabaseHandle, migrateToLatest, openDatabase, openEmbeddedAtLatest } from '@commerce/db';
import { createCarrierProvider, startLabelSweeps } from '@commerce/fulfillment';
import {
  createEmailTransportFromConfig,
  customerEmailConfigOf,
  startOutboxWorkerFromConfig,
} from '@commerce/notifications';
import { startWebhookWorkerFromConfig } from '@commerce/notifications/webhooks';
import { startCheckoutMaintenance } from '@commerce/orders';
import { createPaymentProvider } from '@commerce/payments';
import { createRateLimiter, parseRateLimitStore } from '@commerce/rate-limit';
import { serve } from '@hono/node-server';
import type { AnyRouter } from '@trpc/server';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import { capConnectionsPerClient } from './connection-cap.ts';
import { flushLogs } from './logger.ts';
import { sandboxStartupWarning } from './sandbox.ts';

export const VERSION = '0.1.0';
/** How often expired checkout sessions and abandoned carts are looked for. */
export const CHECKOUT_SWEEP_INTERVAL_MS = 30_000;
/** How often label documents to fetch again and shipment cancellations to poll are looked for. */
export const LABEL_SWEEP_INTERVAL_MS = 30_000;
/** How often expired sessions, challenges, idempotency keys, webhook event ids and action tokens are deleted. */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/**
 * How long a gateway that is shutting down keeps its listener open while it answers every new
 * request with 503 and `Connection: close` (at most a quarter of SHUTDOWN_TIMEOUT_MS).
 */
export const DRAIN_GRACE_MS = 1_000;

export interface RunningGateway {
  url: string;
  database: DatabaseHandle;
  /** Stops accepting, lets in-flight requests finish, then closes the worker, limiter and database. */
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  /**
   * An already open and migrated database (tests: `createTestDatabase` migrates under the schema lock that
   * keeps other files' schema drops out of the migrator's introspection); by default the configured one.
   */
  database?: DatabaseHandle;
  router?: AnyRouter;
  /**
   * Told which public answers a merchant write changed (a CDN's purge API; docs/api.md, "HTTP
   * caching of public reads"), called a second time with the same keys a few seconds later. The
   * default tells no one: cached answers expire after their `s-maxage`.
   */
  cachePurger?: CachePurger;
}

/** Everything `main.ts` does after reading configuration; also used by end-to-end tests and benchmarks. */
export async function startGateway(
  config: Config,
  logger: Logger,
  options: StartOptions = {},
): Promise<RunningGateway> {
  const clock = options.clock ?? systemClock;
  const database = options.database ?? (await openConfiguredDatabase(config, logger));
  if (config.seedDemo) {
    const outcome = await seedDemoOrganization(database.db, clock.now());
    logger.info({ outcome, slug: 'demo' }, 'demo organization');
  }

  let lastStoreWarning = 0;
  const rateLimiter = createRateLimiter(parseRateLimitStore(config.rateLimit.store, database.pool), {
    // While the shared store is down each process limits from memory; say so at most once a minute.
    onStoreError: (error) => {
      if (Date.now() - lastStoreWarning < 60_000) return;
      lastStoreWarning = Date.now();
      logger.warn({ err: error }, 'rate-limit store failed; limiting from process memory');
    },
  });
  const mailer = createEmailTransportFromConfig(config, {
    db: database.db,
    logger: logger.child({ component: 'mailer' }),
    clock,
  });
  const payments = createPaymentProvider(config);
  // Each purge goes out again a few seconds later: a CDN miss in flight on the state before the
  // write can land after the first (docs/api.md, "HTTP caching of public reads").
  const cachePurger = options.cachePurger
    ? repurgingCachePurger(options.cachePurger, {
        onError: (error, keys) => logger.error({ err: error, keys }, 'cache purge failed'),
      })
    : undefined;
  let draining = false;
  const carrier = createCarrierProvider(config, { db: database.db, clock });
  // The tenants this process serves, kept in memory while the database's change notices are heard
  // (a directory that does not listen keeps nothing).
  const tenants = new TenantDirectory(database.db);
  if (config.tenantCacheEnabled) await tenants.listen(database);
  const app = createApp({
    db: database.db,
    config,
    clock,
    merchantTokens: createMerchantTokenVerifier(config.merchantJwt, clock),
    rateLimiter,
    tenants,
    mailer,
    logger,
    pingDatabase: database.ping,
    payments,
    distance: createDistanceProvider(config),
    carrier,
    cachePurger: cachePurger ?? noopCachePurger,
    version: VERSION,
    isDraining: () => draining,
    ...(options.router ? { router: options.router } : {}),
  });

  // On the embedded database the worker must share this process: PGlite has one connection.
  const worker = config.runWorkerInProcess
    ? startOutboxWorkerFromConfig(config, {
        db: database.db,
        logger: logger.child({ component: 'worker' }),
        clock,
      })
    : undefined;

  // Outbound webhooks leave through their own outbox, delivered wherever the email outbox is.
  const webhookWorker = config.runWorkerInProcess
    ? startWebhookWorkerFromConfig(config, {
        db: database.db,
        logger: logger.child({ component: 'webhook-worker' }),
        clock,
      })
    : undefined;

  // Checkout's sweeps (expiry, abandoned-cart reminders) run wherever the outbox worker runs.
  const checkoutSweeps = config.runWorkerInProcess
    ? startCheckoutMaintenance({
        db: database.db,
        clock,
        email: customerEmailConfigOf(config),
        abandonedCartDelayMinutes: config.checkout.abandonedCartDelayMinutes,
        // Sessions left awaiting payment: the intent is cancelled and the stock released.
        paymentTimeout: { payments, minutes: config.checkout.paymentTimeoutMinutes },
        intervalMs: CHECKOUT_SWEEP_INTERVAL_MS,
        logger: logger.child({ component: 'checkout-sweeps' }),
      })
    : undefined;
  const housekeeping = config.runWorkerInProcess
    ? startHousekeeping({
        db: database.db,
        clock,
        intervalMs: HOUSEKEEPING_INTERVAL_MS,
        logger: logger.child({ component: 'housekeeping' }),
      })
    : undefined;
  // Bookings: lapsed holds, payment windows, request expiry, management-token pruning.
  const bookingSweeps = config.runWorkerInProcess
    ? startBookingSweeps({
        db: database.db,
        clock,
        email: customerEmailConfigOf(config),
        holdIntervalMs: config.bookings.sweepIntervalMs,
        logger: logger.child({ component: 'booking-sweeps' }),
      })
    : undefined;

  // Label purchases and voids: label documents retried, cancellations polled.
  const labelSweeps = config.runWorkerInProcess
    ? startLabelSweeps({
        db: database.db,
        clock,
        carrier,
        intervalMs: LABEL_SWEEP_INTERVAL_MS,
        logger: logger.child({ component: 'label-sweeps' }),
      })
    : undefined;

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const listening = serve(
      {
        fetch: app.fetch,
        port: config.port,
        hostname: config.host,
        serverOptions: {
          headersTimeout: config.http.headersTimeoutMs,
          requestTimeout: config.http.requestTimeoutMs,
          // Node looks for late requests every 30 s by default, far coarser than the timeouts.
          connectionsCheckingInterval: Math.max(
            50,
            Math.min(1000, Math.floor(config.http.headersTimeoutMs / 2)),
          ),
        },
      },
      () => resolve(listening),
    );
    // Connections past the cap are closed as they arrive.
    listening.maxConnections = config.http.maxConnections;
    // And one client's past its own cap (connection-cap.ts), said at most once a minute.
    let lastRefusal = 0;
    capConnectionsPerClient(listening as Server, {
      maxPerClient: config.http.maxConnectionsPerClient,
      ipv6Prefix: config.rateLimit.ipv6Prefix,
      trustProxy: config.trustProxy,
      onRefused: (clientKey) => {
        if (Date.now() - lastRefusal < 60_000) return;
        lastRefusal = Date.now();
        logger.warn({ clientKey }, 'connections over HTTP_MAX_CONNECTIONS_PER_CLIENT closed');
      },
    });
  });
  const address = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${address.port}`;
  logger.info({ url, database: database.kind }, 'gateway listening');
  const sandbox = sandboxStartupWarning(config);
  if (sandbox) logger.warn(sandbox.fields, sandbox.message);
  flushLogs(logger);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      // From here every new request answers 503 with `Connection: close` (app.ts); those in flight
      // and the deliveries and sweeps running now finish, all within one SHUTDOWN_TIMEOUT_MS.
      draining = true;
      const startedAt = Date.now();
      // For a moment the listener stays open, so that a client sending on a kept-alive
      // connection gets that 503 (and /readyz its 503) instead of a connection reset; then it
      // closes, which also closes the connections left idle.
      const serverClosed = (async () => {
        if (await hasConnections(server)) await sleep(Math.min(DRAIN_GRACE_MS, config.shutdownTimeoutMs / 4));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeIdleConnections' in server) server.closeIdleConnections();
        });
      })();
      const backgroundStopped = Promise.all([
        worker?.stop(),
        webhookWorker?.stop(),
        checkoutSweeps?.stop(),
        housekeeping?.stop(),
        bookingSweeps?.stop(),
        labelSweeps?.stop(),
      ]);
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.all([serverClosed, backgroundStopped]).then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), config.shutdownTimeoutMs - (Date.now() - startedAt));
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
      if (!finished) {
        // Requests still running past the deadline are cut so the process can exit; a delivery
        // still running is left to its lease, and another worker sends it again.
        logger.warn({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown deadline passed; closing connections');
        if ('closeAllConnections' in server) server.closeAllConnections();
      }
      // Second purges still waiting are dropped (their timers would not keep the process alive anyway).
      cachePurger?.close();
      await tenants.close();
      await rateLimiter.close();
      await mailer.close?.();
      await database.close();
      logger.info('gateway stopped');
    })();
    return closing;
  };
  return { url, database, close };
}

function hasConnections(server: {
  getConnections(callback: (error: Error | null, count: number) => void): void;
}) {
  return new Promise<boolean>((resolve) =>
    server.getConnections((error, count) => resolve(!error && count > 0)),
  );
}

/**
 * The configured database at the latest migration: PostgreSQL, or the
 * embedded PGlite, which starts a new data directory from a snapshot of a
 * migrated database when this machine has one (see `openEmbeddedAtLatest`).
 */
async function openConfiguredDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  if (!config.database.url) return openEmbeddedAtLatest(config.database.dataDir);
  const database = await openDatabase({
    databaseUrl: config.database.url,
    poolSize: config.database.poolSize,
    applicationName: 'commerce-gateway',
    // A restart or failover: the pool opens new connections on the next checkout.
    onConnectionError: (error) =>
      logger.warn(
        { code: (error as { code?: string }).code, reason: error.message },
        'database connection lost',
      ),
  });
  await migrateToLatest(database.db, { schema: database.schema });
  return database;
}
