import { cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';
import {
  fulfillmentLinesInputSchema,
  fulfillmentPackageInputSchema,
  fulfillmentSchema,
} from '../fulfillments/schemas.ts';

/** The quote's body and answer (docs/fulfillment.md "Label quote"). */

export const shippingLabelQuoteInputSchema = z.strictObject({
  orderId: z
    .string()
    .min(1)
    .max(64)
    .describe(
      'The order (`ord_…`) or its sales record (`sal_…`); either id of the pair names the same record',
    ),
  lines: fulfillmentLinesInputSchema,
  package: fulfillmentPackageInputSchema,
  carrier: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .describe('A configured carrier (`GET /merchant/shipping/carriers`)'),
  service: z.string().trim().min(1).max(50).describe('One of its service codes'),
  fulfillmentId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'A `PLANNED` fulfillment to label, or a `READY` one whose postage was voided or retired; `lines` must equal its lines',
    ),
});
export type ShippingLabelQuoteInput = z.output<typeof shippingLabelQuoteInputSchema>;

export const LABEL_BLOCKERS = [
  'ORDER_NOT_FULFILLABLE',
  'LINES_UNAVAILABLE',
  'LINES_HELD_BY_UNSETTLED_PURCHASE',
  'FULFILLMENT_NOT_LABELABLE',
  'SHIP_FROM_ADDRESS_MISSING',
  'SHIP_TO_ADDRESS_MISSING',
  'SERVICE_UNAVAILABLE',
  'PACKAGE_EXCEEDS_SERVICE_LIMITS',
] as const;
export type LabelBlocker = (typeof LABEL_BLOCKERS)[number];

export const LABEL_ACKNOWLEDGEMENTS = [
  'PACKAGE_OVERRIDE',
  'WEIGHT_BELOW_CATALOG',
  'CHARGE_EXCEEDS_COLLECTED_SHIPPING',
] as const;
export type LabelAcknowledgement = (typeof LABEL_ACKNOWLEDGEMENTS)[number];

export const LABEL_CLASSIFICATIONS = ['BLOCKED', 'HIGH_RISK', 'REVIEW_REQUIRED', 'STANDARD'] as const;
export type LabelClassification = (typeof LABEL_CLASSIFICATIONS)[number];

export const labelDecisionSchema = z
  .object({
    classification: z.enum(LABEL_CLASSIFICATIONS),
    acknowledgementsRequired: z.array(z.enum(LABEL_ACKNOWLEDGEMENTS)),
    overrideReasonRequired: z.boolean().describe('`PACKAGE_OVERRIDE` or `WEIGHT_BELOW_CATALOG` is required'),
    spendReasonRequired: z.boolean().describe('The charge is high-risk: the purchase needs a `reason`'),
    blockers: z.array(z.object({ code: z.enum(LABEL_BLOCKERS), message: z.string() })),
  })
  .meta({ id: 'ShippingLabelDecision' });
export type LabelDecision = z.infer<typeof labelDecisionSchema>;

export const FUNDING_STATUSES = ['SUFFICIENT', 'INSUFFICIENT', 'UNKNOWN'] as const;

export const fundingSchema = z
  .object({
    status: z
      .enum(FUNDING_STATUSES)
      .describe('`UNKNOWN` when the balance could not be read or there is no charge'),
    fundingModel: z.literal('PREPAID_BALANCE'),
    balanceInCents: z.number().int().nullable(),
    openClaimsInCents: z
      .number()
      .int()
      .describe("Charges of the organization's PENDING and UNCERTAIN purchases"),
    availableInCents: z.number().int().nullable().describe('Balance less open claims'),
    shortfallInCents: z.number().int().nullable().describe('What the charge lacks; 0 when sufficient'),
    autoTopUp: z.literal(false),
  })
  .meta({ id: 'ShippingLabelFunding' });
export type Funding = z.infer<typeof fundingSchema>;

const outerSchema = z.object({
  lengthMm: z.number().int(),
  widthMm: z.number().int(),
  heightMm: z.number().int(),
});

export const shippingLabelQuoteSchema = z
  .object({
    selectionQuoteFingerprint: z
      .string()
      .nullable()
      .describe('`sqf1_…`: echo it in the purchase; null when no charge could be computed'),
    carrier: z.string(),
    service: z.string(),
    serviceName: z.string(),
    chargeInCents: z.number().int().nullable().describe('The exact charge the purchase will spend'),
    currency: z.string().nullable(),
    billableWeightGrams: z.number().int().nullable(),
    package: z.object({
      source: z.enum(['PRESET', 'CUSTOM']),
      boxPresetId: z.string().nullable(),
      boxPresetRevision: z.number().int().nullable(),
      outer: outerSchema.describe('As rated'),
      loadedWeightGrams: z.number().int(),
      catalogWeightGrams: z
        .number()
        .int()
        .nullable()
        .describe("The units' catalog weight; null when a unit lacks dimensions"),
      recommendedBoxPresetId: z.string().nullable().describe('The proven-fit box preset, or null'),
    }),
    funding: fundingSchema,
    decision: labelDecisionSchema,
  })
  .meta({ id: 'ShippingLabelQuote' });
export type ShippingLabelQuote = z.infer<typeof shippingLabelQuoteSchema>;

