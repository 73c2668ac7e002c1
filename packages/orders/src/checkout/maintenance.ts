import { AppError, formatMoney, hashToken, isTokenOf, newToken, runPeriodically } from '@commerce/core';
import { type Database, inTransaction } from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import type { CancelPaymentIntentResult, PaymentProvider } from '@commerce/payments';
import { type Kysely, sql } from 'kysely';
import { findOrder } from '../orders/order-read.ts';
import { moveSession } from './complete-session.ts';
import { type CheckoutMaintenanceLogger, runPaymentActions } from './payment-actions.ts';
import { setOrderPaymentStatus } from './place-order.ts';
import { EXPIRING_STATUSES, lockSessionAndAttempt } from './session-store.ts';
import { releaseReservations } from './stock.ts';

export interface SweepOptions {
  at: Date;
  email: CustomerEmailConfig;
  /** Sessions handled per call; the worker calls again while a call fills its batch. */
  batchSize?: number;
}

/**
 * Expires the sessions past `expires_at` that no payment is pending on (OPEN,
 * BOUND, PAYMENT_FAILED), releasing what they reserved (with BACK_IN_STOCK
 * emails for variants back from 0). A booking payment's sessions are left to
 * the bookings worker, which closes them with their booking and cancels the
 * intent of each, a failed one's included. A session awaiting a payment is left to
 * the webhook. Rows are claimed `for update skip locked`, so several workers
 * share the sweep. Returns how many sessions expired.
 */
export async function expireCheckoutSessions(db: Kysely<Database>, options: SweepOptions): Promise<number> {
  return inTransaction(db, async (trx) => {
    const due = await trx
      .selectFrom('checkout_sessions')
      .select(['organization_id', 'id'])
      .where('status', 'in', [...EXPIRING_STATUSES])
      // A booking payment's session is closed by the bookings worker, which also cancels its intent.
      .where('sales_record_id', 'is', null)
      .where('expires_at', '<=', options.at)
      .orderBy('expires_at')
      .limit(options.batchSize ?? 100)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const session of due) {
      await releaseReservations(trx, {
        organizationId: session.organization_id,
        checkoutSessionId: session.id,
        at: options.at,
        email: options.email,
      });
      await trx
        .updateTable('checkout_sessions')
        .set({ status: 'EXPIRED', updated_at: options.at })
        .where('organization_id', '=', session.organization_id)
        .where('id', '=', session.id)
        .execute();
    }
    return due.length;
  });
}

export interface PaymentTimeoutSweepOptions extends SweepOptions {
  payments: PaymentProvider;
  /** CHECKOUT_PAYMENT_TIMEOUT_MINUTES: how long a session may await its payment, from when it started to. */
  timeoutMinutes: number;
  logger?: CheckoutMaintenanceLogger;
}

export interface PaymentTimeoutSweep {
  /** Sessions taken in hand by this call. */
  claimed: number;
  /** Intent cancelled (or never created): the session EXPIRED, the order's payment FAILED, the stock released. */
  expired: number;
  /** The processor says the intent succeeded or is processing: left to the webhook, looked at again one timeout later. */
  leftToWebhook: number;
  /** A webhook or a payment-session call moved the session during the call: nothing done here. */
  skipped: number;
  /** The processor failed: unreachable ones are looked at again at the next sweep, refusals one timeout later. */
  failed: number;
}

interface ClaimedPayment {
  organizationId: string;
  checkoutSessionId: string;
  /** The session's `updated_at` before the claim, put back when the processor cannot be reached. */
  awaitingSince: Date;
  paymentAttemptId: string;
  intentId: string | null;
}

