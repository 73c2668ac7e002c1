import type { CheckoutSession, Database, Order, PaymentAttempt } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { findOrder } from '../orders/order-read.ts';
import { moveSession } from './complete-session.ts';
import { setOrderPaymentStatus } from './place-order.ts';
import { lockSessionAndAttempt } from './session-store.ts';
import { releaseReservations } from './stock.ts';

/** An order locked for a change, with its checkout session and payment attempt locked before it. */
export interface LockedOrderPayment {
  order: Order;
  /** Null for orders no checkout placed (legacy, and free orders without an attempt). */
  checkout: { session: CheckoutSession; attempt: PaymentAttempt } | null;
}

/**
 * Locks an order for a change of status, taking its checkout session and
 * payment attempt first when it has them: the order in which payment-session,
 * the webhook and the payment-timeout sweep take them (session, attempt,
 * order), so a cancellation never deadlocks with them.
 */
export async function lockOrderWithPayment(
  trx: Kysely<Database>,
  organizationId: string,
  orderId: string,
): Promise<LockedOrderPayment> {
  const unlocked = await findOrder(trx, organizationId, orderId);
  const found = await trx
    .selectFrom('checkout_sessions as s')
    .innerJoin('payment_attempts as a', (join) =>
      join.onRef('a.organization_id', '=', 's.organization_id').onRef('a.checkout_session_id', '=', 's.id'),
    )
    .select(['s.id as checkoutSessionId', 'a.id as paymentAttemptId'])
    .where('s.organization_id', '=', organizationId)
    .where('s.order_id', '=', unlocked.id)
    .executeTakeFirst();
  const checkout = found ? await lockSessionAndAttempt(trx, { organizationId, ...found }) : null;
  const order = await findOrder(trx, organizationId, unlocked.id, 'update');
  return { order, checkout };
}

/**
 * The payment side of cancelling a checkout order that is not paid (docs/checkout.md
 * "A cancelled order takes no money"), in the transaction that cancels it, under the
 * locks of `lockOrderWithPayment`. When its attempt is still PENDING or FAILED
 * (awaiting payment, or free to retry after a failure):
 *
 * - the session's ACTIVE reservations are released (BACK_IN_STOCK emails for
 *   variants back from 0), the session becomes CANCELLED (payment-session on
 *   it is 409) and the order's payment FAILED (no payment will be made);
 * - the attempt becomes CANCELLED and owes the processor a cancellation of
 *   its intent, made after the commit (`runPaymentActions`) and retried by
 *   the worker until the processor answers.
 *
 * Returns the attempt that now owes the call, or null when nothing changed
 * (no checkout, paid, already cancelled).
 */
export async function cancelUnpaidCheckoutPayment(
  trx: Kysely<Database>,
  locked: LockedOrderPayment,
  options: { at: Date; email: CustomerEmailConfig },
): Promise<{ organizationId: string; paymentAttemptId: string } | null> {
  if (!locked.checkout) return null;
  const { session, attempt } = locked.checkout;
  if (attempt.status !== 'PENDING' && attempt.status !== 'FAILED') return null;
  await releaseReservations(trx, {
    organizationId: session.organization_id,
    checkoutSessionId: session.id,
    at: options.at,
    email: options.email,
  });
  await moveSession(trx, session, 'CANCELLED', options.at);
  if (locked.order.payment_status !== 'FAILED')
    await setOrderPaymentStatus(trx, locked.order, 'FAILED', options.at);
  await trx
    .updateTable('payment_attempts')
    .set({
      status: 'CANCELLED',
      provider_action: 'CANCEL',
      provider_action_due_at: options.at,
      provider_action_tries: 0,
      updated_at: options.at,
    })
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.id)
    .execute();
  return { organizationId: attempt.organization_id, paymentAttemptId: attempt.id };
}
