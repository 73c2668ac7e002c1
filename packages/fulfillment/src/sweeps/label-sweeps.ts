import { type Clock, runPeriodically } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';
import { type PollSummary, pollShipmentCancellations } from '../shipment-cancellations/poll-cancellations.ts';
import { retryLabelDocuments } from '../shipping-label/label-documents.ts';

export interface LabelSweepLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface RunningLabelSweeps {
  /** One pass (tests, and the schedule). */
  runOnce(): Promise<{ labelsStored: number; voids: PollSummary }>;
  stop(): Promise<void>;
}

/**
 * The worker's label jobs, run wherever the outbox worker
 * runs: label documents whose fetch after settle failed are fetched again,
 * and pending voids have their status read on schedule.
 */
export function startLabelSweeps(dependencies: {
  db: Kysely<Database>;
  clock: Clock;
  carrier: CarrierProvider;
  intervalMs: number;
  logger: LabelSweepLogger;
}): RunningLabelSweeps {
  const runOnce = async () => {
    const labelsStored = await retryLabelDocuments(dependencies.db, dependencies);
    const voids = await pollShipmentCancellations(dependencies.db, dependencies);
    if (labelsStored > 0 || voids.read > 0)
      dependencies.logger.info({ labelsStored, ...voids }, 'label sweep');
    return { labelsStored, voids };
  };
  const periodic = runPeriodically(runOnce, {
    intervalMs: dependencies.intervalMs,
    onError: (error) => dependencies.logger.error({ err: error }, 'label sweep failed'),
  });
  return { runOnce, stop: () => periodic.stop() };
}
