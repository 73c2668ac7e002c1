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
        "Only with `PAYMENT_PROVIDER=sandbox` (a production server only with `ALLOW_SANDBOX_IN_PRODUCTION=true`); otherwise `404`. The sandbox processor's card form: `4242 4242 4242 4242` succeeds, `4000 0000 0000 0002` is declined (`generic_decline`), `4000 0000 0000 9995` is declined (`insufficient_funds`).",
        "The order settles through the processor's webhook as with a real one: read its state from the checkout session, never from this answer. An unknown client secret is the neutral `404`; a payment no longer pending is `409 INVALID_STATE_TRANSITION`.",
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
