import { getSettings } from '@commerce/admin';
import { AppError, pageSchema } from '@commerce/core';
import { getOrderByStatusToken } from '@commerce/fulfillment';
import {
  createdLegacyOrderSchema,
  createLegacyOrder,
  createLegacyOrderInputSchema,
  customerOrderSchema,
  getPublicOrder,
  getPublicOrderByNumber,
  listPublicOrders,
  orderIdInputSchema,
  orderNumberInputSchema,
  orderStatusTokenInputSchema,
  publicOrderListQuerySchema,
  publicOrderSchema,
} from '@commerce/orders';
import type { ApiContext } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { publicProcedure, router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Public: orders'];

const READS_SWITCH = [
  'Off by default: listing or reading a store’s orders with only its slug would expose its customers, so these reads answer `404 RESOURCE_NOT_FOUND` until the merchant sets the settings key `apiSettings.publicOrderReadsEnabled` to `true` (`PATCH /merchant/settings`).',
  '`notes` (merchant-internal) is never part of a public read. A shopper holding the `o1_` token of their confirmation email reads their own order with `POST /public/order-status` instead, whatever the switch.',
].join(' ');

/** Public order reads answer only when the organization turned them on. */
async function assertPublicOrderReads(ctx: ApiContext, organizationId: string): Promise<void> {
  const settings = await getSettings(ctx.db, organizationId, ctx.clock.now());
  if (settings.apiSettings.publicOrderReadsEnabled !== true) throw AppError.notFound('Not found');
}

export const publicOrdersRouter = router({
  create: tenantProcedure
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
    }),

  list: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/orders',
        tags: TAGS,
        summary: "The store's orders (only when public order reads are on)",
        description: [
          READS_SWITCH,
          'Newest first, `{ data, nextCursor }`: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no order is `400`. `email` keeps the orders of one customer email (case-insensitive).',
        ].join('\n\n'),
      },
      rateLimit: 'public-read',
    })
    .input(publicOrderListQuerySchema)
    .output(pageSchema(publicOrderSchema))
    .query(async ({ ctx, input }) => {
      await assertPublicOrderReads(ctx, ctx.tenant.organizationId);
      return listPublicOrders(ctx.db, ctx.tenant.organizationId, input);
    }),

  getByNumber: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/orders/number/{num}',
        tags: TAGS,
        summary: 'An order by number (only when public order reads are on)',
        description: `${READS_SWITCH} An unknown number is \`404\`.`,
      },
      rateLimit: 'public-read',
    })
    .input(orderNumberInputSchema)
    .output(publicOrderSchema)
    .query(async ({ ctx, input }) => {
      await assertPublicOrderReads(ctx, ctx.tenant.organizationId);
      return getPublicOrderByNumber(ctx.db, ctx.tenant.organizationId, input.num);
    }),

  get: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/public/orders/{id}',
        tags: TAGS,
        summary: 'An order by id (only when public order reads are on)',
        description: `${READS_SWITCH} An unknown id, or one of another store, is \`404\`.`,
      },
      rateLimit: 'public-read',
    })
    .input(orderIdInputSchema)
    .output(publicOrderSchema)
    .query(async ({ ctx, input }) => {
      await assertPublicOrderReads(ctx, ctx.tenant.organizationId);
      return getPublicOrder(ctx.db, ctx.tenant.organizationId, input.id);
    }),

  status: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/public/order-status',
        tags: TAGS,
        summary: 'Read an order with the token of its order-status link',
        description: [
          'Body `{ token }`: the `o1_` token of the order-status link of an `ORDER_CONFIRMATION` email (`{HOSTED_CHECKOUT_URL}/order-status?token=o1_…`), or the `orderStatusToken` of the create response. It is sent in the body, not the path, to keep it out of access logs. The token alone names the store and the order: no `x-organization-slug` is needed, and the `apiSettings.publicOrderReadsEnabled` switch does not apply.',
          'Read-only: answers `200` with the order (never `notes`) and its `shipments[]` (`SHIPPED` and `DELIVERED` fulfillments: status, carrier, tracking, `shippedAt`, `deliveredAt`, the units shipped). A malformed, unknown or foreign token is one neutral `404`. Tokens do not expire. Rate-limited per client.',
        ].join('\n\n'),
      },
      rateLimit: 'public-read',
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(orderStatusTokenInputSchema)
    .output(customerOrderSchema)
    .mutation(({ ctx, input }) => getOrderByStatusToken(ctx.db, input.token)),
});
