import { AppError } from '@commerce/core';
import {
  confirmSandboxPayment,
  sandboxPaymentConfirmInputSchema,
  sandboxPaymentResultSchema,
} from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';

export const confirmProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/sandbox-payments/confirm',
      tags: ['Public: checkout'],
      summary: 'Pay with a sandbox test card (development only)',
      description: [
        'Only with `PAYMENT_PROVIDER=sandbox` (the default outside production; a production server runs it only with `ALLOW_SANDBOX_IN_PRODUCTION=true`, every answer then marked `x-sandbox`); with Stripe every call is `404`: the page loads Stripe’s Payment Element with the same `publishableKey` and `clientSecret` instead. This is the sandbox processor’s card form, as Stripe’s test mode has one: body `{ clientSecret, card: { number, expiry, cvc } }`, where `clientSecret` is the `payment-session` answer’s and `number` a test card: `4242 4242 4242 4242` succeeds, `4000 0000 0000 0002` is declined (`generic_decline`), `4000 0000 0000 9995` is declined (`insufficient_funds`); any other number, a past `expiry` (MM/YY) or a bad `cvc` is `400`.',
        'The processor then tells the service through its webhook path, so the order settles exactly as with a real processor (`PAID`, or `FAILED`: the page may start a new payment session). The answer is the card’s outcome only, `{ outcome: SUCCEEDED | DECLINED, declineCode }`: read the order’s state from `GET /public/checkout/sessions/{token}`, never from this answer. An unknown or other store’s client secret is the neutral `404`; a payment no longer pending (paid, failed, cancelled) is `409 INVALID_STATE_TRANSITION` with `details.status`.',
      ].join('\n\n'),
    },
    rateLimit: 'public-checkout',
    errors: ['RESOURCE_NOT_FOUND', 'INVALID_STATE_TRANSITION'],
  })
  .input(sandboxPaymentConfirmInputSchema)
  .output(sandboxPaymentResultSchema)
  .mutation(({ ctx, input }) => {
    const events = ctx.services.paymentEvents;
    if (ctx.services.payments.kind !== 'sandbox' || !events) throw AppError.notFound('Route not found');
    return confirmSandboxPayment(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        at: ctx.clock.now(),
        apply: (event) => events.apply(event),
      },
      input,
    );
  });
