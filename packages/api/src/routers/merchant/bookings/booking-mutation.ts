import {
  assertBookingVisible,
  type BookingTransitionContext,
  type BookingViewer,
  type MerchantBookingDetail,
  readBookingDetail,
  retryOnAbort,
  type TransitionBy,
} from '@commerce/bookings';
import { AppError } from '@commerce/core';
import { type Database, type Membership, type MerchantUser, readIdempotencyKey } from '@commerce/db';
import { runPaymentActions } from '@commerce/orders';
import type { Kysely } from 'kysely';
import type { ApiContext } from '../../../context.ts';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { type Committed, idempotentBookingMutation, runAfterCommit } from '../../../idempotent-mutation.ts';

export type MerchantCtx = ApiContext & {
  tenant: { organizationId: string };
  merchantUser: MerchantUser;
  membership: Pick<Membership, 'role'>;
};

/** The tenant, the request's instant, and EMAIL_FROM with the links' base, for transitions that email. */
export function bookingTransitionContext(ctx: MerchantCtx): BookingTransitionContext {
  return {
    organizationId: ctx.tenant.organizationId,
    at: ctx.clock.now(),
    email: customerEmailConfig(ctx),
    // The merchant's own actions email the customer whatever the recipient's hourly cap.
    sentByMerchant: true,
    // A cancelled payment's intent is cancelled right after the commit (the checkout sweep retries it).
    runPaymentActions: (only) =>
      runPaymentActions(ctx.db, {
        payments: ctx.services.payments,
        at: ctx.clock.now(),
        only,
        ...(ctx.services.logger ? { logger: ctx.services.logger } : {}),
      }),
  };
}

/** Owners and Admins see every booking; Staff only those assigned to them. */
export function bookingViewer(ctx: MerchantCtx): BookingViewer {
  return ctx.membership.role === 'Staff'
    ? { scope: 'ASSIGNED', userId: ctx.merchantUser.id }
    : { scope: 'ALL' };
}

export function merchantBy(ctx: MerchantCtx, extra: Partial<TransitionBy> = {}): TransitionBy {
  return { actor: 'MERCHANT', userId: ctx.merchantUser.id, userEmail: ctx.merchantUser.email, ...extra };
}

export async function detailOrNotFound(db: Kysely<Database>, ctx: BookingTransitionContext, id: string) {
  const detail = await readBookingDetail(db, ctx, id, 'MERCHANT');
  if (!detail) throw AppError.notFound('Booking not found');
  return detail;
}

export type Work = (trx: Kysely<Database>, bookingCtx: BookingTransitionContext) => Promise<unknown>;

/**
 * Runs one merchant mutation of a booking the member may see (else the neutral 404): in a READ
 * COMMITTED transaction retried on deadlock, or under the optional `x-idempotency-key` whose
 * replay reads the booking fresh; after the commit, the transition's after-commit work (a provider
 * call) runs, its failure logged: the payment module owes it. Answers the merchant detail.
 */
export async function mutateBooking(
  ctx: MerchantCtx,
  request: { id: string; operation: string; body: unknown },
  work: Work,
): Promise<MerchantBookingDetail> {
  const bookingCtx = bookingTransitionContext(ctx);
  await assertBookingVisible(ctx.db, bookingCtx.organizationId, request.id, bookingViewer(ctx));
  const run = async (trx: Kysely<Database>): Promise<Committed<MerchantBookingDetail>> => {
    const outcome = await work(trx, bookingCtx);
    const after = (outcome as { afterCommit?: () => Promise<void> } | undefined)?.afterCommit;
    return {
      body: await detailOrNotFound(trx, bookingCtx, request.id),
      afterCommit: typeof after === 'function' ? after : undefined,
    };
  };
  const key = readIdempotencyKey(ctx.request.headers);
  if (key !== undefined) {
    return idempotentBookingMutation(
      ctx,
      {
        organizationId: bookingCtx.organizationId,
        operation: request.operation,
        key,
        bookingId: request.id,
        body: request.body,
        at: bookingCtx.at,
      },
      run,
      (trx) => detailOrNotFound(trx, bookingCtx, request.id),
    );
  }
  const committed = await retryOnAbort(() =>
    ctx.db.transaction().setIsolationLevel('read committed').execute(run),
  );
  await runAfterCommit(ctx, committed.afterCommit, request.id);
  return committed.body;
}
