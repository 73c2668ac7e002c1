import { type CheckoutSession, type Database, type PaymentAttempt, recordAudit } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { PaymentWebhookEvent } from '@commerce/payments';
import type { Kysely } from 'kysely';
import { findOrder } from '../orders/order-read.ts';
import { emitOrderEvent } from '../orders/order-webhooks.ts';
import { cancelUnpaidCheckoutPayment } from './cancel-checkout-payment.ts';
import { completeSession, moveSession } from './complete-session.ts';
import { confirmCheckoutOrder, setOrderPaymentStatus } from './place-order.ts';
import { lockSessionAndAttempt, sessionLines } from './session-store.ts';
import { consumeReservations, releaseReservations, retakeStock } from './stock.ts';

export interface SettleOptions {
  at: Date;
  /** For the ORDER_CONFIRMATION of a paid order and the BACK_IN_STOCK emails of released stock. */
  email: CustomerEmailConfig;
  /**
   * Settles the event of a booking payment's session: the bookings
   * area registers it (the gateway wires `settleBookingPayment` of @commerce/bookings), because
   * bookings depend on orders and not the other way round. Without it such an event throws, so
   * the processor delivers it again.
   */
  settleBookingPayment?: BookingPaymentSettler;
}

/** A verified event for a booking payment's attempt, its session and attempt locked by the caller. */
export interface BookingPaymentEvent {
  session: CheckoutSession;
  attempt: PaymentAttempt;
  event: PaymentWebhookEvent;
  at: Date;
  email: CustomerEmailConfig;
}

/** A processor call a payment attempt owes (`provider_action`), made right after the commit that recorded it. */
export interface OwedPaymentCall {
  organizationId: string;
  paymentAttemptId: string;
}

export interface BookingSettlement {
  outcome: 'booking';
  organizationId: string;
  salesRecordId: string;
  paymentAttemptId: string;
  /**
   * `PAID`: the bookings confirmed (a late one claimed again) or the balance paid; `FAILED`: the
   * record FAILED, bookings unchanged; `REFUNDED`: the payment would have taken more than the open
   * balance, or came for a booking that can no longer take it: recorded and refunded in full;
   * `REFUND_REQUIRED`: kept for some bookings of the checkout while others lost their time (a person
   * refunds those); `AMOUNT_MISMATCH`: nothing changed, a person reconciles; `UNCHANGED`: a replay.
   */
  result: 'PAID' | 'FAILED' | 'REFUNDED' | 'REFUND_REQUIRED' | 'AMOUNT_MISMATCH' | 'UNCHANGED';
  /**
   * Processor calls the settlement made owed (the refund of this payment, the cancellation of the
   * intents of other links it closed): the caller makes them after the commit (`runPaymentActions`,
   * one call each); whatever fails stays owed and the worker retries it with backoff.
   */
  paymentActions?: OwedPaymentCall[];
}

export type BookingPaymentSettler = (
  trx: Kysely<Database>,
  input: BookingPaymentEvent,
) => Promise<BookingSettlement>;

export type SettlementOutcome =
  /** Not a payment-intent outcome, or no intent id: acknowledged, nothing changed. */
  | { outcome: 'ignored' }
  /** No payment attempt has this intent: nothing changed. */
  | { outcome: 'unknown_intent' }
  /** The attempt is already where the event would move it (a replay, or a failure after success). */
  | { outcome: 'unchanged'; organizationId: string; orderId: string }
  /**
   * A success whose amount or currency is not the attempt's (or is missing): nothing changed, the
   * order is not PAID. The caller logs it; the money taken needs a person (a refund, or a fix).
   */
  | { outcome: 'amount_mismatch'; organizationId: string; orderId: string; paymentAttemptId: string }
  | { outcome: 'paid' | 'failed'; organizationId: string; orderId: string }
  /**
   * A success for an order cancelled before it was paid: recorded REFUNDED, the full refund owed to
   * the processor; the caller makes it after the commit (`runPaymentActions`), the worker retries it.
   */
  | { outcome: 'refunded'; organizationId: string; orderId: string; paymentAttemptId: string }
  /** A booking payment's event, settled by the bookings area. */
  | BookingSettlement;

