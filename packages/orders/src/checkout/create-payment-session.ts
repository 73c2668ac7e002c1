import { AppError, newId } from '@commerce/core';
import {
  type CheckoutSession,
  type Database,
  inTransaction,
  type PaymentAttempt,
  withIdempotency,
} from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { CreatePaymentIntentInput, PaymentProvider } from '@commerce/payments';
import type { Kysely } from 'kysely';
import { findOrder } from '../orders/order-read.ts';
import { moveSession } from './complete-session.ts';
import { placeCheckoutOrder, setOrderPaymentStatus } from './place-order.ts';
import type { PaymentSessionRead } from './schemas.ts';
import { findSessionByToken, isBookingSession, sessionLines } from './session-store.ts';
import { reserveStock } from './stock.ts';

export interface PaymentSessionScope {
  at: Date;
  email: CustomerEmailConfig;
}

/** The route template the idempotency record of a payment-session key is scoped to. */
export const PAYMENT_SESSION_OPERATION = 'POST /public/checkout/sessions/:token/payment-session';

/**
 * Step 4b, token-only: the processor handoff of a BOUND session with a
 * positive total. One payment intent per session, for its whole life:
 *
 * 1. In a transaction holding the session's row lock, the first call creates
 *    the order (PENDING + AWAITING_PAYMENT, keeping the session's stock
 *    reserved) and records a PENDING payment attempt; a later call finds
 *    that attempt. After a failed payment (PAYMENT_FAILED) a call reserves
 *    the stock again (409 INSUFFICIENT_STOCK when it is gone) and re-arms
 *    the same attempt: the order is AWAITING_PAYMENT again.
 * 2. Outside any transaction the provider is asked for the intent with the
 *    attempt id as its idempotency key, so concurrent calls and retries after
 *    a timeout reach the same intent. Once stored, the handoff is answered
 *    from the attempt without calling the provider.
 *
 * OPEN (not bound), COMPLETED, CANCELLED (the order was cancelled,
 * also when that happens during the call, or before a replay) and
 * zero-total sessions are 409 INVALID_STATE_TRANSITION; unknown or expired
 * tokens a neutral 404.
 */
export async function createPaymentSession(
  db: Kysely<Database>,
  payments: PaymentProvider,
  scope: PaymentSessionScope,
  input: { token: string; idempotencyKey?: string | undefined },
): Promise<PaymentSessionRead & { replayed: boolean }> {
  const { attempt, orderReference, replayed } = await inTransaction(db, async (trx) => {
    const session = await findSessionByToken(trx, input.token, { at: scope.at, lock: true });
    if (input.idempotencyKey === undefined)
      return { ...(await armAttempt(trx, session, payments, scope)), replayed: false };
    // The idempotency key is claimed in this transaction, before the provider is called;
    // its record names the attempt, whose handoff a replay answers (fetched again while still missing).
    const outcome = await withIdempotency(
      trx,
      {
        organizationId: session.organization_id,
        operation: PAYMENT_SESSION_OPERATION,
        key: input.idempotencyKey,
        intent: { params: { token: input.token } },
        retention: 'money',
        now: scope.at,
      },
      async (claimed) => {
        const armed = await armAttempt(claimed, session, payments, scope);
        return { status: 200, body: armed };
      },
      {
        toRecord: (armed) => ({ paymentAttemptId: armed.attempt.id }),
        fromRecord: async (claimed, recorded) => {
          const { paymentAttemptId } = recorded.body as { paymentAttemptId: string };
          const attempt = await claimed
            .selectFrom('payment_attempts')
            .selectAll()
            .where('organization_id', '=', session.organization_id)
            .where('id', '=', paymentAttemptId)
            .executeTakeFirstOrThrow();
          if (attempt.order_id === null) return { attempt, orderReference: null };
          const order = await findOrder(claimed, session.organization_id, attempt.order_id);
          if (order.status === 'CANCELLED') throw orderCancelled();
          return { attempt, orderReference: order.order_reference };
        },
      },
    );
    return { ...outcome.body, replayed: outcome.replayed };
  });

  // A replayed key of an order cancelled since: the recorded handoff would name a cancelled intent.
  if (isCancelled(attempt)) throw orderCancelled();
  if (attempt.client_secret && attempt.publishable_key)
    return { ...handoffOf(attempt, orderReference), replayed };

  const intent = await payments.createPaymentIntent(intentRequestOf(attempt));
  // The first answer is kept; a concurrent call for the same key got the same intent.
  await db
    .updateTable('payment_attempts')
    .set({
      intent_id: intent.intentId,
      client_secret: intent.clientSecret,
      publishable_key: intent.publishableKey,
      account_id: intent.accountId ?? null,
      updated_at: scope.at,
    })
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.id)
    .where('intent_id', 'is', null)
    .execute();
  const stored = await db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.id)
    .executeTakeFirstOrThrow();
  // The order was cancelled during the call: its intent is being cancelled, so nothing is handed off.
  if (isCancelled(stored)) throw orderCancelled();
  return { ...handoffOf(stored, orderReference), replayed };
}