/**
 * Gives back the stock of sessions whose payment window passed: AWAITING_PAYMENT
 * for `timeoutMinutes` since they started to (Stripe's intents never expire
 * on their own, so without this a shopper who leaves the payment form keeps
 * the units for good).
 *
 * 1. A short transaction claims a batch `for update skip locked` by moving
 *    its `updated_at` to now: another worker does not take it, and a worker
 *    that dies mid-batch leaves it to be looked at again one timeout later.
 * 2. Outside any transaction, each intent is cancelled (no row lock is held
 *    across a processor call). If it succeeded or is processing, the webhook
 *    settles it and nothing changes here. If the processor cannot be reached,
 *    the rest of the batch is given back for the next sweep.
 * 3. In a transaction holding the session's lock, then the attempt's (the
 *    order settlement takes them in), the state is read again: a webhook or
 *    a payment-session call may have come meanwhile. An attempt that has not
 *    succeeded and still has the intent that was cancelled becomes FAILED,
 *    the order's payment FAILED (its status is the merchant's), the session's
 *    reservations RELEASED with BACK_IN_STOCK emails, and the session EXPIRED:
 *    its token answers 404 and the shopper starts again from the cart (the
 *    abandoned-cart email links there). A success arriving later is settled
 *    by the webhook as a late payment.
 */
