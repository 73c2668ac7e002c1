import { getSettings } from '@commerce/admin';
import { createdLegacyOrderSchema, createLegacyOrder, createLegacyOrderInputSchema } from '@commerce/orders';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const createProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/orders',
      tags: TAGS,
      summary: 'Place an order (legacy)',
      description: [
        'Legacy order creation; new storefronts should use checkout sessions. Body: `customerName` (1 to 200, trimmed), `customerEmail` (a valid email), `customerPhone` (optional, at most 50), `notes` (optional, at most 2000; merchant-internal, never shown publicly), `items`: 1 to 100 lines of `{ itemId, variantId?, name, quantity, unitPriceInCents }` (`variantId` may be null or absent; `name` 1 to 200; `quantity` 1 to 10,000; `unitPriceInCents` 0 to 1,000,000,000). Unknown keys are `400`.',
        'Each `itemId` must be an `ACTIVE`, unarchived item of the store and each `variantId` a non-archived variant of that item; otherwise `400 VALIDATION_FAILED` with one issue per bad line (`items.N.itemId` or `items.N.variantId`), and nothing is written. A `RENTAL` item is `400` too (`items.N.itemId`): rentals are booked through a booking service, never bought. The line `name` and `unitPriceInCents` are kept as sent, as the legacy contract has it. Each line’s `type` follows its item: `PRODUCT` for a `SALE` item, `SERVICE` for a `SERVICE` item (never returnable). Stock is not reserved or consumed on this path.',
        'Totals: `subtotalInCents` is the sum of the lines (quantity × unit price), `taxInCents` is 0, there is no shipping line and no discount, and `totalInCents` equals the subtotal; `currency` is the store’s `checkoutSettings.currency`. The order starts `PENDING`, `UNFULFILLED`, `paymentStatus` `NOT_REQUIRED`, with an `orderReference` (`or1_` + 32 hex) and the store’s next `orderNumber` (sequential from 1, no gaps).',
        'Answers `201` with the order (no `notes`) and `orderStatusToken`, a read-only `o1_` credential for `POST /public/order-status`, shown only here and in the `ORDER_CONFIRMATION` email, which is queued in the same transaction with the link `{HOSTED_CHECKOUT_URL}/order-status?token=o1_…`. Rate-limited per client (60 per 10 minutes).',
      ].join('\n\n'),
    },
    successStatus: 201,
    rateLimit: 'public-order',
  })
  .input(createLegacyOrderInputSchema)
  .output(createdLegacyOrderSchema)
  .mutation(async ({ ctx, input }) => {
    const at = ctx.clock.now();
    const settings = await getSettings(ctx.db, ctx.tenant.organizationId, at);
    return createLegacyOrder(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        currency: settings.checkoutSettings.currency,
        email: customerEmailConfig(ctx),
        at,
      },
      input,
    );
  });
