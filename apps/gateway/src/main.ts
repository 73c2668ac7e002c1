import { ConfigError, loadConfig } from '@commerce/core';
import { openEmbeddedAtLatest } from '@commerce/db';
import { createLogger, flushLogs } from './logger.ts';
import { startGateway } from './server.ts';

// `node dist/main.js prepare-embedded` (run by the build): make this machine's snapshot of a
// migrated embedded database, so that a first start on a new data directory skips PGlite's initdb.
if (process.argv[2] === 'prepare-embedded') {
  await (await openEmbeddedAtLatest(undefined)).close();
  process.exit(0);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger(config.logLevel);
const exit = (code: number) => {
  flushLogs(logger);
  // Let the flushed buffer reach stdout before the process ends.
  setImmediate(() => process.exit(code));
};

let gateway: Awaited<ReturnType<typeof startGateway>>;
try {
  gateway = await startGateway(config, logger);
} catch (error) {
  logger.fatal({ err: error }, 'gateway failed to start');
  exit(1);
  throw error;
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    gateway.close().then(
      () => exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  });
}
