import { cursorSchema, limitSchema } from '@commerce/core/schemas';
import type { AuditActor } from '@commerce/db';
import { z } from 'zod';

/** Who changes an order, in which organization, and when (`at` from the request's clock). */
export interface OrderWriteContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

export const ORDER_STATUSES = ['PENDING', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'CANCELLED'] as const;
export const FULFILLMENT_STATUSES = ['UNFULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED'] as const;
export const PAYMENT_STATUSES = ['NOT_REQUIRED', 'AWAITING_PAYMENT', 'PAID', 'FAILED', 'REFUNDED'] as const;
export const SALES_LINE_TYPES = ['PRODUCT', 'SERVICE', 'CUSTOM', 'FEE', 'DEPOSIT', 'ADJUSTMENT'] as const;

/** Our limits on the legacy order body, so a total fits `int8` (docs/orders.md). */
export const MAX_ORDER_LINES = 100;
export const MAX_LINE_QUANTITY = 10_000;
export const MAX_UNIT_PRICE_IN_CENTS = 1_000_000_000;
export const MAX_NOTES_LENGTH = 2000;

const idSchema = (what: string) => z.string().min(1).max(64).describe(what);

export const orderStatusSchema = z.enum(ORDER_STATUSES);
export const fulfillmentStatusSchema = z.enum(FULFILLMENT_STATUSES);
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);

const notesSchema = z
  .string()
  .max(MAX_NOTES_LENGTH)
  .describe('Merchant-internal, at most 2000 characters; never shown on a public read');

export const legacyOrderLineSchema = z.strictObject({
  itemId: idSchema('An ACTIVE, unarchived item of the organization (`itm_…`)'),
  variantId: idSchema('A non-archived variant of that item (`var_…`); null or absent for none')
    .nullable()
    .optional(),
  name: z.string().trim().min(1).max(200).describe('The line name as the storefront shows it, 1 to 200'),
  quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY).describe('1 to 10,000'),
  unitPriceInCents: z
    .number()
    .int()
    .min(0)
    .max(MAX_UNIT_PRICE_IN_CENTS)
    .describe('The price the storefront showed, in cents: 0 to 1,000,000,000'),
});

/** The legacy `POST /public/orders` body (docs/orders.md "Legacy POST /public/orders"). */
export const createLegacyOrderInputSchema = z
  .strictObject({
    customerName: z.string().trim().min(1).max(200),
    customerEmail: z.email().max(320),
    customerPhone: z.string().trim().max(50).optional(),
    notes: notesSchema.optional(),
    items: z.array(legacyOrderLineSchema).min(1).max(MAX_ORDER_LINES).describe('1 to 100 lines'),
  })
  .meta({ id: 'LegacyOrderCreate' });
export type CreateLegacyOrderInput = z.output<typeof createLegacyOrderInputSchema>;

export const orderLineSchema = z
  .object({
    id: z.string(),
    type: z.enum(SALES_LINE_TYPES),
    itemId: z.string().nullable(),
    variantId: z.string().nullable(),
    name: z.string(),
    quantity: z.number().int(),
    unitPriceInCents: z.number().int(),
    totalInCents: z.number().int().describe('quantity × unitPriceInCents'),
  })
  .meta({ id: 'OrderLine' });
export type OrderLineRead = z.infer<typeof orderLineSchema>;

const lineCounter = (what: string) =>
  z.number().int().nullable().describe(`${what}; null on lines other than PRODUCT`);

/** A line as the merchant reads it: PRODUCT lines carry their fulfillment counters. */
export const merchantOrderLineSchema = orderLineSchema
  .extend({
    shippedQuantity: lineCounter('Units in SHIPPED and DELIVERED fulfillments'),
    allocatedQuantity: lineCounter('Units in PLANNED and READY fulfillments'),
    unfulfilledQuantity: lineCounter('quantity − shippedQuantity'),
  })
  .meta({ id: 'MerchantOrderLine' });
export type MerchantOrderLineRead = z.infer<typeof merchantOrderLineSchema>;

