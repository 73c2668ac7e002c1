import { AppError } from '@commerce/core';
import { type Database, inTransaction, type PaymentProviderAction, recordAudit } from '@commerce/db';
import type { PaymentProvider } from '@commerce/payments';
import type { Kysely } from 'kysely';
import { intentRequestOf } from './create-payment-session.ts';
import { owePaymentRefund, refundAfterCancel } from './settle-payment-event.ts';

/** Where the checkout sweeps and payment actions log. */
export interface CheckoutMaintenanceLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface PaymentActionOptions {
  payments: PaymentProvider;
  at: Date;
  /** Attempts taken per call. */
  batchSize?: number;
  logger?: CheckoutMaintenanceLogger;
  /** Only this attempt: the call made right after the commit that recorded it. */
  only?: { organizationId: string; paymentAttemptId: string };
}

export interface PaymentActionsRun {
  /** Owed calls taken in hand by this run. */
  claimed: number;
  /** The processor accepted them (or said they were done before): nothing is owed any more. */
  done: number;
  /** The processor failed or refused: tried again later, with backoff. */
  failed: number;
}

interface ClaimedAction {
  organizationId: string;
  paymentAttemptId: string;
  action: PaymentProviderAction;
  tries: number;
  intentId: string | null;
  attempt: Parameters<typeof intentRequestOf>[0];
}

const SYSTEM_ACTOR = { userId: null, email: null };

/** One minute after the first failure, doubling, at most an hour apart. */
export function paymentActionBackoffMs(tries: number): number {
  return Math.min(60, 2 ** tries) * 60_000;
}

/**
 * Makes the processor calls payment attempts owe (`provider_action`),
 * recorded by the change that owes them: an order cancelled before it was
 * paid owes the cancellation of its intent, a payment that arrived after
 * that owes its full refund. Called right after that
 * change commits, and by the worker's checkout sweep for whatever is still
 * owed, so a processor that is down is tried again until it answers.
 *
 * 1. A short transaction claims the due attempts `for update skip locked`
 *    and moves their next try out by the backoff, so concurrent runs take
 *    each call once and a run that dies leaves it to a later one.
 * 2. Outside any transaction, each call is made. A cancellation asks for the
 *    intent by the attempt's key when none was stored (the payment-session
 *    call that created it may not have stored it yet) and records its id, so
 *    a later webhook finds the attempt. A refund carries a key stable per
 *    attempt: a retry never refunds twice.
 * 3. The attempt owes nothing more, unless the change it owed was replaced
 *    meanwhile (a cancellation overtaken by a payment that must be refunded).
 *
 * A processor failure is counted and logged, and the call stays owed. So is
 * any other failure (logged with ids only): this never throws, so a request
 * whose change committed never fails on its after-commit call, and a worker
 * run goes on with the next row. A cancellation refused because the intent
 * succeeded is replaced by the refund, made in the same run (the webhook may
 * never come), except for an expired booking's payment, which the webhook's
 * late-payment rule settles; one refused because the intent is processing
 * stays owed.
 */
export async function runPaymentActions(
  db: Kysely<Database>,
  options: PaymentActionOptions,
): Promise<PaymentActionsRun> {
  let claims: ClaimedAction[];
  try {
    claims = await claimPaymentActions(db, options);
  } catch (error) {
    // Nothing was claimed: whatever is owed stays owed for a later run.
    options.logger?.error({ ...options.only, errorName: errorNameOf(error) }, 'payment actions not claimed');
    return { claimed: 0, done: 0, failed: 0 };
  }
  const run: PaymentActionsRun = { claimed: claims.length, done: 0, failed: 0 };
  const refundsOwed: { organizationId: string; paymentAttemptId: string }[] = [];
  for (const claim of claims) {
    const ids = {
      organizationId: claim.organizationId,
      paymentAttemptId: claim.paymentAttemptId,
      action: claim.action,
      tries: claim.tries + 1,
    };
    let outcome: ActionOutcome;
    try {
      outcome = await performAction(options.payments, claim);
      if (outcome.result === 'retry') {
        run.failed += 1;
        options.logger?.info(ids, 'payment intent is processing; its cancellation is retried later');
        continue;
      }
      const refundOwed = await clearAction(db, claim, outcome, options.at);
      if (refundOwed)
        refundsOwed.push({ organizationId: claim.organizationId, paymentAttemptId: claim.paymentAttemptId });
    } catch (error) {
      // The call stays owed (its next try is already set by the claim), and the next one is made.
      run.failed += 1;
      if (error instanceof AppError)
        options.logger?.error(
          { ...ids, code: error.code, err: error },
          'payment action failed; retried later',
        );
      else
        options.logger?.error(
          { ...ids, errorName: errorNameOf(error) },
          'payment action failed; retried later',
        );
      continue;
    }
    run.done += 1;
    options.logger?.info({ ...ids, result: outcome.result }, 'payment action done');
  }
  // A cancellation refused because the payment succeeded: its refund is made now, not left to the webhook.
  for (const only of refundsOwed) {
    const refunded = await runPaymentActions(db, { ...options, only });
    run.claimed += refunded.claimed;
    run.done += refunded.done;
    run.failed += refunded.failed;
  }
  return run;
}