/**
 * Applies a verified payment webhook event in the
 * caller's transaction `trx`, which should also record the event id:
 *
 * - `payment_intent.succeeded`: the attempt SUCCEEDED, the sales record and
 *   the order PAID, the session's reservations CONSUMED (the stock stays
 *   taken; if a failure had released it, it is taken again), the session
 *   COMPLETED, and the ORDER_CONFIRMATION email with an `o1_` link queued.
 * - `payment_intent.payment_failed`: a PENDING attempt FAILED, the sales
 *   record and order FAILED, the reservations RELEASED (stock back, with
 *   BACK_IN_STOCK emails for variants back from 0), the session
 *   PAYMENT_FAILED: a new payment-session call may retry on the same intent.
 *
 * A success is believed only for the attempt's own amount and currency:
 * another amount, another currency or none at all changes nothing and answers
 * `amount_mismatch` (the event id is still recorded by the caller, so the
 * processor's retries stop; a person looks at it).
 *
 * A success after the session was expired (its payment window passed and
 * the intent was cancelled, or the sandbox, which cannot refuse) is settled
 * like one after a failure: the stock is taken again, floored at 0, because
 * the money is taken and the sale stands.
 *
 * A success for an order cancelled before it was paid (its attempt
 * CANCELLED) takes no money: the attempt, the sales
 * record and the order become REFUNDED, the full refund is owed to the
 * processor (made after the commit and retried by the worker), the change is
 * audited as `order.payment_refunded`; no stock is taken and no confirmation
 * is sent. A failure for it changes nothing. The order's status is judged
 * too: an order CANCELLED whose attempt still awaits payment (cancelled by
 * an earlier release, which changed only the status) has its payment taken
 * back first as `cancelUnpaidCheckoutPayment` does, then a success is
 * refunded the same way, and a failure answers `failed`.
 *
 * Idempotent by state: a replay, a failure after success and an unknown
 * intent change nothing. The session row is locked, then the attempt (the
 * order payment-session takes them in), so concurrent deliveries of events
 * for one intent, and a payment-session call, apply one after the other.
 */
