import { pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import {
  recommendShippingPackage,
  recommendShippingPackageInputSchema,
  shippingPackageRecommendationSchema,
} from '@commerce/fulfillment';
import {
  getOrder,
  getOrderByNumber,
  listOrders,
  type OrderWriteContext,
  orderIdInputSchema,
  orderListQuerySchema,
  orderNumberInputSchema,
  orderSchema,
  rejectFulfillmentStatusWrite,
  updateOrderNotes,
  updateOrderNotesInputSchema,
  updateOrderStatus,
  updateOrderStatusInputSchema,
  updateShippingAddress,
  updateShippingAddressInputSchema,
} from '@commerce/orders';
import { z } from 'zod';
import type { ApiContext } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: orders'];

const operator = merchantProcedureWith('orders:operate');
const fulfillmentOperator = merchantProcedureWith('fulfillment:operate');

function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): OrderWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

const ORDER_READ =
  'The order carries `salesRecordId` (the sales record it projects), its typed lines in `items`, its totals in integer cents, `notes`, `status`, `paymentStatus` and `fulfillmentStatus` (derived from fulfillment records; `UNFULFILLED` until one exists).';

export const merchantOrdersRouter = router({
  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/orders',
        tags: TAGS,
        summary: "The organization's orders, newest first",
        description: [
          'Open to any member. Newest first (`createdAt`, then `id`, descending), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no order of the organization is `400`.',
          'Filters, composable: `status`, `fulfillmentStatus`, `paymentStatus` (exact), `email` (the customer email, case-insensitive), `search` (an order number such as `1042` or `#1042` finds that order; any other text is a case-insensitive substring of the customer email), `createdFrom` (inclusive) and `createdTo` (exclusive), ISO 8601 instants with an offset.',
          ORDER_READ,
        ].join('\n\n'),
      },
    })
    .input(orderListQuerySchema)
    .output(pageSchema(orderSchema))
    .query(({ ctx, input }) => listOrders(ctx.db, ctx.tenant.organizationId, input)),

  getByNumber: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/orders/number/{num}',
        tags: TAGS,
        summary: 'An order by its number',
        description: `Open to any member. An unknown number is \`404\`. ${ORDER_READ}`,
      },
    })
    .input(orderNumberInputSchema)
    .output(orderSchema)
    .query(({ ctx, input }) => getOrderByNumber(ctx.db, ctx.tenant.organizationId, input.num)),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/orders/{id}',
        tags: TAGS,
        summary: 'An order by id',
        description: `Open to any member. An unknown id, or one of another organization, is \`404\`. ${ORDER_READ}`,
      },
    })
    .input(orderIdInputSchema)
    .output(orderSchema)
    .query(({ ctx, input }) => getOrder(ctx.db, ctx.tenant.organizationId, input.id)),

  updateStatus: operator
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/orders/{id}/status',
        tags: TAGS,
        summary: 'Move an order to its next status',
        description: [
          'Needs `orders:operate` (Owner and Admin hold it). Body `{ status }`. Allowed: `PENDING` → `CONFIRMED` → `PROCESSING` → `COMPLETED`, and `PENDING`, `CONFIRMED` or `PROCESSING` → `CANCELLED`. `COMPLETED` and `CANCELLED` are final. Any other move, the current status included, is `409 INVALID_STATE_TRANSITION` (`details: { from, to }`) and changes nothing.',
          'The order is locked while the move is judged, so of two concurrent moves the second is judged from the state the first left. Audited as `order.status_changed` with `{ from, to }`. Answers the order.',
          'Cancelling a checkout order that is not paid (`paymentStatus` `AWAITING_PAYMENT`, or `FAILED` with its session free to retry) takes its payment back: its stock is released, its checkout session is `CANCELLED` (a later `payment-session` is `409 INVALID_STATE_TRANSITION`), its `paymentStatus` becomes `FAILED`, and its payment intent is cancelled at the processor after the change commits (retried by the worker while the processor fails; the answer does not wait for it). A payment that still arrives for it is refunded in full and the order becomes `paymentStatus: REFUNDED`. Cancelling a `PAID` order changes only its status.',
        ].join('\n\n'),
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(updateOrderStatusInputSchema)
    .output(orderSchema)
    .mutation(({ ctx, input }) =>
      updateOrderStatus(ctx.db, writeContext(ctx), input, {
        payments: ctx.services.payments,
        email: customerEmailConfig(ctx),
        ...(ctx.services.logger ? { logger: ctx.services.logger } : {}),
      }),
    ),

  updateNotes: operator
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/orders/{id}/notes',
        tags: TAGS,
        summary: "Set or clear the merchant's notes on an order",
        description: [
          'Needs `orders:operate`. Body `{ notes }`: a string of at most 2000 characters, or `null` to clear (an empty string clears too). Allowed in every status. Notes are merchant-internal and never shown on a public read.',
          'A change is audited as `order.notes_updated` with `{ cleared }` (the text itself is not copied into the audit log); sending the current notes writes nothing. Answers the order.',
        ].join('\n\n'),
      },
    })
    .input(updateOrderNotesInputSchema)
    .output(orderSchema)
    .mutation(({ ctx, input }) => updateOrderNotes(ctx.db, writeContext(ctx), input)),

  updateShippingAddress: fulfillmentOperator
    .meta({
      openapi: {
        method: 'PUT',
        path: '/merchant/orders/{id}/shipping-address',
        tags: TAGS,
        summary: "Set the order's ship-to address",
        description: [
          'Needs `fulfillment:operate` (Owner and Admin hold it; Staff need the group, else `403`). `{id}` is the order (`ord_…`) or its sales record (`sal_…`); a sales record without an order, an unknown id or another organization’s is `404`. `x-idempotency-key` is ignored: the whole address is replaced, so a repeat changes nothing.',
          'Body, replacing the address as a whole: `name` (1 to 200), `line1` (1 to 300), `line2?` (at most 300), `city` (1 to 200), `state?` (at most 200), `postalCode` (1 to 32), `country` (two letters, stored upper case), `phone?` (at most 50). Strings are trimmed; a blank or null optional line is none. Unknown keys are `400`.',
          'Sets the ship-to snapshot of the sales record and the order in one transaction (labels are rated and bought for it); postage already on a fulfillment is left as it is. A `CANCELLED` order, or one whose PRODUCT units have all shipped (`fulfillmentStatus: FULFILLED`), ships nothing more: `409 ORDER_NOT_FULFILLABLE` (`details.reason` `CANCELLED` or `FULFILLED`), nothing changed. An unpaid order may still be given its address.',
          'Answers `200` with the order (`shippingAddress`). A change is audited as `order.shipping_address_updated` with the changed `fields`; the same address again writes nothing.',
        ].join('\n\n'),
      },
      errors: ['ORDER_NOT_FULFILLABLE'],
    })
    .input(updateShippingAddressInputSchema)
    .output(orderSchema)
    .mutation(({ ctx, input }) => updateShippingAddress(ctx.db, writeContext(ctx), input)),

  updateFulfillmentStatus: merchantProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/orders/{id}/fulfillment-status',
        tags: TAGS,
        summary: 'Deprecated: always refused',
        description:
          'Deprecated and rejection-only. `fulfillmentStatus` is derived from fulfillment records (`POST /merchant/commerce/orders/{recordId}/fulfillments`) and is never written by clients. After authentication and membership, every call answers `409 LINE_FULFILLMENT_REQUIRED`, whatever the order id or body, and changes nothing.',
        deprecated: true,
      },
      errors: ['LINE_FULFILLMENT_REQUIRED'],
    })
    .input(
      z
        .object({
          id: z.string().describe('Order id; not looked up'),
          fulfillmentStatus: z.unknown().optional().describe('Ignored, as is every other body key'),
        })
        .catchall(z.unknown()),
    )
    .output(orderSchema)
    .mutation(() => rejectFulfillmentStatusWrite()),
  recommendShippingPackage: merchantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/orders/{id}/shipping-package/recommendation',
        tags: TAGS,
        summary: 'Recommend a proven-fit box preset for the order',
        description: [
          'Open to any member. `{id}` is the order id (`ord_…`) or its sales record id (`sal_…`); an unknown id, another prefix or another organization’s order is `404`. Writes nothing, calls no provider, and answers the same for the same order, catalog and presets.',
          "Body `{ lines? }`: 1 to 100 distinct `{ lineId, quantity }` (quantity 1 to 100000) of the order's PRODUCT lines, at most each line's available quantity (else `400` naming `lines.N.lineId` or `lines.N.quantity`). Without `lines`, every PRODUCT line at its available quantity (ordered, less shipped and allocated units; lines with none left are skipped). An empty body is accepted; unknown keys are `400`.",
          "Each unit's dimensions come from its variant when it has all four shipping values, else from its item; nothing is estimated. Candidates are the active box presets; a preset fits when the units plus its tare stay within its `maxLoadGrams` and a proof on its inner dimensions holds with axis-aligned orientations only: `SINGLE_UNIT`, `GRID` (one unit shape) or `STACK` (along `stackAxis`). The smallest inner volume wins, then the lighter tare, `sortOrder`, `id`.",
          'Answers `200 { recommendation, reason, missing, unitCount, catalogWeightGrams, evaluatedPresetCount }`; `reason` (`NO_PRODUCT_UNITS`, `TOO_MANY_UNITS` over 1000 units, `MISSING_DIMENSIONS` with `missing[]`, `NO_ACTIVE_PRESETS`, `NO_PROVEN_FIT`) is null exactly when `recommendation` is not.',
        ].join('\n\n'),
      },
    })
    .input(recommendShippingPackageInputSchema)
    .output(shippingPackageRecommendationSchema)
    .mutation(({ ctx, input }) => recommendShippingPackage(ctx.db, ctx.tenant.organizationId, input)),
});