type ActionOutcome = {
  intentId: string;
  refundId: string | null;
  /** `retry`: the intent is processing, neither cancelable nor settled; the cancellation stays owed. */
  result: string;
  /** The cancellation was refused because the intent succeeded: the payment must be refunded. */
  succeeded?: boolean;
};

const errorNameOf = (error: unknown) => (error instanceof Error ? error.name : typeof error);

/**
 * Step 3: the attempt owes nothing more, unless the change it owed was
 * replaced meanwhile. A cancellation refused because the intent succeeded is
 * replaced here by the refund (recorded as a late payment's is), unless it
 * pays a booking that may still keep it; answers whether it was.
 */
async function clearAction(
  db: Kysely<Database>,
  claim: ClaimedAction,
  outcome: ActionOutcome,
  at: Date,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (outcome.succeeded) {
      // Still the cancelled attempt owing this cancellation: the webhook did not settle it meanwhile.
      const owing = await trx
        .selectFrom('payment_attempts')
        .selectAll()
        .where('organization_id', '=', claim.organizationId)
        .where('id', '=', claim.paymentAttemptId)
        .where('status', '=', 'CANCELLED')
        .where('provider_action', '=', 'CANCEL')
        .forUpdate()
        .executeTakeFirst();
      if (owing) {
        await trx
          .updateTable('payment_attempts')
          .set((eb) => ({ intent_id: eb.fn.coalesce('intent_id', eb.val(outcome.intentId)) }))
          .where('organization_id', '=', owing.organization_id)
          .where('id', '=', owing.id)
          .execute();
        const metadata = { source: 'PROVIDER_INTENT_STATUS', intentStatus: 'succeeded' };
        if (owing.order_id !== null) {
          await refundAfterCancel(trx, owing, at, metadata);
          return true;
        }
        // A booking payment whose session was closed takes no money when its bookings cannot keep it
        // (cancelled or declined, or a confirmed booking's closed balance link): refunded in full, as a
        // cancelled order's. Otherwise (an expired booking: a late payment) the webhook's rule decides
        // whether it re-confirms the booking or is refunded, so the action is only cleared
        // (docs/bookings.md, "Booking payments").
        if (await bookingCannotKeep(trx, owing)) {
          await refundClosedBookingPayment(trx, owing, at, metadata);
          return true;
        }
      }
    }
    {
      const cleared = await trx
        .updateTable('payment_attempts')
        .set((eb) => ({
          provider_action: null,
          provider_action_due_at: null,
          refund_id: outcome.refundId ?? eb.ref('refund_id'),
          intent_id: eb.fn.coalesce('intent_id', eb.val(outcome.intentId)),
          updated_at: at,
        }))
        .where('organization_id', '=', claim.organizationId)
        .where('id', '=', claim.paymentAttemptId)
        .where('provider_action', '=', claim.action)
        .returning('order_id')
        .executeTakeFirst();
      if (cleared && claim.action === 'REFUND') {
        const isOrder = cleared.order_id !== null;
        await recordAudit(trx, {
          organizationId: claim.organizationId,
          actor: SYSTEM_ACTOR,
          action: isOrder ? 'order.payment_refund_issued' : 'booking.payment_refund_issued',
          targetType: isOrder ? 'order' : 'payment_attempt',
          targetId: cleared.order_id ?? claim.paymentAttemptId,
          metadata: {
            paymentAttemptId: claim.paymentAttemptId,
            refundId: outcome.refundId,
            result: outcome.result,
          },
          at,
        });
      }
    }
    return false;
  });
}

/**
 * Whether the bookings of a closed booking payment's Sales record can keep no
 * success of it, whatever the webhook would find: all cancelled or declined,
 * or all confirmed (the payment was a closed balance link's). Read from the
 * bookings table directly: this area does not depend on the bookings one.
 */
async function bookingCannotKeep(
  trx: Kysely<Database>,
  attempt: { organization_id: string; checkout_session_id: string },
): Promise<boolean> {
  const bookings = await trx
    .selectFrom('bookings')
    .innerJoin('checkout_sessions', (join) =>
      join
        .onRef('checkout_sessions.organization_id', '=', 'bookings.organization_id')
        .onRef('checkout_sessions.sales_record_id', '=', 'bookings.sales_record_id'),
    )
    .select('bookings.status')
    .where('checkout_sessions.organization_id', '=', attempt.organization_id)
    .where('checkout_sessions.id', '=', attempt.checkout_session_id)
    .execute();
  if (bookings.length === 0) return true;
  const closed = bookings.every((booking) => booking.status === 'CANCELLED' || booking.status === 'DECLINED');
  return closed || bookings.every((booking) => booking.status === 'CONFIRMED');
}