const publicOrderShape = {
  id: z.string().describe('`ord_…`'),
  orderReference: z
    .string()
    .nullable()
    .describe('`or1_` + 32 lowercase hex: the stable public address of the order (not a credential)'),
  orderNumber: z.number().int().describe('Sequential per organization from 1, no gaps: for display'),
  status: orderStatusSchema,
  fulfillmentStatus: fulfillmentStatusSchema.describe(
    'Derived from fulfillment records, never written by a client; UNFULFILLED until one exists',
  ),
  paymentStatus: paymentStatusSchema.describe(
    '`NOT_REQUIRED` for legacy and free orders; `AWAITING_PAYMENT`, `PAID` or `FAILED` through checkout (`FAILED` too when the order was cancelled before it was paid); `REFUNDED` when a payment arrived after the order was cancelled and was refunded in full',
  ),
  currency: z.string().describe("ISO 4217; the store's checkout currency when the order was placed"),
  customerName: z.string(),
  customerEmail: z.string(),
  customerPhone: z.string().nullable(),
  items: z.array(orderLineSchema),
  itemCount: z.number().int().describe('The sum of the line quantities'),
  subtotalInCents: z.number().int(),
  shippingInCents: z.number().int(),
  taxInCents: z.number().int(),
  taxIncluded: z
    .boolean()
    .describe(
      'The prices include tax: `taxInCents` is the part of the total that is tax, not added to it (checkout of a store with `checkoutSettings.taxIncludedInPrices` and a tax provider)',
    ),
  discountInCents: z.number().int(),
  totalInCents: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
};

/** An order as a public read shows it: never `notes`. */
export const publicOrderSchema = z.object(publicOrderShape).meta({ id: 'PublicOrder' });
export type PublicOrderRead = z.infer<typeof publicOrderSchema>;

/** One shipment as the customer sees it: never postage, charges, reasons, plans or cancellations. */
export const shipmentSchema = z
  .object({
    status: z.enum(['SHIPPED', 'DELIVERED']),
    carrier: z.string().nullable(),
    trackingNumber: z.string().nullable(),
    trackingUrl: z.string().nullable(),
    shippedAt: z.iso.datetime(),
    deliveredAt: z.iso.datetime().nullable(),
    lines: z.array(z.object({ name: z.string(), quantity: z.number().int() })).describe('The units shipped'),
  })
  .meta({ id: 'Shipment' });
export type ShipmentRead = z.infer<typeof shipmentSchema>;

/** A required address line: trimmed, 1 to `max`. */
const addressLine = (max: number) => z.string().trim().min(1).max(max);
/** An optional address line: trimmed, at most `max`; absent, null or blank is null. */
const optionalAddressLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));

/**
 * Where an order's parcels go (docs/fulfillment.md "Ship-to address"): an
 * address (`line1`/`line2` 300, `city`/`state` 200, `postalCode` 32, `country` two
 * letters, upper-cased; trimmed) plus the recipient's `name` and `phone?`.
 */
export const shippingAddressInputShape = {
  name: addressLine(200).describe('The recipient, 1 to 200'),
  line1: addressLine(300).describe('Street address, 1 to 300'),
  line2: optionalAddressLine(300).describe('Apartment, suite, unit …; at most 300; blank or null is none'),
  city: addressLine(200).describe('1 to 200'),
  state: optionalAddressLine(200).describe('State, province or region; at most 200; blank or null is none'),
  postalCode: addressLine(32).describe('1 to 32'),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code, e.g. PT')
    .transform((value) => value.toUpperCase())
    .describe('ISO 3166-1 alpha-2 country code; stored upper case'),
  phone: optionalAddressLine(50).describe('For the carrier; at most 50; blank or null is none'),
};

/** A whole shipping address as input, for checkout and the merchant's PUT. */
export const shippingAddressInputSchema = z
  .strictObject(shippingAddressInputShape)
  .meta({ id: 'ShippingAddressInput' });
export type ShippingAddressInput = z.output<typeof shippingAddressInputSchema>;