export const postageBalanceSchema = z
  .object({
    carrier: z.string(),
    fundingModel: z.literal('PREPAID_BALANCE'),
    balanceInCents: z.number().int(),
    openClaimsInCents: z.number().int(),
    availableInCents: z.number().int(),
    currency: z.string(),
    autoTopUp: z.literal(false),
    checkedAt: z.string().describe('When the carrier was asked (ISO 8601)'),
  })
  .meta({ id: 'PostageBalance' });
export type PostageBalance = z.infer<typeof postageBalanceSchema>;

/** The purchase's body: the quote's, the fingerprint it answered, and what the decision required. */
export const purchaseShippingLabelInputSchema = shippingLabelQuoteInputSchema.extend({
  selectionQuoteFingerprint: z
    .string()
    .min(1)
    .max(100)
    .describe("The quote's `sqf1_…`; the server recomputes it and refuses a difference"),
  acknowledgements: z
    .array(z.enum(LABEL_ACKNOWLEDGEMENTS))
    .max(LABEL_ACKNOWLEDGEMENTS.length)
    .default([])
    .describe("The quote's `acknowledgementsRequired` the merchant accepts (default none)"),
  overrideReason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .optional()
    .describe('Required with `PACKAGE_OVERRIDE` or `WEIGHT_BELOW_CATALOG`; 1 to 500'),
  reason: z.string().trim().min(1).max(500).optional().describe('The spend reason a `HIGH_RISK` label needs'),
});
export type PurchaseShippingLabelInput = z.output<typeof purchaseShippingLabelInputSchema>;

export const LABEL_PURCHASE_STATUSES = ['PENDING', 'PURCHASED', 'FAILED', 'UNCERTAIN'] as const;
export const RECONCILIATION_STATUSES = [
  'NOT_REQUIRED',
  'IN_FLIGHT',
  'ALLOWED',
  'COOLING_DOWN',
  'RESOLVED',
] as const;

export const reconciliationSchema = z
  .object({
    status: z.enum(RECONCILIATION_STATUSES),
    allowed: z.boolean().describe('Whether `POST …/reconcile` may run now'),
    allowedAfter: z.iso
      .datetime()
      .nullable()
      .describe('When an `IN_FLIGHT` or `COOLING_DOWN` purchase may be reconciled'),
    attempts: z.number().int().describe('Reconciles attempted, answered or not'),
    lastCheckedAt: z.iso.datetime().nullable(),
    outcome: z
      .enum(['PURCHASED', 'NOT_PURCHASED'])
      .nullable()
      .describe('What a reconcile settled; null unless `RESOLVED`'),
  })
  .meta({ id: 'LabelPurchaseReconciliation' });
export type Reconciliation = z.infer<typeof reconciliationSchema>;

export const labelPurchaseSchema = z
  .object({
    id: z.string().describe('`lbp_…`: also the carrier-side client reference'),
    recordId: z.string(),
    orderId: z.string().nullable(),
    fulfillmentId: z
      .string()
      .nullable()
      .describe('The fulfillment labelled: the named one, or the `READY` one a purchase created'),
    status: z.enum(LABEL_PURCHASE_STATUSES),
    failure: z.enum(['DECLINED', 'NOT_SENT', 'NOT_PURCHASED']).nullable(),
    carrier: z.string(),
    service: z.string(),
    chargeInCents: z.number().int(),
    currency: z.string(),
    classification: z.enum(['HIGH_RISK', 'REVIEW_REQUIRED', 'STANDARD']),
    acknowledgements: z.array(z.enum(LABEL_ACKNOWLEDGEMENTS)),
    overrideReason: z.string().nullable(),
    reason: z.string().nullable(),
    trackingNumber: z.string().nullable(),
    createdBy: z.string().nullable(),
    claimedAt: z.iso.datetime(),
    settledAt: z.iso.datetime().nullable(),
    reconciliation: reconciliationSchema,
  })
  .meta({ id: 'LabelPurchase' });
export type LabelPurchaseRead = z.infer<typeof labelPurchaseSchema>;

export const labelPurchasePathSchema = z.object({
  orderId: shippingLabelQuoteInputSchema.shape.orderId,
  purchaseId: z.string().min(1).max(64).describe('A label purchase (`lbp_…`) of that order'),
});
export type LabelPurchasePath = z.output<typeof labelPurchasePathSchema>;

export const labelPurchaseListQuerySchema = z.object({
  orderId: shippingLabelQuoteInputSchema.shape.orderId,
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last purchase of the previous page (`nextCursor`)'),
});
export type LabelPurchaseListQuery = z.output<typeof labelPurchaseListQuerySchema>;

export const reconcileLabelPurchaseInputSchema = labelPurchasePathSchema.strict();

export const labelPurchaseResultSchema = z
  .object({ purchase: labelPurchaseSchema, fulfillment: fulfillmentSchema })
  .meta({ id: 'LabelPurchaseResult' });
export type LabelPurchaseResult = z.infer<typeof labelPurchaseResultSchema>;

export const labelReconcileResultSchema = z
  .object({
    purchase: labelPurchaseSchema,
    fulfillment: fulfillmentSchema
      .optional()
      .describe('Present when the reconcile found the label bought (`PURCHASED`)'),
  })
  .meta({ id: 'LabelReconcileResult' });
export type LabelReconcileResult = z.infer<typeof labelReconcileResultSchema>;