/**
 * A booking payment's intent succeeded although its session was closed (the
 * processor refused to cancel it): the attempt REFUNDED, the refund owed, a
 * Sales record that keeps nothing and was not paid REFUNDED (as the webhook's
 * refund leaves it), audited `booking.payment_refunded` on the record.
 */
async function refundClosedBookingPayment(
  trx: Kysely<Database>,
  attempt: { organization_id: string; id: string; checkout_session_id: string; amount_in_cents: number },
  at: Date,
  metadata: Record<string, string>,
): Promise<void> {
  await owePaymentRefund(trx, attempt, at);
  const session = await trx
    .selectFrom('checkout_sessions')
    .select('sales_record_id')
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.checkout_session_id)
    .executeTakeFirst();
  if (session?.sales_record_id) {
    const kept = await trx
      .selectFrom('checkout_sessions as s')
      .innerJoin('payment_attempts as a', (join) =>
        join.onRef('a.organization_id', '=', 's.organization_id').onRef('a.checkout_session_id', '=', 's.id'),
      )
      .select('a.id')
      .where('s.organization_id', '=', attempt.organization_id)
      .where('s.sales_record_id', '=', session.sales_record_id)
      .where('a.status', '=', 'SUCCEEDED')
      .executeTakeFirst();
    if (!kept)
      await trx
        .updateTable('sales_records')
        .set({ payment_status: 'REFUNDED', updated_at: at })
        .where('organization_id', '=', attempt.organization_id)
        .where('id', '=', session.sales_record_id)
        .where('payment_status', 'in', ['AWAITING_PAYMENT', 'FAILED'])
        .execute();
  }
  await recordAudit(trx, {
    organizationId: attempt.organization_id,
    actor: SYSTEM_ACTOR,
    action: 'booking.payment_refunded',
    targetType: 'sales_record',
    targetId: session?.sales_record_id ?? null,
    metadata: {
      reason: 'PAYMENT_CLOSED',
      paymentAttemptId: attempt.id,
      amountInCents: attempt.amount_in_cents,
      ...metadata,
    },
    at,
  });
}

async function claimPaymentActions(
  db: Kysely<Database>,
  options: PaymentActionOptions,
): Promise<ClaimedAction[]> {
  return inTransaction(db, async (trx) => {
    const due = await trx
      .selectFrom('payment_attempts')
      .select([
        'organization_id',
        'id',
        'checkout_session_id',
        'order_id',
        'amount_in_cents',
        'currency',
        'intent_id',
        'provider_action',
        'provider_action_tries',
      ])
      .where('provider_action', 'is not', null)
      .where('provider_action_due_at', '<=', options.at)
      .$if(options.only !== undefined, (qb) =>
        qb
          .where('organization_id', '=', options.only!.organizationId)
          .where('id', '=', options.only!.paymentAttemptId),
      )
      .orderBy('provider_action_due_at')
      .limit(options.batchSize ?? 100)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of due) {
      await trx
        .updateTable('payment_attempts')
        .set({
          provider_action_due_at: new Date(
            options.at.getTime() + paymentActionBackoffMs(row.provider_action_tries),
          ),
          provider_action_tries: row.provider_action_tries + 1,
        })
        .where('organization_id', '=', row.organization_id)
        .where('id', '=', row.id)
        .execute();
    }
    return due.map((row) => ({
      organizationId: row.organization_id,
      paymentAttemptId: row.id,
      action: row.provider_action!,
      tries: row.provider_action_tries,
      intentId: row.intent_id,
      attempt: row,
    }));
  });
}

async function performAction(payments: PaymentProvider, claim: ClaimedAction): Promise<ActionOutcome> {
  const intentId =
    claim.intentId ?? (await payments.createPaymentIntent(intentRequestOf(claim.attempt))).intentId;
  if (claim.action === 'CANCEL') {
    const cancelled = await payments.cancelPaymentIntent(intentId, {
      // A key per try: the processor replays a key's first answer, a failure included.
      idempotencyKey: `${claim.paymentAttemptId}:cancel-order:${claim.tries}`,
    });
    if (cancelled.outcome === 'canceled') return { intentId, refundId: null, result: cancelled.outcome };
    // Not cancelable because it succeeded: refunded, whether or not its webhook ever arrives.
    if (cancelled.intentStatus === 'succeeded')
      return { intentId, refundId: null, result: cancelled.outcome, succeeded: true };
    // Processing: it ends succeeded (refunded at a later try) or payable again (cancelled at a later try).
    if (cancelled.intentStatus === 'processing') return { intentId, refundId: null, result: 'retry' };
    return { intentId, refundId: null, result: cancelled.outcome };
  }
  const refunded = await payments.refundPayment(intentId, {
    idempotencyKey: `${claim.paymentAttemptId}:refund`,
    metadata: {
      organizationId: claim.organizationId,
      ...(claim.attempt.order_id === null ? {} : { orderId: claim.attempt.order_id }),
      paymentAttemptId: claim.paymentAttemptId,
    },
  });
  return {
    intentId,
    refundId: refunded.outcome === 'refunded' ? refunded.refundId : null,
    result: refunded.outcome,
  };
}
