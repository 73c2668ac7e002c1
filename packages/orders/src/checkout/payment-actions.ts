import { AppError } from '@commerce/core';
import { type Database, inTransaction, type PaymentProviderAction, recordAudit } from '@commerce/db';
import type { PaymentProvider } from '@commerce/payments';
import type { Kysely } from 'kysely';
import { intentRequestOf } from './create-payment-session.ts';
import type { CheckoutMaintenanceLogger } from './maintenance.ts';

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
 * that owes its full refund (CONTRACT.md section 9). Called right after that
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
 * A processor failure is counted and logged, and the call stays owed.
 */
export async function runPaymentActions(
  db: Kysely<Database>,
  options: PaymentActionOptions,
): Promise<PaymentActionsRun> {
  const claims = await claimPaymentActions(db, options);
  const run: PaymentActionsRun = { claimed: claims.length, done: 0, failed: 0 };
  for (const claim of claims) {
    const ids = {
      organizationId: claim.organizationId,
      paymentAttemptId: claim.paymentAttemptId,
      action: claim.action,
      tries: claim.tries + 1,
    };
    let outcome: { intentId: string; refundId: string | null; result: string };
    try {
      outcome = await performAction(options.payments, claim);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      run.failed += 1;
      options.logger?.error({ ...ids, code: error.code, err: error }, 'payment action failed; retried later');
      continue;
    }
    await inTransaction(db, async (trx) => {
      const cleared = await trx
        .updateTable('payment_attempts')
        .set((eb) => ({
          provider_action: null,
          provider_action_due_at: null,
          refund_id: outcome.refundId ?? eb.ref('refund_id'),
          intent_id: eb.fn.coalesce('intent_id', eb.val(outcome.intentId)),
          updated_at: options.at,
        }))
        .where('organization_id', '=', claim.organizationId)
        .where('id', '=', claim.paymentAttemptId)
        .where('provider_action', '=', claim.action)
        .returning('order_id')
        .executeTakeFirst();
      if (cleared && claim.action === 'REFUND') {
        await recordAudit(trx, {
          organizationId: claim.organizationId,
          actor: SYSTEM_ACTOR,
          action: 'order.payment_refund_issued',
          targetType: 'order',
          targetId: cleared.order_id,
          metadata: {
            paymentAttemptId: claim.paymentAttemptId,
            refundId: outcome.refundId,
            result: outcome.result,
          },
          at: options.at,
        });
      }
    });
    run.done += 1;
    options.logger?.info({ ...ids, result: outcome.result }, 'payment action done');
  }
  return run;
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

async function performAction(
  payments: PaymentProvider,
  claim: ClaimedAction,
): Promise<{ intentId: string; refundId: string | null; result: string }> {
  const intentId =
    claim.intentId ?? (await payments.createPaymentIntent(intentRequestOf(claim.attempt))).intentId;
  if (claim.action === 'CANCEL') {
    const cancelled = await payments.cancelPaymentIntent(intentId, {
      // A key per try: the processor replays a key's first answer, a failure included.
      idempotencyKey: `${claim.paymentAttemptId}:cancel-order:${claim.tries}`,
    });
    // Not cancelable: it succeeded or is processing, and the webhook settles it (a success is refunded).
    return { intentId, refundId: null, result: cancelled.outcome };
  }
  const refunded = await payments.refundPayment(intentId, {
    idempotencyKey: `${claim.paymentAttemptId}:refund`,
    metadata: {
      organizationId: claim.organizationId,
      orderId: claim.attempt.order_id,
      paymentAttemptId: claim.paymentAttemptId,
    },
  });
  return {
    intentId,
    refundId: refunded.outcome === 'refunded' ? refunded.refundId : null,
    result: refunded.outcome,
  };
}
