import {
  type BookingNotifyContext,
  type CustomerActionRequest,
  type CustomerActionResult,
  getCustomerBooking,
  requestCustomerBookingChange,
  requestGuestBookingChange,
  retryOnAbort,
} from '@commerce/bookings';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey, withIdempotency } from '@commerce/db';
import type { ApiContext, CustomerIdentity } from '../../../context.ts';
import { customerEmailConfig } from '../../../hosted-origin.ts';

export const owner = (ctx: { customer: CustomerIdentity }) => ({
  organizationId: ctx.customer.organizationId,
  customerId: ctx.customer.id,
});

export function notifyContext(ctx: ApiContext, organizationId: string): BookingNotifyContext {
  return {
    organizationId,
    at: ctx.clock.now(),
    email: customerEmailConfig(ctx),
  };
}

export type CustomerCtx = ApiContext & { customer: CustomerIdentity };

/** Runs a transition's after-commit work (a provider call); a failure is logged, the change stands (its module owes the call). */
export async function runAfterCommit(
  ctx: ApiContext,
  afterCommit: (() => Promise<void>) | undefined,
  bookingRef: string,
) {
  if (!afterCommit) return;
  await afterCommit().catch((error: unknown) => {
    ctx.services.logger?.error({ err: error, bookingId: bookingRef }, 'booking after-commit work failed');
  });
}

/**
 * An account change under the optional `x-idempotency-key` (14.10): the same
 * key and body replay the recorded outcome with the booking read fresh.
 */
export async function accountChange(
  ctx: CustomerCtx,
  bookingId: string,
  operation: string,
  request: CustomerActionRequest,
): Promise<CustomerActionResult> {
  const bookingCtx = notifyContext(ctx, ctx.customer.organizationId);
  const key = readIdempotencyKey(ctx.request.headers);
  if (key === undefined) {
    const { result, afterCommit } = await requestCustomerBookingChange(
      ctx.db,
      bookingCtx,
      owner(ctx),
      bookingId,
      request,
    );
    await runAfterCommit(ctx, afterCommit, bookingId);
    return result;
  }
  let afterCommit: (() => Promise<void>) | undefined;
  const { kind: _kind, ...body } = request;
  const outcome = await retryOnAbort(() =>
    withIdempotency<CustomerActionResult>(
      ctx.db,
      {
        organizationId: bookingCtx.organizationId,
        operation,
        key,
        intent: { params: { id: bookingId }, body },
        retention: 'standard',
        now: bookingCtx.at,
      },
      async (trx) => {
        const change = await requestCustomerBookingChange(trx, bookingCtx, owner(ctx), bookingId, request);
        afterCommit = change.afterCommit;
        return { status: 200, body: change.result };
      },
      {
        fromRecord: async (trx, recorded) => ({
          outcome: (recorded.body as CustomerActionResult).outcome,
          booking: await getCustomerBooking(trx, bookingCtx, owner(ctx), bookingId),
        }),
      },
    ),
  );
  if (outcome.replayed) {
    ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return outcome.body;
  }
  await runAfterCommit(ctx, afterCommit, bookingId);
  return outcome.body;
}

/** A change through a management link: its one use replays (14.17) with `idempotent-replayed: true`. */
export async function guestChange(
  ctx: ApiContext & { tenant: { organizationId: string } },
  token: string,
  request: CustomerActionRequest,
): Promise<CustomerActionResult> {
  const { result, replayed, afterCommit } = await requestGuestBookingChange(
    ctx.db,
    notifyContext(ctx, ctx.tenant.organizationId),
    token,
    request,
  );
  if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  await runAfterCommit(ctx, afterCommit, result.booking.id);
  return result;
}
