import { AppError, secretsEqual } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { PaymentWebhookEvent } from '@commerce/payments';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/**
 * The sandbox processor's test cards, as Stripe's test mode has them: the hosted payment step's
 * development card form takes one of these, never a real card number.
 */
export const SANDBOX_TEST_CARDS = {
  '4242424242424242': { outcome: 'SUCCEEDED', declineCode: null },
  '4000000000000002': { outcome: 'DECLINED', declineCode: 'generic_decline' },
  '4000000000009995': { outcome: 'DECLINED', declineCode: 'insufficient_funds' },
} as const;
type TestCard = keyof typeof SANDBOX_TEST_CARDS;

export const sandboxPaymentConfirmInputSchema = z
  .strictObject({
    clientSecret: z
      .string()
      .min(1)
      .max(200)
      .describe('The `clientSecret` of the payment-session answer (`pi_sandbox_…_secret_…`)'),
    card: z.strictObject({
      number: z
        .string()
        .max(23)
        .transform((value) => value.replace(/[ -]/g, ''))
        .pipe(
          z.enum(Object.keys(SANDBOX_TEST_CARDS) as [TestCard, ...TestCard[]], {
            error: `is not a sandbox test card: use ${Object.keys(SANDBOX_TEST_CARDS).join(', ')}`,
          }),
        )
        .describe(
          'A sandbox test card: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined (generic_decline), 4000 0000 0000 9995 is declined (insufficient_funds); spaces and dashes are ignored',
        ),
      expiry: z
        .string()
        .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, 'must be MM/YY')
        .describe('MM/YY, not in the past'),
      cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
    }),
  })
  .meta({ id: 'SandboxPaymentConfirm' });
export type SandboxPaymentConfirmInput = z.output<typeof sandboxPaymentConfirmInputSchema>;

export const sandboxPaymentResultSchema = z
  .object({
    outcome: z.enum(['SUCCEEDED', 'DECLINED']).describe('What the sandbox processor decided for the card'),
    declineCode: z.string().nullable().describe('Why a card was declined, as Stripe names it'),
  })
  .meta({ id: 'SandboxPaymentResult' });
export type SandboxPaymentResult = z.infer<typeof sandboxPaymentResultSchema>;

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
  const attempt = await db
    .selectFrom('payment_attempts')
    .select(['id', 'status', 'provider', 'client_secret', 'amount_in_cents', 'currency'])
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
  const { count } = await db
    .selectFrom('payment_webhook_events')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('intent_id', '=', intentId)
    .executeTakeFirstOrThrow();
  await scope.apply({
    id: `evt_sandbox_${attempt.id}_${Number(count)}`,
    type: card.outcome === 'SUCCEEDED' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
    intentId,
    amountInCents: attempt.amount_in_cents,
    currency: attempt.currency,
    metadata: {},
    createdAt: scope.at,
  });
  return { outcome: card.outcome, declineCode: card.declineCode };
}
