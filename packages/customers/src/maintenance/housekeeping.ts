import { runPeriodically } from '@commerce/core';
import type { Database } from '@commerce/db';
import { pruneIdempotencyKeys, prunePaymentWebhookEvents } from '@commerce/db';
import { pruneDevEmails } from '@commerce/notifications';
import { pruneActionTokens } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { pruneCustomerAuth } from './prune-customer-auth.ts';

export interface HousekeepingResult {
  sessions: number;
  challenges: number;
  idempotencyKeys: number;
  paymentWebhookEvents: number;
  actionTokens: number;
  devEmails: number;
}

/**
 * Every retention sweep of credentials and replay records, across all
 * organizations: expired customer sessions and sign-in challenges, expired
 * idempotency keys, payment webhook event ids past their retention,
 * long-expired action tokens, and day-old development-transport emails. Each sweep is its own statement (or batch of
 * statements), so none holds many locks for long.
 */
export async function runHousekeeping(db: Kysely<Database>, at: Date): Promise<HousekeepingResult> {
  const auth = await pruneCustomerAuth(db, at);
  const idempotencyKeys = await pruneIdempotencyKeys(db, at);
  const paymentWebhookEvents = await prunePaymentWebhookEvents(db, at);
  const actionTokens = await pruneActionTokens(db, at);
  const devEmails = await pruneDevEmails(db, at);
  return { ...auth, idempotencyKeys, paymentWebhookEvents, actionTokens, devEmails };
}

export interface HousekeepingLogger {
  info(obj: Record<string, unknown>, msg?: string): void;
  error(obj: Record<string, unknown>, msg?: string): void;
}

/** Runs `runHousekeeping` every `intervalMs` (the first run after one interval) until stopped. */
export function startHousekeeping(dependencies: {
  db: Kysely<Database>;
  clock: { now(): Date };
  intervalMs: number;
  logger: HousekeepingLogger;
}): { runOnce(): Promise<HousekeepingResult>; stop(): Promise<void> } {
  const runOnce = async () => {
    const result = await runHousekeeping(dependencies.db, dependencies.clock.now());
    if (Object.values(result).some((count) => count > 0))
      dependencies.logger.info({ ...result }, 'housekeeping');
    return result;
  };
  const periodic = runPeriodically(runOnce, {
    intervalMs: dependencies.intervalMs,
    onError: (error) => dependencies.logger.error({ err: error }, 'housekeeping failed'),
  });
  return { runOnce, stop: () => periodic.stop() };
}