export async function expireUnpaidCheckoutSessions(
  db: Kysely<Database>,
  options: PaymentTimeoutSweepOptions,
): Promise<PaymentTimeoutSweep> {
  const claims = await claimTimedOutPayments(db, options);
  const tally: PaymentTimeoutSweep = {
    claimed: claims.length,
    expired: 0,
    leftToWebhook: 0,
    skipped: 0,
    failed: 0,
  };
  for (const [index, claim] of claims.entries()) {
    const ids = {
      organizationId: claim.organizationId,
      checkoutSessionId: claim.checkoutSessionId,
      paymentAttemptId: claim.paymentAttemptId,
      intentId: claim.intentId,
    };
    let cancelled: CancelPaymentIntentResult = { outcome: 'canceled' };
    if (claim.intentId !== null) {
      try {
        cancelled = await options.payments.cancelPaymentIntent(claim.intentId, {
          // A new key per claim: Stripe replays a key's first answer for a day, and "processing" may change.
          idempotencyKey: `${claim.paymentAttemptId}:cancel:${options.at.getTime()}`,
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.code === 'PROVIDER_UNAVAILABLE') {
          const rest = claims.slice(index);
          await unclaim(db, rest, options.at);
          tally.failed += rest.length;
          options.logger?.error(
            { ...ids, code: error.code, err: error },
            'payment timeout: processor unreachable',
          );
          break;
        }
        tally.failed += 1;
        options.logger?.error({ ...ids, code: error.code, err: error }, 'payment timeout: cancel refused');
        continue;
      }
    }
    if (cancelled.outcome === 'not_cancelable') {
      tally.leftToWebhook += 1;
      options.logger?.info(
        { ...ids, intentStatus: cancelled.intentStatus },
        'payment timeout: intent not cancelable, left to the webhook',
      );
      continue;
    }
    const isExpired = await inTransaction(db, (trx) => expireAfterCancel(trx, claim, options));
    if (isExpired) tally.expired += 1;
    else tally.skipped += 1;
  }
  return tally;
}

async function claimTimedOutPayments(
  db: Kysely<Database>,
  options: PaymentTimeoutSweepOptions,
): Promise<ClaimedPayment[]> {
  const startedBefore = new Date(options.at.getTime() - options.timeoutMinutes * 60_000);
  return inTransaction(db, async (trx) => {
    const due = await trx
      .selectFrom('checkout_sessions')
      .select(['organization_id', 'id', 'updated_at'])
      .where('status', '=', 'AWAITING_PAYMENT')
      // A booking payment's window is its booking's, closed by the bookings worker.
      .where('sales_record_id', 'is', null)
      .where('updated_at', '<=', startedBefore)
      .orderBy('updated_at')
      .limit(options.batchSize ?? 100)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    await trx
      .updateTable('checkout_sessions')
      .set({ updated_at: options.at })
      .where(({ eb, or, and }) =>
        or(due.map((row) => and([eb('organization_id', '=', row.organization_id), eb('id', '=', row.id)]))),
      )
      .execute();
    const attempts = await trx
      .selectFrom('payment_attempts')
      .select(['organization_id', 'checkout_session_id', 'id', 'intent_id'])
      .where(({ eb, or, and }) =>
        or(
          due.map((row) =>
            and([eb('organization_id', '=', row.organization_id), eb('checkout_session_id', '=', row.id)]),
          ),
        ),
      )
      .execute();
    return due.flatMap((session) => {
      const attempt = attempts.find(
        (row) => row.organization_id === session.organization_id && row.checkout_session_id === session.id,
      );
      // payment-session writes the attempt and the AWAITING_PAYMENT state in one transaction.
      if (!attempt) return [];
      return [
        {
          organizationId: session.organization_id,
          checkoutSessionId: session.id,
          awaitingSince: session.updated_at,
          paymentAttemptId: attempt.id,
          intentId: attempt.intent_id,
        },
      ];
    });
  });
}

/** Puts claimed sessions back as they were, unless something moved them since. */
async function unclaim(
  db: Kysely<Database>,
  claims: readonly ClaimedPayment[],
  claimedAt: Date,
): Promise<void> {
  for (const claim of claims) {
    await db
      .updateTable('checkout_sessions')
      .set({ updated_at: claim.awaitingSince })
      .where('organization_id', '=', claim.organizationId)
      .where('id', '=', claim.checkoutSessionId)
      .where('status', '=', 'AWAITING_PAYMENT')
      .where('updated_at', '=', claimedAt)
      .execute();
  }
}

/** Step 3 of the sweep, in its own transaction: true when the session expired. */
async function expireAfterCancel(
  trx: Kysely<Database>,
  claim: ClaimedPayment,
  options: PaymentTimeoutSweepOptions,
): Promise<boolean> {
  const { session, attempt } = await lockSessionAndAttempt(trx, claim);
  // PAYMENT_FAILED: a failure webhook came during the call (and released the stock); the intent is
  // cancelled now, so that session cannot pay any more either.
  if (session.status !== 'AWAITING_PAYMENT' && session.status !== 'PAYMENT_FAILED') return false;
  // An intent created during the call was not cancelled: the next claim cancels it.
  if (attempt.status === 'SUCCEEDED' || attempt.intent_id !== claim.intentId) return false;
  await trx
    .updateTable('payment_attempts')
    .set({ status: 'FAILED', updated_at: options.at })
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.id)
    .execute();
  if (attempt.order_id === null) return false;
  const order = await findOrder(trx, attempt.organization_id, attempt.order_id, 'update');
  if (order.payment_status !== 'FAILED') await setOrderPaymentStatus(trx, order, 'FAILED', options.at);
  await releaseReservations(trx, {
    organizationId: session.organization_id,
    checkoutSessionId: session.id,
    at: options.at,
    email: options.email,
  });
  await moveSession(trx, session, 'EXPIRED', options.at);
  return true;
}

/** The storefront page that rebuilds a cart from its lines: no credential, only ids and quantities. */
export function cartRecoveryPath(
  lines: readonly { item_id: string; variant_id: string | null; quantity: number }[],
): string {
  const items = lines.map((line) => `${line.item_id}:${line.variant_id ?? ''}:${line.quantity}`).join(',');
  return `/cart/recover?items=${encodeURIComponent(items)}`;
}

/** The storefront page of a reminder's unsubscribe link; it posts the token to `POST /public/checkout/reminders/unsubscribe`. */
export function cartRemindersUnsubscribePath(token: string): string {
  return `/cart/reminders/unsubscribe?token=${token}`;
}

