import { type Clock, type Config, systemClock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { Logger } from '../types.ts';
import { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhook-worker.ts';

export interface RunningWebhookWorker {
  worker: WebhookWorker | undefined;
  stop(): Promise<void>;
}

/**
 * The webhook worker of the standalone worker process and of the gateway's in-process worker
 * (embedded database). Without a signing key (production without WEBHOOK_SIGNING_KEY) there is no
 * endpoint to deliver to: it logs that and starts nothing.
 */
export function startWebhookWorkerFromConfig(
  config: Pick<Config, 'webhooks' | 'workerPollMs' | 'outboxConcurrency'>,
  dependencies: {
    db: Kysely<Database>;
    logger: Logger;
    clock?: Clock;
    workerOptions?: Omit<
      WebhookWorkerOptions,
      'db' | 'signingKey' | 'allowPrivateHosts' | 'clock' | 'logger'
    >;
  },
): RunningWebhookWorker {
  const { signingKey, allowPrivateHosts } = config.webhooks;
  if (signingKey === undefined) {
    dependencies.logger.warn(
      { setting: 'WEBHOOK_SIGNING_KEY' },
      'outbound webhooks are off: WEBHOOK_SIGNING_KEY is not set',
    );
    return { worker: undefined, stop: async () => {} };
  }
  const worker = createWebhookWorker({
    pollIntervalMs: config.workerPollMs,
    concurrency: config.outboxConcurrency,
    ...dependencies.workerOptions,
    db: dependencies.db,
    signingKey,
    allowPrivateHosts,
    clock: dependencies.clock ?? systemClock,
    logger: dependencies.logger,
  });
  worker.start();
  dependencies.logger.info({ allowPrivateHosts }, 'webhook worker started');
  return {
    worker,
    async stop() {
      await worker.stop();
      dependencies.logger.info({}, 'webhook worker stopped');
    },
  };
}
