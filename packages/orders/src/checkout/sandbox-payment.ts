import { AppError, secretsEqual } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { PaymentWebhookEvent } from '@commerce/payments';
import type { Kysely } from 'kysely';

import {
  SANDBOX_TEST_CARDS,
  type SandboxPaymentConfirmInput,
  type SandboxPaymentResult,
} from './sandbox-payment-schemas.ts';

export {
  SANDBOX_TEST_CARDS,
  type SandboxPaymentConfirmInput,
  type SandboxPaymentResult,
  sandboxPaymentConfirmInputSchema,
  sandboxPaymentResultSchema,
} from './sandbox-payment-schemas.ts';

/**
 * Confirms a sandbox payment with a test card, as Stripe's Payment Element confirms a card: the
 * processor decides, then tells the service through its webhook (`apply`: the webhook's own path,
 * so the order settles exactly as with a real processor; the answer is only the card's outcome and
 * the page reads the order's state from the server). The attempt must be the tenant's, of the
 * sandbox, and still `PENDING` (after a decline, the page starts a new payment session); an unknown
 * or foreign client secret is the neutral 404. Nothing here runs with another provider.
 */
export async function confirmSandboxPayment(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date; apply: (event: PaymentWebhookEvent) => Promise<unknown> },
  input: SandboxPaymentConfirmInput,
): Promise<SandboxPaymentResult> {
  const notFound = () => AppError.notFound('Payment not found');
  const intentId = input.clientSecret.split('_secret_')[0] ?? '';
  // The attempt's status and the intent's events so far in one statement, so one snapshot: a
  // settlement commits both at once (the event id and the attempt, in the webhook's transaction), so
  // a confirmation sees either neither (PENDING, the same event number: a duplicate settles once) or
  // both (no longer PENDING: 409). Two reads could see PENDING, then the other's event: a second event.
  const attempt = await db
    .selectFrom('payment_attempts')
    .select((eb) => [
      'id',
      'status',
      'provider',
      'client_secret',
      'amount_in_cents',
      'currency',
      eb
        .selectFrom('payment_webhook_events')
        .select((inner) => inner.fn.countAll<string>().as('count'))
        .where('payment_webhook_events.intent_id', '=', intentId)
        .as('event_count'),
    ])
    .where('intent_id', '=', intentId)
    .where('organization_id', '=', scope.organizationId)
    .executeTakeFirst();
  if (
    attempt?.provider !== 'sandbox' ||
    attempt.client_secret === null ||
    !secretsEqual(attempt.client_secret, input.clientSecret)
  )
    throw notFound();
  const [month, year] = input.card.expiry.split('/').map((part) => Number(part.trim()));
  // A card is good through the last day of its expiry month.
  if (Date.UTC(2000 + year!, month!, 1) <= scope.at.getTime())
    throw AppError.validation([{ path: 'card.expiry', message: 'the card has expired' }]);
  if (attempt.status !== 'PENDING')
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      `This payment is ${attempt.status}: start a new payment session to pay again`,
      { status: attempt.status },
    );
  const card = SANDBOX_TEST_CARDS[input.card.number];
  // The intent's events so far number this one: a double-submitted form makes the same event (settled
  // once), while a payment re-armed after a decline (payment-session again: the same intent, as with
  // Stripe) makes a new one.
  await scope.apply({
    id: `evt_sandbox_${attempt.id}_${Number(attempt.event_count ?? 0)}`,
    type: card.outcome === 'SUCCEEDED' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
    intentId,
    amountInCents: attempt.amount_in_cents,
    currency: attempt.currency,
    metadata: {},
    createdAt: scope.at,
  });
  return { outcome: card.outcome, declineCode: card.declineCode };
}
