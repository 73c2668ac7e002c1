import { cursorSchema, limitSchema } from '@commerce/core';
import type { AuditActor } from '@commerce/db';
import { shippingAddressSchema } from '@commerce/orders';
import { z } from 'zod';
import { fulfillmentPackageSchema } from '../fulfillments/schemas.ts';

/** Who reads or prints the warehouse outputs, in which organization, and when. */
export interface WarehouseContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

/** Fulfillments not yet handed off. */
export const WAREHOUSE_STATUSES = ['PLANNED', 'READY'] as const;
export type WarehouseStatus = (typeof WAREHOUSE_STATUSES)[number];

/** The CSV export and the labels PDF batch take 1 to 50 fulfillments. */
export const MAX_WAREHOUSE_SELECTION = 50;

export const LABEL_ELIGIBILITY_REASONS = [
  'NO_POSTAGE',
  'EXTERNAL_POSTAGE',
  'VOID_PENDING',
  'POSTAGE_RETIRED',
  'LABEL_MISSING',
  'SHIP_TO_ADDRESS_MISSING',
  'PURCHASE_UNSETTLED',
] as const;
export type LabelEligibilityReason = (typeof LABEL_ELIGIBILITY_REASONS)[number];

export const WAREHOUSE_SELECTION_FAILURES = ['NOT_FOUND', 'NOT_A_WAREHOUSE_OUTPUT'] as const;
export type WarehouseSelectionFailure = (typeof WAREHOUSE_SELECTION_FAILURES)[number];

export const LABEL_BATCH_FAILURES = [
  'NOT_FOUND',
  'NOT_READY',
  'NO_NATIVE_POSTAGE',
  'VOID_PENDING',
  'LABEL_MISSING',
  'LABEL_UNSAFE',
] as const;
export type LabelBatchFailure = (typeof LABEL_BATCH_FAILURES)[number];

const statusListSchema = z
  .string()
  .max(100)
  .transform((value, ctx) => {
    const statuses = value
      .split(',')
      .map((status) => status.trim())
      .filter((status) => status.length > 0);
    if (statuses.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'name PLANNED, READY or both' });
      return z.NEVER;
    }
    for (const status of statuses) {
      if (!(WAREHOUSE_STATUSES as readonly string[]).includes(status)) {
        ctx.addIssue({ code: 'custom', message: `unknown status ${status}: PLANNED or READY` });
        return z.NEVER;
      }
    }
    return [...new Set(statuses)] as WarehouseStatus[];
  })
  .describe('`PLANNED`, `READY` or `PLANNED,READY` (the default)');

export const warehouseOutputListQuerySchema = z.strictObject({
  status: statusListSchema.optional(),
  limit: limitSchema,
  cursor: cursorSchema
    .optional()
    .describe('The id of the last fulfillment of the previous page (`nextCursor`)'),
});
export type WarehouseOutputListQuery = z.output<typeof warehouseOutputListQuerySchema>;

/** `{ fulfillmentIds }`: 1 to 50 distinct ids, answered in this order (a repeat is 400 at its index). */
export const warehouseSelectionInputSchema = z.strictObject({
  fulfillmentIds: z
    .array(z.string().min(1).max(64).describe('A fulfillment (`ful_…`)'))
    .min(1)
    .max(MAX_WAREHOUSE_SELECTION)
    .superRefine((ids, issues) => {
      const seen = new Set<string>();
      ids.forEach((id, index) => {
        if (seen.has(id))
          issues.addIssue({ code: 'custom', path: [index], message: 'names a fulfillment already selected' });
        seen.add(id);
      });
    })
    .describe('1 to 50 distinct fulfillment ids; the output follows this order'),
});
export type WarehouseSelectionInput = z.output<typeof warehouseSelectionInputSchema>;

export const labelEligibilitySchema = z
  .object({
    canPrint: z
      .boolean()
      .describe('`READY` with native `ACTIVE` postage and its label stored: the labels PDF batch takes it'),
    canPurchase: z
      .boolean()
      .describe(
        'No current postage (`PLANNED`, or `READY` after a void or retirement), a ship-to address and no unsettled purchase: a label quote and purchase may name it',
      ),
    reason: z
      .enum(LABEL_ELIGIBILITY_REASONS)
      .nullable()
      .describe(
        'Null when `canPrint`; otherwise what stands in the way: a purchase blocker (`PURCHASE_UNSETTLED`, `SHIP_TO_ADDRESS_MISSING`) before the postage state (`NO_POSTAGE`, `POSTAGE_RETIRED`, `EXTERNAL_POSTAGE`, `VOID_PENDING`, `LABEL_MISSING`)',
      ),
  })
  .meta({ id: 'LabelEligibility' });
export type LabelEligibility = z.infer<typeof labelEligibilitySchema>;

export const packingSlipLineSchema = z.object({
  lineId: z.string(),
  sku: z.string().nullable().describe("The variant's SKU when the fulfillment was created"),
  name: z.string().describe('The line as ordered (the item, with the variant after ` / `)'),
  variantName: z.string().nullable().describe("The variant's name; null for a line without a variant"),
  quantity: z.number().int(),
});

export const warehouseOutputSchema = z
  .object({
    fulfillmentId: z.string().describe('`ful_…`'),
    recordId: z.string().describe('The sales record (`sal_…`)'),
    orderId: z.string().nullable().describe('The legacy order (`ord_…`); null for a record without one'),
    orderNumber: z.number().int().nullable(),
    orderReference: z.string().nullable(),
    status: z.enum(WAREHOUSE_STATUSES),
    createdAt: z.iso.datetime(),
    package: fulfillmentPackageSchema.nullable(),
    postage: z
      .object({
        source: z.enum(['NATIVE', 'EXTERNAL', 'LEGACY']),
        status: z.enum(['ACTIVE', 'VOID_PENDING']),
        carrier: z.string(),
        service: z.string().nullable(),
        trackingNumber: z.string(),
      })
      .nullable()
      .describe('The current postage, else null'),
    packingSlip: z
      .object({
        orderNumber: z.number().int().nullable(),
        orderDate: z.iso.datetime().describe('When the order was placed'),
        customerName: z.string(),
        shipTo: shippingAddressSchema.nullable().describe("The order's ship-to snapshot; null until set"),
        lines: z.array(packingSlipLineSchema),
      })
      .describe('What goes in the box; never the order notes'),
    labelEligibility: labelEligibilitySchema,
  })
  .meta({ id: 'WarehouseOutput' });
export type WarehouseOutput = z.infer<typeof warehouseOutputSchema>;
