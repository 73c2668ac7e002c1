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
        `${TOKEN_NOTE} Token-only: do not send \`x-organization-slug\`; the token names the store. The body may be empty. Optional header \`x-idempotency-key\` (alias \`Idempotency-Key\`; 16 to 255 of \`A-Z a-z 0-9 _ . : -\`, else \`400\`; kept 30 days): the same key for the same token answers the recorded outcome with \`idempotent-replayed: true\`, the same key for another token is \`409 IDEMPOTENCY_KEY_REUSED\`. Without a key the route is still idempotent per session. After a failed payment, retry with a new key (or none): a replayed key answers the earlier outcome and does not reserve the stock again.`,
        'For a `BOUND` session with a positive total: creates the order, `PENDING` with `paymentStatus` `AWAITING_PAYMENT`, keeping the session’s stock reserved for it, and one payment intent at the processor (PAYMENT_PROVIDER) for the bound total. Answers `200 { publishableKey, accountId?, clientSecret, orderId, orderReference, amountInCents, currency }`: render the processor’s payment form with it; never create an intent in the client.',
        'One intent per session: a retry, a concurrent call, or a call after a timeout answers the same intent (the processor is called with an idempotency key of the session’s payment attempt). The result the browser sees is not trusted: the signed webhook `POST /webhooks/payments` sets the order `PAID` (stock consumed, `ORDER_CONFIRMATION` emailed) or `FAILED` (stock released). After a failure the same call reserves the stock again (`409 INSUFFICIENT_STOCK` when it is gone) and answers the same intent to retry with another payment method.',
        'A booking payment’s session (the `c1_` of a booking conversion or payment link) is bound to the amount due from the start: the call places no order (`orderId` and `orderReference` are null) and the webhook moves the booking’s Sales record and bookings; once the booking left the payment (expired, cancelled, a newer link), or when its balance due is less than the session’s amount (paid meanwhile through another link), the call is `409 INVALID_STATE_TRANSITION`. A booking never keeps more than its total: a payment that would take more than the open balance is refunded in full.',
        'Once the merchant cancelled the order, every call (a replayed `x-idempotency-key` included, and one whose processor call was in flight during the cancellation) is `409 INVALID_STATE_TRANSITION`: a cancelled order takes no payment.',
        'A session not bound, a zero total (use confirm-free) or a completed session is `409 INVALID_STATE_TRANSITION`. `502 PROVIDER_ERROR` / `503 PROVIDER_UNAVAILABLE` when the processor fails: retry the same call, it reaches the same intent.',
        'Amounts (`amountInCents` and every `*InCents`) are integer minor units of `currency` by its ISO 4217 exponent: cents for USD, yen for JPY (exponent 0), fils for KWD (exponent 3). With Stripe they are sent in Stripe’s own decimals for the currency (ISK ×100); Stripe takes BHD, JOD, KWD, OMR and TND amounts only in multiples of 10 minor units, so another total is refused before the call with `502 PROVIDER_ERROR`.',
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
