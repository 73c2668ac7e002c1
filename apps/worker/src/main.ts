import { type Config, ConfigError, loadConfig } from '@commerce/core';
import { migrateToLatest, openDatabase } from '@commerce/db';
import { startOutboxWorkerFromConfig } from '@commerce/notifications';
import pino from 'pino';

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

const database = await openDatabase({ databaseUrl: config.database.url, poolSize: config.database.poolSize });
let running: ReturnType<typeof startOutboxWorkerFromConfig>;
try {
  await migrateToLatest(database.db);
  running = startOutboxWorkerFromConfig(config, { db: database.db, logger });
} catch (error) {
  logger.error({ err: error }, 'worker failed to start');
  await database.close().catch(() => {});
  process.exit(1);
}
logger.info({ database: database.kind }, 'worker running');

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
    running
      .stop()
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
