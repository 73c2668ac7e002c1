import { type Clock, type Config, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { createDevTransport } from './dev-transport.ts';
import { createOutboxWorker, type OutboxWorker, type OutboxWorkerOptions } from './outbox-worker.ts';
import { createSmtpTransport } from './smtp-transport.ts';
import type { EmailTransport, Logger } from './types.ts';

export interface OutboxWorkerDependencies {
  db: Kysely<Database>;
  logger: Logger;
  clock?: Clock;
  /** Overrides of the worker's tuning, e.g. for benchmarks. */
  workerOptions?: Omit<OutboxWorkerOptions, 'db' | 'transport' | 'clock' | 'logger'>;
}

export interface RunningOutboxWorker {
  worker: OutboxWorker;
  transport: EmailTransport;
  /** Stops polling, waits for the run in flight, then closes the transport's connections. */
  stop(): Promise<void>;
}

/** SMTP when SMTP_URL is set, else the development transport (docs/notifications.md "Outbox delivery"). */
export function createEmailTransportFromConfig(
  config: Pick<Config, 'email' | 'outboxConcurrency'>,
  dependencies: Pick<OutboxWorkerDependencies, 'db' | 'logger' | 'clock'>,
): EmailTransport {
  if (config.email.smtpUrl) {
    // One pooled connection per delivery in flight, so no send waits for a connection.
    return createSmtpTransport(config.email.smtpUrl, config.email.from, {
      maxConnections: config.outboxConcurrency,
      onError: (error) => dependencies.logger.warn({ err: error }, 'SMTP transport failed'),
    });
  }
  return createDevTransport(dependencies.db, dependencies.logger, dependencies.clock ?? systemClock);
}

/**
 * Turns configuration and an open database into a polling outbox worker: the
 * standalone worker process and the gateway's in-process worker (embedded
 * database) start it the same way.
 */
export function startOutboxWorkerFromConfig(
  config: Pick<Config, 'email' | 'workerPollMs' | 'outboxConcurrency'>,
  dependencies: OutboxWorkerDependencies,
): RunningOutboxWorker {
  const transport = createEmailTransportFromConfig(config, dependencies);
  const worker = createOutboxWorker({
    pollIntervalMs: config.workerPollMs,
    concurrency: config.outboxConcurrency,
    ...dependencies.workerOptions,
    db: dependencies.db,
    transport,
    clock: dependencies.clock ?? systemClock,
    logger: dependencies.logger,
  });
  worker.start();
  dependencies.logger.info(
    {
      transport: transport.kind,
      pollIntervalMs: dependencies.workerOptions?.pollIntervalMs ?? config.workerPollMs,
      concurrency: dependencies.workerOptions?.concurrency ?? config.outboxConcurrency,
    },
    'outbox worker started',
  );
  let stopping: Promise<void> | undefined;
  return {
    worker,
    transport,
    stop() {
      stopping ??= (async () => {
        await worker.stop();
        await transport.close?.();
        dependencies.logger.info({}, 'outbox worker stopped');
      })();
      return stopping;
    },
  };
}
