import { retryOnAbort } from '@commerce/bookings';
import { type Database, IDEMPOTENT_REPLAYED_HEADER, withIdempotency } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ApiContext } from './context.ts';

/** A use case's outcome, and the work (a provider call) to run once its transaction has committed. */
export type Committed<T> = { body: T; afterCommit?: (() => Promise<void>) | undefined };

/**
 * Runs a booking's after-commit work: a failure is logged and the change stands (the module that
 * asked for the call owes it, and its sweep retries).
 */
export async function runAfterCommit(
  ctx: Pick<ApiContext, 'services'>,
  afterCommit: (() => Promise<void>) | undefined,
  bookingId: string,
): Promise<void> {
  if (!afterCommit) return;
  await afterCommit().catch((error: unknown) => {
    ctx.services.logger?.error({ err: error, bookingId }, 'booking after-commit work failed');
  });
}

/**
 * A booking mutation under the request's `x-idempotency-key`, retried whole on a deadlock or a
 * serialization failure. The first run records its outcome, then its after-commit work runs; the
 * same key and body replay it (`fromRecord` reads what must be fresh) with `idempotent-replayed:
 * true` and no after-commit work.
 */
export async function idempotentBookingMutation<T>(
  ctx: Pick<ApiContext, 'db' | 'resHeaders' | 'services'>,
  request: {
    organizationId: string;
    operation: string;
    key: string;
    bookingId: string;
    body: unknown;
    at: Date;
  },
  run: (trx: Kysely<Database>) => Promise<Committed<T>>,
  fromRecord: (trx: Kysely<Database>, recorded: { body: unknown }) => Promise<T>,
): Promise<T> {
  let afterCommit: (() => Promise<void>) | undefined;
  const outcome = await retryOnAbort(() =>
    withIdempotency<T>(
      ctx.db,
      {
        organizationId: request.organizationId,
        operation: request.operation,
        key: request.key,
        intent: { params: { id: request.bookingId }, body: request.body },
        retention: 'standard',
        now: request.at,
      },
      async (trx) => {
        const committed = await run(trx);
        afterCommit = committed.afterCommit;
        return { status: 200, body: committed.body };
      },
      { fromRecord },
    ),
  );
  if (outcome.replayed) {
    ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return outcome.body;
  }
  await runAfterCommit(ctx, afterCommit, request.bookingId);
  return outcome.body;
}
