import { startBookingSweeps } from '@commerce/bookings';
import { type Config, ConfigError, loadConfig, systemClock } from '@commerce/core';
import { startHousekeeping } from '@commerce/customers';
import { migrateToLatest, openDatabase } from '@commerce/db';
import { createCarrierProvider, startLabelSweeps } from '@commerce/fulfillment';
import { customerEmailConfigOf, startOutboxWorkerFromConfig } from '@commerce/notifications';
import { startWebhookWorkerFromConfig } from '@commerce/notifications/webhooks';
import { startCheckoutMaintenance } from '@commerce/orders';
import { createPaymentProvider } from '@commerce/payments';
import pino from 'pino';

/** How often expired checkout sessions and abandoned carts are looked for. */
const CHECKOUT_SWEEP_INTERVAL_MS = 30_000;
/** How often label documents to fetch again and shipment cancellations to poll are looked for. */
const LABEL_SWEEP_INTERVAL_MS = 30_000;
/** How often expired sessions, challenges, idempotency keys, webhook event ids and action tokens are deleted. */
const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
if (!config.database.url) {
  // PGlite is one in-process connection: a second process cannot open it, so the gateway runs its worker.
  process.stderr.write(
    'The standalone worker needs DATABASE_URL (PostgreSQL). Without it the database is the embedded one ' +
      'inside the gateway process, which runs the outbox worker itself.\n',
  );
  process.exit(1);
}

const logger = pino({
  level: config.logLevel,
  base: { service: 'worker' },
  timestamp: pino.stdTimeFunctions.isoTime,
});

const database = await openDatabase({
  databaseUrl: config.database.url,
  poolSize: config.database.poolSize,
  applicationName: 'commerce-worker',
  // A restart or failover: the pool opens new connections on the next checkout, and every loop
  // and sweep logs its failed run and carries on.
  onConnectionError: (error) =>
    logger.warn(
      { code: (error as { code?: string }).code, reason: error.message },
      'database connection lost',
    ),
});
let running: ReturnType<typeof startOutboxWorkerFromConfig>;
let webhooks: ReturnType<typeof startWebhookWorkerFromConfig>;
let checkoutSweeps: ReturnType<typeof startCheckoutMaintenance>;
let housekeeping: ReturnType<typeof startHousekeeping>;
let bookingSweeps: ReturnType<typeof startBookingSweeps>;
let labelSweeps: ReturnType<typeof startLabelSweeps>;
try {
  await migrateToLatest(database.db);
  running = startOutboxWorkerFromConfig(config, { db: database.db, logger });
  webhooks = startWebhookWorkerFromConfig(config, {
    db: database.db,
    logger: logger.child({ component: 'webhook-worker' }),
  });
  // Expired sessions, and those past their payment window, give their stock back; unpaid carts get one reminder.
  checkoutSweeps = startCheckoutMaintenance({
    db: database.db,
    clock: systemClock,
    email: customerEmailConfigOf(config),
    abandonedCartDelayMinutes: config.checkout.abandonedCartDelayMinutes,
    // Sessions left awaiting payment: the intent is cancelled and the stock released.
    paymentTimeout: {
      payments: createPaymentProvider(config),
      minutes: config.checkout.paymentTimeoutMinutes,
    },
    intervalMs: CHECKOUT_SWEEP_INTERVAL_MS,
    logger: logger.child({ component: 'checkout-sweeps' }),
  });
  housekeeping = startHousekeeping({
    db: database.db,
    clock: systemClock,
    intervalMs: HOUSEKEEPING_INTERVAL_MS,
    logger: logger.child({ component: 'housekeeping' }),
  });
  // Bookings: lapsed holds, payment windows, request expiry, management-token pruning.
  bookingSweeps = startBookingSweeps({
    db: database.db,
    clock: systemClock,
    email: customerEmailConfigOf(config),
    holdIntervalMs: config.bookings.sweepIntervalMs,
    logger: logger.child({ component: 'booking-sweeps' }),
  });
  // Label purchases and voids: label documents retried, cancellations polled.
  labelSweeps = startLabelSweeps({
    db: database.db,
    clock: systemClock,
    carrier: createCarrierProvider(config, { db: database.db, clock: systemClock }),
    intervalMs: LABEL_SWEEP_INTERVAL_MS,
    logger: logger.child({ component: 'label-sweeps' }),
  });
} catch (error) {
  logger.error({ err: error }, 'worker failed to start');
  await database.close().catch(() => {});
  process.exit(1);
}
logger.info({ database: database.kind }, 'worker running');
if (config.sandboxInProduction.length > 0)
  logger.warn(
    { setting: 'ALLOW_SANDBOX_IN_PRODUCTION', sandboxProviders: config.sandboxInProduction },
    'ALLOW_SANDBOX_IN_PRODUCTION=true: production is running sandbox providers; no real money is taken',
  );

let isShuttingDown = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    logger.info({ signal }, 'shutting down');
    // A delivery stuck past the deadline is left to its lease; another worker picks the row up.
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    Promise.all([
      running.stop(),
      webhooks.stop(),
      checkoutSweeps.stop(),
      housekeeping.stop(),
      bookingSweeps.stop(),
      labelSweeps.stop(),
    ])
      .then(() => database.close())
      .then(
        () => {
          logger.info({}, 'worker stopped');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}
