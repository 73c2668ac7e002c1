import { z } from 'zod';

/** The sandbox card form's schemas: a pure module, which the hosted app's browser bundle imports too. */

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