/**
 * Step 1 of the payment session, in the caller's transaction holding the
 * session's lock: the attempt to hand off (created, found, or re-armed).
 */
async function armAttempt(
  trx: Kysely<Database>,
  session: CheckoutSession,
  payments: PaymentProvider,
  scope: PaymentSessionScope,
): Promise<{ attempt: PaymentAttempt; orderReference: string | null }> {
  if (isBookingSession(session)) return armBookingAttempt(trx, session, payments, scope);
  const stockScope = {
    organizationId: session.organization_id,
    checkoutSessionId: session.id,
    at: scope.at,
  };
  if (session.status === 'BOUND') {
    if (session.total_in_cents === 0)
      throw new AppError('INVALID_STATE_TRANSITION', 'The bound total is zero: confirm it with confirm-free');
    // Before the order is placed: a total the processor cannot take must not hold stock for a payment window.
    payments.assertChargeable(session.total_in_cents, session.currency);
    const lines = await sessionLines(trx, session);
    const { order } = await placeCheckoutOrder(trx, session, lines, 'AWAITING_PAYMENT', scope.at);
    const created = await trx
      .insertInto('payment_attempts')
      .values({
        organization_id: session.organization_id,
        id: newId('pat', scope.at),
        checkout_session_id: session.id,
        order_id: order.id,
        provider: payments.kind,
        status: 'PENDING',
        amount_in_cents: order.total_in_cents,
        currency: order.currency,
        created_at: scope.at,
        updated_at: scope.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await moveSession(trx, session, 'AWAITING_PAYMENT', scope.at, { order_id: order.id });
    return { attempt: created, orderReference: order.order_reference };
  }
  if (session.status === 'AWAITING_PAYMENT' || session.status === 'PAYMENT_FAILED') {
    let attempt = await trx
      .selectFrom('payment_attempts')
      .selectAll()
      .where('organization_id', '=', session.organization_id)
      .where('checkout_session_id', '=', session.id)
      .executeTakeFirstOrThrow();
    let order = await findOrder(trx, session.organization_id, attempt.order_id!);
    // Cancelled before cancelling took the payment back (its session and attempt still await payment).
    if (order.status === 'CANCELLED') throw orderCancelled();
    if (session.status === 'PAYMENT_FAILED') {
      await reserveStock(trx, stockScope, await sessionLines(trx, session).then(toStockLines));
      order = await setOrderPaymentStatus(trx, order, 'AWAITING_PAYMENT', scope.at);
      attempt = await trx
        .updateTable('payment_attempts')
        .set({ status: 'PENDING', updated_at: scope.at })
        .where('organization_id', '=', attempt.organization_id)
        .where('id', '=', attempt.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await moveSession(trx, session, 'AWAITING_PAYMENT', scope.at);
    }
    return { attempt, orderReference: order.order_reference };
  }
  if (session.status === 'CANCELLED') throw orderCancelled();
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    session.status === 'OPEN'
      ? 'Bind the checkout session before starting a payment'
      : `A ${session.status} checkout session cannot start a payment`,
  );
}

/**
 * Step 1 for a booking payment's session (docs/bookings.md "Booking payments"): no
 * order is placed and no stock is held; the attempt pays the session's Sales
 * record, whose bookings the webhook moves. After a failure the same attempt
 * is re-armed and the record awaits payment again. A session its booking
 * closed (expired, cancelled, a newer payment link) is CANCELLED: 409. A
 * session asking for more than the record still owes (its balance paid
 * meanwhile through another link) starts or re-arms no attempt: 409.
 */
async function armBookingAttempt(
  trx: Kysely<Database>,
  session: CheckoutSession,
  payments: PaymentProvider,
  scope: PaymentSessionScope,
): Promise<{ attempt: PaymentAttempt; orderReference: null }> {
  const awaitPayment = () =>
    trx
      .updateTable('sales_records')
      .set({ payment_status: 'AWAITING_PAYMENT', updated_at: scope.at })
      .where('organization_id', '=', session.organization_id)
      .where('id', '=', session.sales_record_id!)
      .where('payment_status', '=', 'FAILED')
      .execute();
  if (session.status === 'BOUND' || session.status === 'PAYMENT_FAILED') await assertBalanceDue(trx, session);
  if (session.status === 'BOUND') {
    payments.assertChargeable(session.total_in_cents, session.currency);
    const created = await trx
      .insertInto('payment_attempts')
      .values({
        organization_id: session.organization_id,
        id: newId('pat', scope.at),
        checkout_session_id: session.id,
        order_id: null,
        provider: payments.kind,
        status: 'PENDING',
        amount_in_cents: session.total_in_cents,
        currency: session.currency,
        created_at: scope.at,
        updated_at: scope.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await awaitPayment();
    await moveSession(trx, session, 'AWAITING_PAYMENT', scope.at);
    return { attempt: created, orderReference: null };
  }
  if (session.status === 'AWAITING_PAYMENT' || session.status === 'PAYMENT_FAILED') {
    let attempt = await trx
      .selectFrom('payment_attempts')
      .selectAll()
      .where('organization_id', '=', session.organization_id)
      .where('checkout_session_id', '=', session.id)
      .executeTakeFirstOrThrow();
    if (session.status === 'PAYMENT_FAILED') {
      attempt = await trx
        .updateTable('payment_attempts')
        .set({ status: 'PENDING', updated_at: scope.at })
        .where('organization_id', '=', attempt.organization_id)
        .where('id', '=', attempt.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await awaitPayment();
      await moveSession(trx, session, 'AWAITING_PAYMENT', scope.at);
    }
    return { attempt, orderReference: null };
  }
  throw new AppError(
    'INVALID_STATE_TRANSITION',
    session.status === 'CANCELLED'
      ? 'This booking payment was closed: it takes no payment'
      : `A ${session.status} checkout session cannot start a payment`,
  );
}

/**
 * A booking payment's session starts (or re-arms) an attempt only while its
 * Sales record still owes at least the session's amount: a balance paid
 * meanwhile through another link leaves nothing for this one to take (409).
 * What the record kept is what its succeeded attempts took (refunded ones
 * are REFUNDED, not SUCCEEDED).
 */
async function assertBalanceDue(trx: Kysely<Database>, session: CheckoutSession): Promise<void> {
  const row = await trx
    .selectFrom('sales_records as r')
    .select([
      'r.total_in_cents',
      (eb) =>
        eb
          .selectFrom('checkout_sessions as s')
          .innerJoin('payment_attempts as a', (join) =>
            join
              .onRef('a.organization_id', '=', 's.organization_id')
              .onRef('a.checkout_session_id', '=', 's.id'),
          )
          .select((inner) =>
            inner.fn.coalesce(inner.fn.sum<string | number>('a.amount_in_cents'), inner.lit(0)).as('kept'),
          )
          .whereRef('s.organization_id', '=', 'r.organization_id')
          .whereRef('s.sales_record_id', '=', 'r.id')
          .where('a.status', '=', 'SUCCEEDED')
          .as('kept'),
    ])
    .where('r.organization_id', '=', session.organization_id)
    .where('r.id', '=', session.sales_record_id!)
    .executeTakeFirstOrThrow();
  const open = row.total_in_cents - Number(row.kept ?? 0);
  if (open < session.total_in_cents)
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      open <= 0
        ? 'This booking has no balance due: it takes no payment'
        : 'This booking payment asks for more than the balance due: it takes no payment',
    );
}

const isCancelled = (attempt: PaymentAttempt) =>
  attempt.status === 'CANCELLED' || attempt.status === 'REFUNDED';
const orderCancelled = () =>
  new AppError('INVALID_STATE_TRANSITION', 'The order was cancelled: it takes no payment');

/**
 * The processor request of an attempt's one intent: its id is the
 * idempotency key, so every caller (a retry, the cancellation of an order
 * whose intent was never stored) reaches the same intent.
 */
export function intentRequestOf(
  attempt: Pick<
    PaymentAttempt,
    'organization_id' | 'id' | 'checkout_session_id' | 'order_id' | 'amount_in_cents' | 'currency'
  >,
): CreatePaymentIntentInput {
  return {
    amountInCents: attempt.amount_in_cents,
    currency: attempt.currency,
    idempotencyKey: attempt.id,
    metadata: {
      organizationId: attempt.organization_id,
      checkoutSessionId: attempt.checkout_session_id,
      ...(attempt.order_id === null ? {} : { orderId: attempt.order_id }),
      paymentAttemptId: attempt.id,
    },
  };
}

/** Stock lines of the stored cart, each named in a shortage by its index in the client's cart. */
function toStockLines(
  lines: readonly { item_id: string; variant_id: string | null; quantity: number; position: number }[],
) {
  return lines.map((line) => ({
    itemId: line.item_id,
    variantId: line.variant_id,
    quantity: line.quantity,
    position: line.position,
  }));
}

function handoffOf(attempt: PaymentAttempt, orderReference: string | null): PaymentSessionRead {
  return {
    publishableKey: attempt.publishable_key!,
    ...(attempt.account_id ? { accountId: attempt.account_id } : {}),
    clientSecret: attempt.client_secret!,
    orderId: attempt.order_id,
    orderReference,
    amountInCents: attempt.amount_in_cents,
    currency: attempt.currency,
  };
}