/**
 * Queues one ABANDONED_CART_RECOVERY email per session that has an email,
 * was created at least `delayMinutes` ago and is not paid (any state but
 * COMPLETED and CANCELLED), once: `abandoned_email_queued_at` is set in the same
 * transaction, and the rows are claimed `for update skip locked`. An address
 * that unsubscribed from reminders of the store is marked and not mailed.
 * Each email carries a link rebuilding the cart and its own unsubscribe link.
 * Returns how many emails were queued.
 */
export async function queueAbandonedCartEmails(
  db: Kysely<Database>,
  options: SweepOptions & { delayMinutes: number },
): Promise<number> {
  const createdBefore = new Date(options.at.getTime() - options.delayMinutes * 60_000);
  return inTransaction(db, async (trx) => {
    const due = await trx
      .selectFrom('checkout_sessions as s')
      .select([
        's.organization_id',
        's.id',
        's.email',
        's.customer_name',
        's.currency',
        's.subtotal_in_cents',
        sql<boolean>`exists (select 1 from abandoned_cart_opt_outs o where o.organization_id = s.organization_id and o.email = s.email)`.as(
          'optedOut',
        ),
      ])
      .where('s.email', 'is not', null)
      .where('s.abandoned_email_queued_at', 'is', null)
      .where('s.status', '<>', 'COMPLETED')
      // A cancelled order's cart is the merchant's decision, not an abandoned one.
      .where('s.status', '<>', 'CANCELLED')
      // A booking payment is not a cart: its reminders are the booking's emails.
      .where('s.sales_record_id', 'is', null)
      .where('s.created_at', '<=', createdBefore)
      .orderBy('s.created_at')
      .limit(options.batchSize ?? 100)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return 0;
    await trx
      .updateTable('checkout_sessions')
      .set({ abandoned_email_queued_at: options.at })
      .where(({ eb, or, and }) =>
        or(due.map((row) => and([eb('organization_id', '=', row.organization_id), eb('id', '=', row.id)]))),
      )
      .execute();
    const lines = await trx
      .selectFrom('checkout_session_lines')
      .select(['checkout_session_id', 'item_id', 'variant_id', 'quantity', 'position'])
      .where(({ eb, or, and }) =>
        or(
          due.map((row) =>
            and([eb('organization_id', '=', row.organization_id), eb('checkout_session_id', '=', row.id)]),
          ),
        ),
      )
      .orderBy('checkout_session_id')
      .orderBy('position')
      .execute();
    let queued = 0;
    for (const session of due) {
      if (session.optedOut) continue;
      const cart = lines.filter((line) => line.checkout_session_id === session.id);
      if (cart.length === 0) continue;
      const token = newToken('unsubscribe');
      await trx
        .insertInto('abandoned_cart_unsubscribe_tokens')
        .values({
          token_hash: hashToken(token),
          organization_id: session.organization_id,
          email: session.email!,
          created_at: options.at,
        })
        .execute();
      await enqueueTemplatedEmail(trx, {
        organizationId: session.organization_id,
        type: 'ABANDONED_CART_RECOVERY',
        to: session.email!,
        values: {
          'customer.name': session.customer_name ?? '',
          'cart.itemCount': String(cart.reduce((sum, line) => sum + line.quantity, 0)),
          'cart.total': formatMoney(session.subtotal_in_cents, session.currency),
        },
        links: {
          action: customerLink(options.email, cartRecoveryPath(cart)),
          unsubscribe: customerLink(options.email, cartRemindersUnsubscribePath(token)),
        },
        emailFrom: options.email.emailFrom,
        metadata: { checkoutSessionId: session.id },
        at: options.at,
      });
      queued += 1;
    }
    return queued;
  });
}

/**
 * The unsubscribe link of an abandoned-cart reminder: the address gets no
 * more reminders from that store. Returns false for a token that is not one
 * (the caller answers its neutral 404); using a link again is harmless.
 */