export async function settlePaymentEvent(
  trx: Kysely<Database>,
  event: PaymentWebhookEvent,
  options: SettleOptions,
): Promise<SettlementOutcome> {
  const isSuccess = event.type === 'payment_intent.succeeded';
  const isFailure = event.type === 'payment_intent.payment_failed';
  if ((!isSuccess && !isFailure) || !event.intentId) return { outcome: 'ignored' };

  const found = await trx
    .selectFrom('payment_attempts')
    .select(['organization_id', 'id', 'checkout_session_id'])
    .where('intent_id', '=', event.intentId)
    .executeTakeFirst();
  if (!found) return { outcome: 'unknown_intent' };
  const { session, attempt } = await lockSessionAndAttempt(trx, {
    organizationId: found.organization_id,
    checkoutSessionId: found.checkout_session_id,
    paymentAttemptId: found.id,
  });
  if (session.sales_record_id !== null) {
    if (!options.settleBookingPayment) throw new Error('A booking payment event needs settleBookingPayment');
    return options.settleBookingPayment(trx, {
      session,
      attempt,
      event,
      at: options.at,
      email: options.email,
    });
  }
  const orderId = attempt.order_id!;
  const ids = { organizationId: attempt.organization_id, orderId };
  const target = isSuccess ? 'SUCCEEDED' : 'FAILED';
  if (attempt.status === 'SUCCEEDED' || attempt.status === 'REFUNDED' || attempt.status === target)
    return { outcome: 'unchanged', ...ids };
  if (attempt.status === 'CANCELLED') {
    if (!isSuccess) return { outcome: 'unchanged', ...ids };
    await refundAfterCancel(trx, attempt, options.at, {
      eventId: event.id,
      amountInCents: event.amountInCents,
      currency: event.currency,
    });
    return { outcome: 'refunded', ...ids, paymentAttemptId: attempt.id };
  }
  const order = await findOrder(trx, attempt.organization_id, orderId, 'update');
  if (order.status === 'CANCELLED') {
    // Cancelled by an earlier release, which changed only the order's status: its payment is taken
    // back now as a cancellation does (stock released, session and attempt CANCELLED, intent cancel owed).
    await cancelUnpaidCheckoutPayment(trx, { order, checkout: { session, attempt } }, options);
    if (!isSuccess) return { outcome: 'failed', ...ids };
    await refundAfterCancel(trx, attempt, options.at, {
      eventId: event.id,
      amountInCents: event.amountInCents,
      currency: event.currency,
    });
    return { outcome: 'refunded', ...ids, paymentAttemptId: attempt.id };
  }
  if (isSuccess && (event.amountInCents !== attempt.amount_in_cents || event.currency !== attempt.currency)) {
    return { outcome: 'amount_mismatch', ...ids, paymentAttemptId: attempt.id };
  }

  await trx
    .updateTable('payment_attempts')
    .set({ status: target, updated_at: options.at })
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.id)
    .execute();
  const stockScope = {
    organizationId: attempt.organization_id,
    checkoutSessionId: session.id,
    at: options.at,
  };

  if (isFailure) {
    await setOrderPaymentStatus(trx, order, 'FAILED', options.at);
    await releaseReservations(trx, { ...stockScope, email: options.email });
    await moveSession(trx, session, 'PAYMENT_FAILED', options.at);
    return { outcome: 'failed', ...ids };
  }

  const paid = await setOrderPaymentStatus(trx, order, 'PAID', options.at);
  await emitOrderEvent(trx, 'order.paid', paid, options.at);
  if (attempt.status === 'FAILED') {
    const lines = await sessionLines(trx, session);
    await retakeStock(
      trx,
      stockScope,
      lines.map((line) => ({ variantId: line.variant_id, quantity: line.quantity })),
    );
  } else {
    await consumeReservations(trx, stockScope);
  }
  await completeSession(trx, session, order.id, options.at);
  await confirmCheckoutOrder(trx, paid, options.email, options.at);
  return { outcome: 'paid', ...ids };
}

/**
 * Records that a succeeded payment is given back in full: the attempt
 * REFUNDED (it counts as paid nowhere any more) and its full refund owed to
 * the processor, made after the commit by `runPaymentActions` and retried by
 * the worker with backoff. The caller holds the attempt's lock and audits.
 */
export async function owePaymentRefund(
  trx: Kysely<Database>,
  attempt: Pick<PaymentAttempt, 'organization_id' | 'id'>,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('payment_attempts')
    .set({
      status: 'REFUNDED',
      provider_action: 'REFUND',
      provider_action_due_at: at,
      provider_action_tries: 0,
      updated_at: at,
    })
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.id)
    .execute();
}

/**
 * The success of a cancelled order's intent (its webhook, or the processor's
 * refusal to cancel it): REFUNDED, the refund owed, audited with `metadata`.
 * The caller holds the attempt's lock.
 */
export async function refundAfterCancel(
  trx: Kysely<Database>,
  attempt: Pick<PaymentAttempt, 'organization_id' | 'id' | 'order_id'>,
  at: Date,
  metadata: Record<string, string | number | null>,
): Promise<void> {
  await owePaymentRefund(trx, attempt, at);
  const order = await findOrder(trx, attempt.organization_id, attempt.order_id!, 'update');
  const refunded = await setOrderPaymentStatus(trx, order, 'REFUNDED', at);
  await emitOrderEvent(trx, 'order.refunded', refunded, at);
  await recordAudit(trx, {
    organizationId: attempt.organization_id,
    actor: { userId: null, email: null },
    action: 'order.payment_refunded',
    targetType: 'order',
    targetId: order.id,
    metadata: {
      reason: 'ORDER_CANCELLED',
      paymentAttemptId: attempt.id,
      ...metadata,
    },
    at,
  });
}
