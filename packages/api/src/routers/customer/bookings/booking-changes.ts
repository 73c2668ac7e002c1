import {
  type CustomerActionRequest,
  type CustomerActionResult,
  getCustomerBooking,
  requestCustomerBookingChange,
  requestGuestBookingChange,
} from '@commerce/bookings';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import type { ApiContext, CustomerIdentity } from '../../../context.ts';
import { idempotentBookingMutation, runAfterCommit } from '../../../idempotent-mutation.ts';
import { customerEmailContext } from '../../../write-context.ts';

export const owner = (ctx: { customer: CustomerIdentity }) => ({
  organizationId: ctx.customer.organizationId,
  customerId: ctx.customer.id,
});

export type CustomerCtx = ApiContext & { customer: CustomerIdentity };

/**
 * An account change, under the optional `x-idempotency-key`: the same key and body replay the
 * recorded outcome with the booking read fresh.
 */
export async function accountChange(
  ctx: CustomerCtx,
  bookingId: string,
  operation: string,
  request: CustomerActionRequest,
): Promise<CustomerActionResult> {
  const bookingCtx = customerEmailContext(ctx, ctx.customer.organizationId);
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
  const { kind: _kind, ...body } = request;
  return idempotentBookingMutation<CustomerActionResult>(
    ctx,
    { organizationId: bookingCtx.organizationId, operation, key, bookingId, body, at: bookingCtx.at },
    async (trx) => {
      const change = await requestCustomerBookingChange(trx, bookingCtx, owner(ctx), bookingId, request);
      return { body: change.result, afterCommit: change.afterCommit };
    },
    async (trx, recorded) => ({
      outcome: (recorded.body as CustomerActionResult).outcome,
      booking: await getCustomerBooking(trx, bookingCtx, owner(ctx), bookingId),
    }),
  );
}

/** A change through a management link: the token's one change replays with `idempotent-replayed: true`. */
export async function guestChange(
  ctx: ApiContext & { tenant: { organizationId: string } },
  token: string,
  request: CustomerActionRequest,
): Promise<CustomerActionResult> {
  const { result, replayed, afterCommit } = await requestGuestBookingChange(
    ctx.db,
    customerEmailContext(ctx, ctx.tenant.organizationId),
    token,
    request,
  );
  if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  await runAfterCommit(ctx, afterCommit, result.booking.id);
  return result;
}
