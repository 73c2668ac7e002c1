import { z } from 'zod';
import { fulfillmentLinesInputSchema, fulfillmentPackageInputSchema } from '../fulfillments/schemas.ts';

/** The quote's body and answer (CONTRACT-fulfillment.md 13.11, 13.12; limits 13.21). */

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
      recommendedBoxPresetId: z.string().nullable().describe('The proven fit (13.9), or null'),
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
