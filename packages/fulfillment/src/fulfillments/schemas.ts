import { cursorSchema, limitSchema } from '@commerce/core';
import type { AuditActor } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import { fulfillmentStatusSchema } from '@commerce/orders';
import { z } from 'zod';

/** Who acts on a record's fulfillments, in which organization, when, and how shipment mail links. */
export interface FulfillmentContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
  email: CustomerEmailConfig;
}

export const FULFILLMENT_RECORD_STATUSES = ['PLANNED', 'READY', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;
export const FULFILLMENT_ORIGINS = ['DIRECT', 'PLANNED', 'NATIVE_LABEL', 'LEGACY'] as const;

/** Limits: lines per fulfillment and plan, and the quantity of one line. */
export const MAX_FULFILLMENT_LINES = 100;
export const MAX_FULFILLMENT_LINE_QUANTITY = 100_000;
export const MAX_FULFILLMENT_REASON_LENGTH = 500;

const pathId = (what: string) => z.string().min(1).max(64).describe(what);

const recordIdSchema = pathId(
  'The sales record (`sal_…`) or its legacy order (`ord_…`); either id of the pair names the same record',
);
const fulfillmentIdSchema = pathId('The fulfillment (`ful_…`) of that record');

const httpsUrlSchema = z
  .string()
  .max(2000)
  .refine((value) => {
    try {
      return new URL(value).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an https URL')
  .describe('https, at most 2000 characters');

const carrierSchema = z.string().trim().min(1).max(50).describe('1 to 50 characters');
const trackingNumberSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9 -]+$/, 'must be letters, digits, spaces and hyphens')
  .describe('1 to 100 letters, digits, spaces and hyphens');
const reasonSchema = z.string().trim().min(1).max(MAX_FULFILLMENT_REASON_LENGTH);
const pastInstantSchema = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .describe('ISO 8601 with an offset; not in the future');

/** 1 to 100 `{ lineId, quantity }`, each line once (a repeat is `lines.N.lineId`). */
export const fulfillmentLinesInputSchema = z
  .array(
    z.strictObject({
      lineId: z.string().min(1).max(64).describe('A PRODUCT line (`sli_…`) of this record'),
      quantity: z
        .number()
        .int()
        .min(1)
        .max(MAX_FULFILLMENT_LINE_QUANTITY)
        .describe('Units of the line: an integer from 1 to 100000'),
    }),
  )
  .min(1)
  .max(MAX_FULFILLMENT_LINES)
  .superRefine((lines, issues) => {
    const seen = new Set<string>();
    lines.forEach((line, index) => {
      if (seen.has(line.lineId))
        issues.addIssue({
          code: 'custom',
          path: [index, 'lineId'],
          message: 'names a line already in the request',
        });
      seen.add(line.lineId);
    });
  })
  .describe('1 to 100 distinct PRODUCT lines of the record');
export type FulfillmentLinesInput = z.output<typeof fulfillmentLinesInputSchema>;

export const fulfillmentTrackingInputSchema = z.strictObject({
  carrier: carrierSchema,
  trackingNumber: trackingNumberSchema,
  trackingUrl: httpsUrlSchema.optional(),
});

export const recordPathSchema = z.object({ recordId: recordIdSchema });

/** `POST …/fulfillments`: a direct fulfillment, `SHIPPED` at once. */
export const createDirectFulfillmentInputSchema = z.strictObject({
  recordId: recordIdSchema,
  lines: fulfillmentLinesInputSchema,
  notifyCustomer: z
    .boolean()
    .describe('Required, no default: true queues ORDER_SHIPPED to the customer, false records SUPPRESS'),
  tracking: fulfillmentTrackingInputSchema.optional(),
  shippedAt: pastInstantSchema
    .optional()
    .describe("Not in the future, not before the record's creation; default now"),
  note: reasonSchema.optional().describe('Merchant-internal, 1 to 500 characters'),
});
export type CreateDirectFulfillmentInput = z.output<typeof createDirectFulfillmentInputSchema>;

/** Limits of package measures. */
export const MAX_PACKAGE_DIMENSION_MM = 3000;
export const MAX_PACKAGE_WEIGHT_GRAMS = 150_000;

const packageMillimetres = z
  .number()
  .int()
  .min(1)
  .max(MAX_PACKAGE_DIMENSION_MM)
  .describe('Outer, an integer from 1 to 3000 mm');
const PACKAGE_DIMENSIONS = ['lengthMm', 'widthMm', 'heightMm'] as const;

/**
 * The confirmed package: a box preset `{ boxPresetId,
 * boxPresetRevision?, loadedWeightGrams }` (its outer dimensions), or custom
 * outer `{ lengthMm, widthMm, heightMm, loadedWeightGrams }`; never both.
 */
export const fulfillmentPackageInputSchema = z
  .strictObject({
    boxPresetId: z.string().min(1).max(64).optional().describe('An active box preset (`box_…`)'),
    boxPresetRevision: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .optional()
      .describe('With `boxPresetId`: the revision the client saw; another is `409 STALE_STATE`'),
    lengthMm: packageMillimetres.optional(),
    widthMm: packageMillimetres.optional(),
    heightMm: packageMillimetres.optional(),
    loadedWeightGrams: z
      .number()
      .int()
      .min(1)
      .max(MAX_PACKAGE_WEIGHT_GRAMS)
      .describe('The packed parcel, box included: an integer from 1 to 150000 g'),
  })
  .superRefine((value, issues) => {
    const custom = PACKAGE_DIMENSIONS.filter((field) => value[field] !== undefined);
    if (value.boxPresetId !== undefined) {
      for (const field of custom)
        issues.addIssue({
          code: 'custom',
          path: [field],
          message: 'not with boxPresetId: the preset gives it',
        });
      return;
    }
    if (value.boxPresetRevision !== undefined)
      issues.addIssue({ code: 'custom', path: ['boxPresetRevision'], message: 'only with boxPresetId' });
    for (const field of PACKAGE_DIMENSIONS)
      if (value[field] === undefined)
        issues.addIssue({
          code: 'custom',
          path: [field],
          message: 'required without boxPresetId (custom outer dimensions take all three)',
        });
  })
  .describe(
    'A box preset `{ boxPresetId, boxPresetRevision?, loadedWeightGrams }` or custom outer dimensions `{ lengthMm, widthMm, heightMm, loadedWeightGrams }`',
  );
export type FulfillmentPackageInput = z.output<typeof fulfillmentPackageInputSchema>;

/** `POST …/planned-fulfillments`: allocates the units, with the package when it is known. */
export const planFulfillmentInputSchema = z.strictObject({
  recordId: recordIdSchema,
  lines: fulfillmentLinesInputSchema,
  package: fulfillmentPackageInputSchema.optional(),
});
export type PlanFulfillmentInput = z.output<typeof planFulfillmentInputSchema>;

export const fulfillmentPathSchema = z.object({
  recordId: recordIdSchema,
  fulfillmentId: fulfillmentIdSchema,
});

export const attachExternalPostageInputSchema = z.strictObject({
  recordId: recordIdSchema,
  fulfillmentId: fulfillmentIdSchema,
  carrier: carrierSchema,
  service: z.string().trim().min(1).max(50).optional().describe('1 to 50 characters'),
  trackingNumber: trackingNumberSchema,
  trackingUrl: httpsUrlSchema.optional(),
});
export type AttachExternalPostageInput = z.output<typeof attachExternalPostageInputSchema>;

export const handOffFulfillmentInputSchema = z.strictObject({
  recordId: recordIdSchema,
  fulfillmentId: fulfillmentIdSchema,
  notifyCustomer: z
    .boolean()
    .describe('Required, no default: true queues ORDER_SHIPPED to the customer, false records SUPPRESS'),
  shippedAt: pastInstantSchema
    .optional()
    .describe("Not in the future, not before the record's creation; default now"),
});
export type HandOffFulfillmentInput = z.output<typeof handOffFulfillmentInputSchema>;

export const deliverFulfillmentInputSchema = z.strictObject({
  recordId: recordIdSchema,
  fulfillmentId: fulfillmentIdSchema,
  deliveredAt: pastInstantSchema
    .optional()
    .describe("Not in the future, not before the fulfillment's `shippedAt`; default now"),
});
export type DeliverFulfillmentInput = z.output<typeof deliverFulfillmentInputSchema>;

export const cancelFulfillmentInputSchema = z.strictObject({
  recordId: recordIdSchema,
  fulfillmentId: fulfillmentIdSchema,
  reason: reasonSchema.optional().describe('1 to 500 characters after trimming'),
});
export type CancelFulfillmentInput = z.output<typeof cancelFulfillmentInputSchema>;

/**
 * `PATCH /merchant/orders/{id}/tracking`: at least one of `carrier`,
 * `trackingNumber`, `trackingUrl` (null clears it), and the row the client
 * saw as `expectedFulfillmentId`.
 */
export const repairTrackingInputSchema = z
  .strictObject({
    id: recordIdSchema,
    carrier: carrierSchema.nullable().optional().describe('1 to 50 characters; null clears it'),
    trackingNumber: trackingNumberSchema
      .nullable()
      .optional()
      .describe('1 to 100 letters, digits, spaces and hyphens; null clears it'),
    trackingUrl: httpsUrlSchema.nullable().optional().describe('https, at most 2000; null clears it'),
    expectedFulfillmentId: fulfillmentIdSchema
      .optional()
      .describe('The fulfillment the client means to repair; another compatible row is `409 STALE_STATE`'),
  })
  .superRefine((value, issues) => {
    if (value.carrier === undefined && value.trackingNumber === undefined && value.trackingUrl === undefined)
      issues.addIssue({
        code: 'custom',
        path: [],
        message: 'send at least one of carrier, trackingNumber, trackingUrl',
      });
  });
export type RepairTrackingInput = z.output<typeof repairTrackingInputSchema>;

export const fulfillmentListQuerySchema = z.object({
  recordId: recordIdSchema,
  limit: limitSchema,
  cursor: cursorSchema
    .optional()
    .describe('The id of the last fulfillment of the previous page (`nextCursor`)'),
});
export type FulfillmentListQuery = z.output<typeof fulfillmentListQuerySchema>;

const instant = z.iso.datetime();

export const fulfillmentLineSchema = z
  .object({
    lineId: z.string(),
    itemId: z.string().nullable(),
    variantId: z.string().nullable(),
    sku: z.string().nullable().describe("The variant's SKU when the fulfillment was created"),
    name: z.string(),
    quantity: z.number().int(),
  })
  .meta({ id: 'FulfillmentLine' });

export const postageSchema = z
  .object({
    id: z.string().describe('`pst_…`'),
    source: z
      .enum(['NATIVE', 'EXTERNAL', 'LEGACY'])
      .describe(
        '`NATIVE` (bought here), `EXTERNAL` (recorded by the merchant), `LEGACY` (imported, not addressable by the carrier)',
      ),
    status: z.enum(['ACTIVE', 'VOID_PENDING', 'VOIDED', 'RETIRED']),
    carrier: z.string(),
    service: z.string().nullable(),
    trackingNumber: z.string(),
    trackingUrl: z.string().nullable(),
    chargeInCents: z.number().int().nullable().describe('Null for external postage'),
    currency: z.string().nullable(),
    purchaseId: z.string().nullable().describe('Null for external postage'),
    labelAvailable: z
      .boolean()
      .describe('Whether the label document is stored (native only; the worker retries a failed fetch)'),
    purchasedAt: instant.nullable(),
    retiredAt: instant.nullable(),
    retirementEvidence: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'Postage' });

export const VOID_EVIDENCE_SOURCES = ['VOID_RESPONSE', 'STATUS_READ', 'CARRIER_CHECK'] as const;
export const SHIPMENT_CANCELLATION_STATUSES = [
  'PENDING',
  'VOIDED',
  'REJECTED',
  'EXHAUSTED',
  'NOT_SENT',
] as const;

/** A carrier's statement that the label is voided or refunded; "submitted" or "pending" is not one. */
export const voidEvidenceSchema = z
  .object({
    source: z.enum(VOID_EVIDENCE_SOURCES),
    providerStatus: z.string().describe("The carrier's own status, raw"),
    providerReference: z.string().describe('The label the carrier spoke of (its tracking number)'),
    observedAt: instant,
    refundAmountInCents: z.number().int().nullable(),
  })
  .meta({ id: 'VoidEvidence' });
export type VoidEvidence = z.infer<typeof voidEvidenceSchema>;

export const shipmentCancellationSchema = z
  .object({
    id: z.string().describe('`scn_…`'),
    status: z
      .enum(SHIPMENT_CANCELLATION_STATUSES)
      .describe(
        '`PENDING` and `EXHAUSTED` are open (handoff blocked); `VOIDED` closed by evidence; `REJECTED` and `NOT_SENT` closed with the label still standing',
      ),
    reason: z.string().nullable(),
    requestedBy: z.string().nullable(),
    requestedAt: instant,
    voidRequestedAt: instant.nullable(),
    voidRequestCount: z.number().int().describe('Always 1: one void request per cancellation'),
    pollAttempts: z.number().int().describe("The worker's status reads so far (at most 7)"),
    evidence: voidEvidenceSchema.nullable(),
    checks: z
      .array(z.object({ at: instant, providerStatus: z.string().nullable(), result: z.string() }))
      .describe('Carrier checks of an `EXHAUSTED` cancellation that found the void still pending'),
    closedAt: instant.nullable(),
  })
  .meta({ id: 'ShipmentCancellation' });
export type ShipmentCancellationRead = z.infer<typeof shipmentCancellationSchema>;

export const fulfillmentPackageSchema = z
  .object({
    boxPresetId: z.string().nullable().describe('The box preset (`box_…`); null for custom dimensions'),
    boxPresetRevision: z.number().int().nullable().describe("The preset's revision when it was chosen"),
    lengthMm: z.number().int().describe('Outer'),
    widthMm: z.number().int().describe('Outer'),
    heightMm: z.number().int().describe('Outer'),
    loadedWeightGrams: z.number().int(),
  })
  .meta({ id: 'FulfillmentPackage' });
export type FulfillmentPackageRead = z.infer<typeof fulfillmentPackageSchema>;

export const fulfillmentSchema = z
  .object({
    id: z.string().describe('`ful_…`'),
    recordId: z.string().describe('The sales record (`sal_…`)'),
    orderId: z.string().nullable().describe('The legacy order (`ord_…`); null for a record without one'),
    status: z.enum(FULFILLMENT_RECORD_STATUSES),
    origin: z
      .enum(FULFILLMENT_ORIGINS)
      .describe(
        '`DIRECT` (direct fulfillment), `PLANNED` (plan route), `NATIVE_LABEL` (created by a label purchase); `LEGACY` is reserved for imported history',
      ),
    lines: z.array(fulfillmentLineSchema).describe('PRODUCT lines only; fixed at creation'),
    tracking: z
      .object({ carrier: z.string(), trackingNumber: z.string(), trackingUrl: z.string().nullable() })
      .nullable()
      .describe("The shipment's tracking: from the direct body, or the current postage's"),
    package: fulfillmentPackageSchema
      .nullable()
      .describe('The outer package a plan was given; null when none was'),
    postage: postageSchema.nullable().describe('The current postage (`ACTIVE` or `VOID_PENDING`), else null'),
    retiredPostage: z.array(postageSchema).describe('Earlier postage, newest first'),
    cancellation: shipmentCancellationSchema
      .nullable()
      .describe('The latest shipment cancellation (cancel-prepared-shipment), or null'),
    notification: z
      .object({
        decision: z.enum(['SEND', 'SUPPRESS']).nullable(),
        decidedAt: instant.nullable(),
        decidedBy: z.string().nullable().describe('The merchant user (`usr_…`) who decided'),
        emailQueued: z.boolean(),
      })
      .nullable()
      .describe('Null until `SHIPPED`'),
    note: z.string().nullable().describe('Merchant-internal'),
    inventoryConsumedAt: instant.nullable(),
    shippedAt: instant.nullable(),
    deliveredAt: instant.nullable(),
    cancelledAt: instant.nullable(),
    cancelReason: z.string().nullable(),
    createdBy: z.string().nullable(),
    createdAt: instant,
    updatedAt: instant,
    version: z.number().int().describe('+1 on every change'),
  })
  .meta({ id: 'Fulfillment' });
export type FulfillmentRead = z.infer<typeof fulfillmentSchema>;

export const directFulfillmentSchema = fulfillmentSchema
  .extend({
    recordFulfillmentStatus: fulfillmentStatusSchema.describe(
      "The record's (and its legacy order's) `fulfillmentStatus` after this shipment",
    ),
  })
  .meta({ id: 'DirectFulfillment' });
export type DirectFulfillmentRead = z.infer<typeof directFulfillmentSchema>;
