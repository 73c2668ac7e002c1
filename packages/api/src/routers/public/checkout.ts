import { getSettings } from '@commerce/admin';
import { AppError } from '@commerce/core';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  bindCheckoutSession,
  bindCheckoutSessionInputSchema,
  cartRemindersUnsubscribeInputSchema,
  cartRemindersUnsubscribeResultSchema,
  checkoutSessionSchema,
  checkoutTokenInputSchema,
  confirmFreeCheckout,
  createCheckoutSession,
  createCheckoutSessionInputSchema,
  createdCheckoutSessionSchema,
  createdLegacyOrderSchema,
  createPaymentSession,
  getCheckoutSession,
  paymentSessionSchema,
  repriceCheckoutSession,
  repriceCheckoutSessionInputSchema,
  taxProviderFor,
  unsubscribeFromCartReminders,
} from '@commerce/orders';
import { rateLimitKey } from '@commerce/rate-limit';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { publicProcedure, router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Public: checkout'];

const TOKEN_NOTE =
  'The `{token}` is the `c1_` capability of the create response. A malformed, unknown, expired or other store’s token is one neutral `404 RESOURCE_NOT_FOUND`.';

const SESSION_NOTE =
  'Answers the session: `status` (`OPEN`, `BOUND`, `AWAITING_PAYMENT`, `PAYMENT_FAILED`, `COMPLETED`, or `CANCELLED` when the merchant cancelled its order before it was paid), the lines priced from the catalog (`unitPriceInCents`: the variant’s sale price, else its price, else the item’s price; `type`: `PRODUCT` for a `SALE` item, `SERVICE` for a `SERVICE` item), `shippingRequired` and `shippingOptions` (only for a cart with a `PRODUCT` line: the active rates of the active zones listing `shippingCountry` whose `minimumSubtotalInCents` the subtotal reaches), `shippingRateId` (the one chosen, else the current one while it stays an option, else the cheapest), `subtotalInCents`, `shippingInCents`, `taxInCents`, `taxIncluded`, `totalInCents`, `currency` (the store’s `checkoutSettings.currency`), `expiresAt`.';

const LINES_NOTE =
  'A line naming a `RENTAL` item is `400 VALIDATION_FAILED` (`lines.N.itemId`): rentals are booked through a booking service, never bought.';

export const publicCheckoutRouter = router({
  create: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/checkout/sessions',
        tags: TAGS,
        summary: 'Start a checkout session (step 1)',
        description: [
          'Body: `lines` (1 to 100 of `{ itemId, variantId?, quantity }`, quantity 1 to 999; lines naming the same item and variant are merged), and optionally `email`, `customerName` (1 to 200), `customerPhone` (at most 50), `shippingCountry` (ISO 3166-1 alpha-2), `shippingRateId`. No names or prices: the server prices every line from the catalog. Each `itemId` must be an `ACTIVE`, unarchived item of the store; `variantId` a non-archived variant of it, required when the item has variants; otherwise `400 VALIDATION_FAILED` with one issue per bad line (`lines.N.itemId`, `lines.N.variantId`, `lines.N` for an item without a price). A `shippingRateId` that is not an option is `400` (path `shippingRateId`).',
          LINES_NOTE,
          `Answers \`201\` with the session (\`OPEN\`) and \`checkoutToken\`, a \`c1_\` capability shown only here (stored hashed): keep it as a credential; every later step takes it in the path. The session lives CHECKOUT_SESSION_TTL_MINUTES (default 60). ${SESSION_NOTE}`,
          'Nothing is reserved yet: stock is held from bind. Rate-limited per client (300 per 10 minutes across the checkout routes).',
        ].join('\n\n'),
      },
      successStatus: 201,
      rateLimit: 'public-checkout',
    })
    .input(createCheckoutSessionInputSchema)
    .output(createdCheckoutSessionSchema)
    .mutation(async ({ ctx, input }) => {
      const at = ctx.clock.now();
      const settings = await getSettings(ctx.db, ctx.tenant.organizationId, at);
      return createCheckoutSession(
        ctx.db,
        {
          organizationId: ctx.tenant.organizationId,
          currency: settings.checkoutSettings.currency,
          ttlMinutes: ctx.config.checkout.sessionTtlMinutes,
          at,
        },
        input,
      );
    }),

  get: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/checkout/sessions/{token}',
        tags: TAGS,
        summary: 'Read a checkout session',
        description: [
          `${TOKEN_NOTE} Changes nothing: the lines and shipping options as last priced (\`reprice\` prices them again). A payment page reads this after the processor’s form returns: \`paymentStatus\` (\`AWAITING_PAYMENT\`, \`PAID\`, \`FAILED\` …) is set by the server from the provider’s webhook, never from the browser’s result, and \`status\` becomes \`COMPLETED\` once the order is paid.`,
          SESSION_NOTE,
        ].join('\n\n'),
      },
      rateLimit: 'public-read',
    })
    .input(checkoutTokenInputSchema)
    .output(checkoutSessionSchema)
    .query(({ ctx, input }) =>
      getCheckoutSession(
        ctx.db,
        { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() },
        input.token,
      ),
    ),

  reprice: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/checkout/sessions/{token}/reprice',
        tags: TAGS,
        summary: 'Update the cart and price it again (step 2)',
        description: [
          `${TOKEN_NOTE} Body (every field optional, an empty body reprices): \`lines\` replaces the whole cart; \`email\`, \`customerName\`, \`customerPhone\`, \`shippingCountry\`, \`shippingRateId\` change those fields (\`null\` clears; a cleared rate falls back to the cheapest option). Validation as on create. ${LINES_NOTE}`,
          `Prices come from the catalog as it is now. Allowed while \`OPEN\` or \`BOUND\`: a \`BOUND\` session goes back to \`OPEN\`, releases its stock and must be bound again. Once a payment started or the order exists, and for a booking payment’s session (bound to the amount due), \`409 INVALID_STATE_TRANSITION\`. ${SESSION_NOTE}`,
        ].join('\n\n'),
      },
      rateLimit: 'public-checkout',
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(repriceCheckoutSessionInputSchema)
    .output(checkoutSessionSchema)
    .mutation(({ ctx, input }) =>
      repriceCheckoutSession(
        ctx.db,
        { organizationId: ctx.tenant.organizationId, at: ctx.clock.now(), email: customerEmailConfig(ctx) },
        input,
      ),
    ),

  bind: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/checkout/sessions/{token}/bind',
        tags: TAGS,
        summary: 'Freeze the total and reserve the stock (step 3)',
        description: [
          `${TOKEN_NOTE} Body: optional \`shippingRateId\` (one of the session’s \`shippingOptions\`). Needs \`email\` and \`customerName\` on the session, and, when the store ships (\`shippingRequired\`), a \`shippingCountry\` with an option: otherwise \`400 VALIDATION_FAILED\` naming each missing field.`,
          'The cart is priced again from the catalog. If a line price or the shipping fee changed since the session was last priced, or a line is no longer sellable, the new prices are saved and the answer is `409 STALE_STATE`: show them and bind again. With a tax provider (TAX_PROVIDER=sandbox: a per-country rate on goods and shipping), tax is added to the total; when the store’s prices include tax (`checkoutSettings.taxIncludedInPrices`), the tax they hold is recorded in `taxInCents` with `taxIncluded: true` and the total stays subtotal + shipping. Without a provider `taxInCents` is 0.',
          'Tracked variants (`inventoryQuantity` not null; a `SERVICE` line only when its variant tracks inventory) are reserved: their available quantity goes down now and comes back if the session expires, is repriced, or its payment fails. Concurrent checkouts of the last units never oversell: one binds, the others get `409 INSUFFICIENT_STOCK` with `details.shortages[{ path, itemId, variantId, requestedQuantity }]` naming each short line (`lines.N`; the quantity available is never shown), and nothing is reserved for them. Binding again (a retry) holds the stock once.',
          'The hold lasts CHECKOUT_HOLD_MINUTES (default 15) from the session’s first bind, whatever the rebinds or reprices: `expiresAt` is then fixed, and the session expires (its stock released) at that time unless a payment started. The units held at once by the sessions one client address bound in the store are capped (CHECKOUT_MAX_HELD_UNITS_PER_CLIENT, default 20, counted on tracked variants, concurrent binds included): a bind over it is `429 RATE_LIMIT_EXCEEDED` with `Retry-After` (seconds until the client’s next hold ends) and reserves nothing.',
          `Answers \`200\` with the session \`BOUND\` and its frozen \`subtotalInCents\`, \`shippingInCents\`, \`taxInCents\`, \`totalInCents\`, \`currency\`. Then \`confirm-free\` (total 0) or \`payment-session\` (total above 0). After a payment started, and for a booking payment’s session (bound to the amount due), \`409 INVALID_STATE_TRANSITION\`.`,
        ].join('\n\n'),
      },
      rateLimit: 'public-checkout',
      errors: ['STALE_STATE', 'INSUFFICIENT_STOCK', 'INVALID_STATE_TRANSITION', 'RATE_LIMIT_EXCEEDED'],
    })
    .input(bindCheckoutSessionInputSchema)
    .output(checkoutSessionSchema)
    .mutation(async ({ ctx, input }) => {
      const at = ctx.clock.now();
      const settings = await getSettings(ctx.db, ctx.tenant.organizationId, at);
      return bindCheckoutSession(
        ctx.db,
        {
          organizationId: ctx.tenant.organizationId,
          at,
          email: customerEmailConfig(ctx),
          tax: taxProviderFor(ctx.config.checkout.taxProvider),
          taxIncludedInPrices: settings.checkoutSettings.taxIncludedInPrices,
          holdMinutes: ctx.config.checkout.holdMinutes,
          // The client as the rate limiter keys it: tenant and client address, hashed.
          client: {
            key: rateLimitKey([ctx.tenant.organizationId, ctx.request.clientIp]),
            maxHeldUnits: ctx.config.checkout.maxHeldUnitsPerClient,
          },
        },
        input,
      );
    }),

  confirmFree: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/checkout/sessions/{token}/confirm-free',
        tags: TAGS,
        summary: 'Place the order of a zero total (step 4a)',
        description: [
          `${TOKEN_NOTE} Send the tenant header; the body may be empty. For a \`BOUND\` session whose total is 0: the order is created \`PENDING\` with \`paymentStatus\` \`NOT_REQUIRED\`, its reserved stock is consumed, the \`ORDER_CONFIRMATION\` email is queued and the session is \`COMPLETED\`.`,
          'Answers `201` with the order (as `POST /public/orders` does: no `notes`) and `orderStatusToken` (`o1_…`, for `POST /public/order-status`). Repeating the call answers the same order with a new `orderStatusToken`. A positive bound total, or a session not bound, is `409 INVALID_STATE_TRANSITION`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      rateLimit: 'public-checkout',
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(checkoutTokenInputSchema)
    .output(createdLegacyOrderSchema)
    .mutation(({ ctx, input }) =>
      confirmFreeCheckout(
        ctx.db,
        { organizationId: ctx.tenant.organizationId, at: ctx.clock.now(), email: customerEmailConfig(ctx) },
        input,
      ),
    ),

  paymentSession: publicProcedure
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
    }),

  remindersUnsubscribe: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/checkout/reminders/unsubscribe',
        tags: TAGS,
        summary: 'Stop abandoned-cart reminders through the link of one',
        description: [
          'An `ABANDONED_CART_RECOVERY` email (queued once per unpaid checkout session with an email, ABANDONED_CART_DELAY_MINUTES after it was created, default 60) carries `{HOSTED_CHECKOUT_URL}/cart/reminders/unsubscribe?token=u1_…`; that page posts the `token` here (in the body, out of access logs). The token alone names the store: no `x-organization-slug`.',
          'The address gets no more reminders from that store. Every link works as often as it is used: `200 { status: "UNSUBSCRIBED", subscriptionType: "ABANDONED_CART_RECOVERY" }`. A malformed, unknown or foreign token is one neutral `404`.',
        ].join('\n\n'),
      },
      rateLimit: 'public-checkout',
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(cartRemindersUnsubscribeInputSchema)
    .output(cartRemindersUnsubscribeResultSchema)
    .mutation(async ({ ctx, input }) => {
      if (!(await unsubscribeFromCartReminders(ctx.db, input.token, ctx.clock.now())))
        throw AppError.notFound('Unsubscribe link not found');
      return { status: 'UNSUBSCRIBED' as const, subscriptionType: 'ABANDONED_CART_RECOVERY' as const };
    }),
});
