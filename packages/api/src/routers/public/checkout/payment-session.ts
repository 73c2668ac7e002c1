import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { checkoutTokenInputSchema, createPaymentSession, paymentSessionSchema } from '@commerce/orders';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { publicProcedure } from '../../../trpc.ts';
import { TAGS, TOKEN_NOTE } from './docs.ts';

export const paymentSessionProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/sessions/{token}/payment-session',
      tags: TAGS,
      summary: 'Hand the payment to the processor (step 4b)',
      description: [
        "Token-only: send no `x-organization-slug`. For a `BOUND` session with a positive total: creates the order (`AWAITING_PAYMENT`) and one payment intent for the bound total; render the processor's payment form with the answer. A retry, a concurrent call, or a replay under the optional `x-idempotency-key` reaches the same intent; after a failed payment the call reserves the stock again. Only the processor's signed webhook marks the order `PAID` or `FAILED`, never the browser's result.",
        `A booking payment's session places no order (\`orderId\` null) and is \`409\` once the booking left the payment or its balance due fell below the session's amount. A cancelled order takes no payment (\`409\`). With Stripe, a BHD, JOD, KWD, OMR or TND total that is not a multiple of 10 minor units is refused with \`502 PROVIDER_ERROR\`. ${TOKEN_NOTE}`,
      ].join('\n\n'),
    },
    rateLimit: 'public-checkout',
    errors: [
      'RESOURCE_NOT_FOUND',
      'IDEMPOTENCY_KEY_REUSED',
      'INVALID_STATE_TRANSITION',
      'INSUFFICIENT_STOCK',
      'PROVIDER_ERROR',
      'PROVIDER_UNAVAILABLE',
    ],
  })
  .input(checkoutTokenInputSchema)
  .output(paymentSessionSchema)
  .mutation(async ({ ctx, input }) => {
    const idempotencyKey = readIdempotencyKey(ctx.request.headers);
    const { replayed, ...handoff } = await createPaymentSession(
      ctx.db,
      ctx.services.payments,
      { at: ctx.clock.now(), email: customerEmailConfig(ctx) },
      { ...input, idempotencyKey },
    );
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return handoff;
  });