export const shippingAddressSchema = z
  .object({
    name: z.string(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string().nullable(),
    postalCode: z.string(),
    country: z.string(),
    phone: z.string().nullable(),
  })
  .meta({ id: 'ShippingAddress' });
export type ShippingAddressRead = z.infer<typeof shippingAddressSchema>;

/** An order as its customer reads it (account views, the order-status link): the public read plus its shipments. */
export const customerOrderSchema = publicOrderSchema
  .extend({
    shipments: z
      .array(shipmentSchema)
      .describe('The `SHIPPED` and `DELIVERED` fulfillments, oldest first; none before the first shipment'),
    shippingAddress: shippingAddressSchema
      .nullable()
      .describe(
        'Where the order ships (the address given at checkout, or as the merchant corrected it); null for an order that ships nowhere',
      ),
  })
  .meta({ id: 'CustomerOrder' });
export type CustomerOrderRead = z.infer<typeof customerOrderSchema>;

/** An order as the merchant reads it. */
export const orderSchema = z
  .object({
    ...publicOrderShape,
    items: z.array(merchantOrderLineSchema),
    salesRecordId: z.string().describe('The sales record (`sal_…`) this order projects'),
    notes: z.string().nullable().describe('Merchant-internal'),
    shippingAddress: shippingAddressSchema
      .nullable()
      .describe(
        'The ship-to snapshot labels are bought for (`PUT /merchant/orders/{id}/shipping-address`); null until set. Merchant reads only',
      ),
  })
  .meta({ id: 'Order' });
export type OrderRead = z.infer<typeof orderSchema>;

export const createdLegacyOrderSchema = publicOrderSchema
  .extend({
    orderStatusToken: z
      .string()
      .describe(
        'A read-only `o1_` order-status credential for `POST /public/order-status`, returned once (also emailed in the confirmation). Keep it like a password',
      ),
  })
  .meta({ id: 'CreatedLegacyOrder' });
export type CreatedLegacyOrder = z.infer<typeof createdLegacyOrderSchema>;

const isoInstant = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const orderListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last order of the previous page (`nextCursor`)'),
  status: orderStatusSchema.optional(),
  fulfillmentStatus: fulfillmentStatusSchema.optional(),
  paymentStatus: paymentStatusSchema.optional(),
  email: z.email().max(320).optional().describe("The customer's email, exactly (case-insensitive)"),
  search: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'An order number (`1042` or `#1042`) matches that order; anything else is a case-insensitive substring of the customer email',
    ),
  createdFrom: isoInstant
    .optional()
    .describe('Orders created at or after this instant (ISO 8601 with offset)'),
  createdTo: isoInstant.optional().describe('Orders created before this instant (ISO 8601 with offset)'),
});
export type OrderListQuery = z.output<typeof orderListQuerySchema>;

export const publicOrderListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last order of the previous page (`nextCursor`)'),
  email: z.email().max(320).optional().describe("The customer's email, exactly (case-insensitive)"),
});
export type PublicOrderListQuery = z.output<typeof publicOrderListQuerySchema>;

export const orderIdInputSchema = z.object({ id: idSchema('Order id (`ord_…`)') });
export const orderNumberInputSchema = z.object({
  num: z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, 'must be an order number: a positive integer without sign or leading zeros')
    .transform(Number)
    .describe('The order number, e.g. `1042`'),
});

export const updateOrderStatusInputSchema = z.strictObject({
  id: orderIdInputSchema.shape.id,
  status: orderStatusSchema.describe('The next status: see the transition table'),
});
export type UpdateOrderStatusInput = z.output<typeof updateOrderStatusInputSchema>;

export const updateOrderNotesInputSchema = z.strictObject({
  id: orderIdInputSchema.shape.id,
  notes: notesSchema
    .nullable()
    .describe('At most 2000 characters; `null` (or an empty string) clears the notes'),
});
export type UpdateOrderNotesInput = z.output<typeof updateOrderNotesInputSchema>;

/** `PUT /merchant/orders/{id}/shipping-address`: the whole address, replaced. */
export const updateShippingAddressInputSchema = z.strictObject({
  id: idSchema('The order (`ord_…`) or its sales record (`sal_…`)'),
  ...shippingAddressInputShape,
});
export type UpdateShippingAddressInput = z.output<typeof updateShippingAddressInputSchema>;

export const orderStatusTokenInputSchema = z.strictObject({
  token: z.string().max(100).describe('The `o1_` token of the order-status link'),
});
