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
import {
  type Database,
  IDEMPOTENT_REPLAYED_HEADER,
  type Membership,
  type MerchantUser,
  readIdempotencyKey,
  withIdempotency,
} from '@commerce/db';
import { runPaymentActions } from '@commerce/orders';
import type { Kysely } from 'kysely';
import type { ApiContext } from '../../../context.ts';
import { customerEmailConfig } from '../../../hosted-origin.ts';

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

/** 14.2: Owners and Admins see every booking; Staff only those assigned to them. */
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
 * Runs one merchant mutation of a booking the member may see (else the
 * neutral 404): in a READ COMMITTED transaction retried on deadlock (14.19),
 * under the optional `x-idempotency-key` (14.10) whose replay reads the
 * booking fresh; after the commit, the transition's after-commit work (a
 * provider call) runs, its failure logged: the payment module owes it.
 * Answers the merchant detail.
 */
export async function mutateBooking(
  ctx: MerchantCtx,
  request: { id: string; operation: string; body: unknown },
  work: Work,
): Promise<MerchantBookingDetail> {
  const bookingCtx = bookingTransitionContext(ctx);
  await assertBookingVisible(ctx.db, bookingCtx.organizationId, request.id, bookingViewer(ctx));
  let afterCommit: (() => Promise<void>) | undefined;
  const run = async (trx: Kysely<Database>) => {
    const outcome = await work(trx, bookingCtx);
    const after = (outcome as { afterCommit?: () => Promise<void> } | undefined)?.afterCommit;
    afterCommit = typeof after === 'function' ? after : undefined;
    return detailOrNotFound(trx, bookingCtx, request.id);
  };
  const key = readIdempotencyKey(ctx.request.headers);
  let detail: MerchantBookingDetail;
  if (key === undefined) {
    detail = await retryOnAbort(() => ctx.db.transaction().setIsolationLevel('read committed').execute(run));
  } else {
    const outcome = await retryOnAbort(() =>
      withIdempotency<MerchantBookingDetail>(
        ctx.db,
        {
          organizationId: bookingCtx.organizationId,
          operation: request.operation,
          key,
          intent: { params: { id: request.id }, body: request.body },
          retention: 'standard',
          now: bookingCtx.at,
        },
        async (trx) => ({ status: 200, body: await run(trx) }),
        { fromRecord: (trx) => detailOrNotFound(trx, bookingCtx, request.id) },
      ),
    );
    if (outcome.replayed) {
      ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      afterCommit = undefined;
    }
    detail = outcome.body;
  }
  if (afterCommit) {
    await afterCommit().catch((error: unknown) => {
      ctx.services.logger?.error({ err: error, bookingId: request.id }, 'booking after-commit work failed');
    });
  }
  return detail;
}