export async function unsubscribeFromCartReminders(
  db: Kysely<Database>,
  token: string,
  at: Date,
): Promise<boolean> {
  if (!isTokenOf('unsubscribe', token)) return false;
  const row = await db
    .selectFrom('abandoned_cart_unsubscribe_tokens')
    .select(['organization_id', 'email'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return false;
  await db
    .insertInto('abandoned_cart_opt_outs')
    .values({ organization_id: row.organization_id, email: row.email, created_at: at })
    .onConflict((oc) => oc.columns(['organization_id', 'email']).doNothing())
    .execute();
  return true;
}

export interface RunningCheckoutMaintenance {
  /** One sweep now (tests, and the loop). */
  runOnce(): Promise<{
    expired: number;
    paymentsTimedOut: number;
    reminded: number;
    paymentActionsDone: number;
  }>;
  stop(): Promise<void>;
}

/**
 * The worker's checkout jobs, every `intervalMs`: expire sessions (releasing
 * their stock), cancel the payments of sessions past their payment window
 * (when `paymentTimeout` is given: the processor and
 * CHECKOUT_PAYMENT_TIMEOUT_MINUTES), then queue abandoned-cart reminders. A
 * sweep that fills its batch runs again at once. Then, with the same
 * processor, the calls payment attempts still owe (`runPaymentActions`),
 * one batch per tick. Runs in apps/worker, and
 * inside the gateway on the embedded database.
 */
export function startCheckoutMaintenance(dependencies: {
  db: Kysely<Database>;
  clock: { now(): Date };
  email: CustomerEmailConfig;
  abandonedCartDelayMinutes: number;
  paymentTimeout?: { payments: PaymentProvider; minutes: number };
  intervalMs: number;
  logger: CheckoutMaintenanceLogger;
  batchSize?: number;
}): RunningCheckoutMaintenance {
  const batchSize = dependencies.batchSize ?? 100;

  const runOnce = async () => {
    let expired = 0;
    let paymentsTimedOut = 0;
    let reminded = 0;
    for (;;) {
      const options = { at: dependencies.clock.now(), email: dependencies.email, batchSize };
      const expiredNow = await expireCheckoutSessions(dependencies.db, options);
      const payments = dependencies.paymentTimeout
        ? await expireUnpaidCheckoutSessions(dependencies.db, {
            ...options,
            payments: dependencies.paymentTimeout.payments,
            timeoutMinutes: dependencies.paymentTimeout.minutes,
            logger: dependencies.logger,
          })
        : undefined;
      const remindedNow = await queueAbandonedCartEmails(dependencies.db, {
        ...options,
        delayMinutes: dependencies.abandonedCartDelayMinutes,
      });
      expired += expiredNow;
      paymentsTimedOut += payments?.expired ?? 0;
      reminded += remindedNow;
      // Claimed payments are not claimed again at once; a failed batch waits for the next tick.
      const isPaymentBatchFull =
        payments !== undefined && payments.claimed === batchSize && payments.failed === 0;
      if (periodic.stopped || (expiredNow < batchSize && remindedNow < batchSize && !isPaymentBatchFull))
        break;
    }
    // Processor calls still owed (cancelled orders' intents, late payments' refunds), each on its backoff.
    const actions = dependencies.paymentTimeout
      ? await runPaymentActions(dependencies.db, {
          payments: dependencies.paymentTimeout.payments,
          at: dependencies.clock.now(),
          batchSize,
          logger: dependencies.logger,
        })
      : undefined;
    const paymentActionsDone = actions?.done ?? 0;
    if (expired + paymentsTimedOut + reminded + paymentActionsDone > 0)
      dependencies.logger.info({ expired, paymentsTimedOut, reminded, paymentActionsDone }, 'checkout sweep');
    return { expired, paymentsTimedOut, reminded, paymentActionsDone };
  };

  const periodic = runPeriodically(runOnce, {
    intervalMs: dependencies.intervalMs,
    onError: (error) => dependencies.logger.error({ err: error }, 'checkout sweep failed'),
  });
  return { runOnce, stop: () => periodic.stop() };
}
