import { cursorSchema, limitSchema } from '@commerce/core/schemas';
import type { AuditActor, ReturnReason, ReturnStatus } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import { z } from 'zod';

export const RETURN_STATUSES = [
  'REQUESTED',
  'APPROVED',
  'RECEIVED',
  'COMPLETED',
  'REJECTED',
  'CANCELLED',
] as const satisfies readonly ReturnStatus[];
export const RETURN_REASONS = [
  'DAMAGED',
  'DEFECTIVE',
  'WRONG_ITEM',
  'NOT_AS_DESCRIBED',
  'SIZE_OR_FIT',
  'NO_LONGER_NEEDED',
  'OTHER',
] as const satisfies readonly ReturnReason[];
/** States whose lines hold their quantity: everything but a refused or withdrawn return. */
export const LIVE_RETURN_STATUSES = ['REQUESTED', 'APPROVED', 'RECEIVED', 'COMPLETED'] as const;

export const MAX_RETURN_LINES = 100;
export const MAX_RETURN_NOTE_LENGTH = 500;
export const MAX_REJECTION_REASON_LENGTH = 500;
/** What a return window of an organization without the setting is (`checkoutSettings.returnWindowDays`). */
export const DEFAULT_RETURN_WINDOW_DAYS = 30;

export const returnStatusSchema = z.enum(RETURN_STATUSES);
export const returnReasonSchema = z.enum(RETURN_REASONS);

/** The signed-in customer (or the holder of their action token) a return belongs to. */
export interface ReturnCustomer {
  organizationId: string;
  customerId: string;
  /** The verified email: "own orders" are the tenant's orders with this customer email (case-insensitive). */
  email: string;
}

/** What a customer-side return change needs besides the customer. */
export interface CustomerReturnScope {
  customer: ReturnCustomer;
  /** `checkoutSettings.returnWindowDays` of the organization. */
  returnWindowDays: number;
  email: CustomerEmailConfig;
  at: Date;
}

/** Who changes a return on the merchant side, in which organization, and when. */
export interface ReturnWriteContext {
  organizationId: string;
  actor: AuditActor;
  email: CustomerEmailConfig;
  at: Date;
}

/**
 * How a customer route names an order: the primary `or1_` reference, or the
 * display number of the compatibility routes. Either, malformed, unknown,
 * foreign or someone else's, is the same neutral 404.
 */
export type CustomerOrderKey = { orderReference: string } | { orderNumber: string };

export const returnLineInputSchema = z.strictObject({
  lineId: z
    .string()
    .min(1)
    .max(64)
    .describe('A PRODUCT line of the order (`sli_…`, `items[].id` of the order)'),
  quantity: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .describe('How many to send back: 1 to what is left to return'),
  reason: returnReasonSchema,
  note: z
    .string()
    .trim()
    .max(MAX_RETURN_NOTE_LENGTH)
    .optional()
    .describe('Optional words from the customer, at most 500 characters'),
});
export type ReturnLineInput = z.output<typeof returnLineInputSchema>;

const returnLinesSchema = z
  .array(returnLineInputSchema)
  .min(1)
  .max(MAX_RETURN_LINES)
  .describe('1 to 100 lines, each line of the order at most once');

/** `POST …/returns`: the lines to send back. No customer email: the session is the identity. */
export const createReturnInputSchema = z
  .strictObject({ lines: returnLinesSchema })
  .meta({ id: 'ReturnCreate' });
export type CreateReturnInput = z.output<typeof createReturnInputSchema>;

export const returnLineSchema = z
  .object({
    lineId: z.string().describe('The sales record line returned'),
    itemId: z.string().nullable(),
    variantId: z.string().nullable(),
    name: z.string(),
    quantity: z.number().int(),
    unitPriceInCents: z.number().int(),
    totalInCents: z.number().int().describe('quantity × unitPriceInCents'),
    reason: returnReasonSchema,
    note: z.string().nullable(),
  })
  .meta({ id: 'ReturnLine' });
export type ReturnLineRead = z.infer<typeof returnLineSchema>;

const instant = z.iso.datetime();

export const returnSchema = z
  .object({
    id: z.string().describe('`ret_…`'),
    orderId: z.string(),
    orderReference: z.string().nullable(),
    orderNumber: z.number().int(),
    status: returnStatusSchema,
    channel: z
      .enum(['ACCOUNT', 'ACTION_TOKEN'])
      .describe('Requested from the signed-in account, or with a return action token'),
    customerEmail: z.string(),
    currency: z.string(),
    refundTotalInCents: z
      .number()
      .int()
      .describe('Σ quantity × unit price of the lines: what completing the return refunds'),
    rejectionReason: z.string().nullable().describe('Set when REJECTED'),
    lines: z.array(returnLineSchema),
    createdAt: instant,
    updatedAt: instant,
    approvedAt: instant.nullable(),
    receivedAt: instant.nullable(),
    completedAt: instant.nullable(),
    rejectedAt: instant.nullable(),
    cancelledAt: instant.nullable(),
  })
  .meta({ id: 'Return' });
export type ReturnRead = z.infer<typeof returnSchema>;

export const RETURN_INELIGIBILITY_REASONS = [
  'NOT_SHIPPED',
  'RETURNS_DISABLED',
  'WINDOW_CLOSED',
  'NOTHING_TO_RETURN',
] as const;
export type ReturnIneligibility = (typeof RETURN_INELIGIBILITY_REASONS)[number];

export const returnableLineSchema = z
  .object({
    lineId: z.string(),
    itemId: z.string().nullable(),
    variantId: z.string().nullable(),
    name: z.string(),
    unitPriceInCents: z.number().int(),
    purchasedQuantity: z.number().int(),
    shippedQuantity: z.number().int().describe('Units in SHIPPED and DELIVERED fulfillments'),
    returnableQuantity: z
      .number()
      .int()
      .describe('Shipped minus what live returns (not REJECTED or CANCELLED) already claim'),
  })
  .meta({ id: 'ReturnableLine' });
export type ReturnableLine = z.infer<typeof returnableLineSchema>;

export const returnEligibilitySchema = z
  .object({
    eligible: z.boolean().describe('Whether a return can be requested now'),
    reason: z
      .enum(RETURN_INELIGIBILITY_REASONS)
      .nullable()
      .describe(
        'Why not: nothing of the order has shipped, the store turned returns off (window 0 days), the window closed, or every shipped unit is already claimed',
      ),
    windowEndsAt: instant
      .nullable()
      .describe('When the return window closes; null before anything has shipped'),
    lines: z.array(returnableLineSchema).describe('The PRODUCT lines of the order'),
  })
  .meta({ id: 'ReturnEligibility' });
export type ReturnEligibility = z.infer<typeof returnEligibilitySchema>;

/** The customer's return activity on one order: its returns, newest first, and what is returnable now. */
export const orderReturnsSchema = z
  .object({
    data: z.array(returnSchema),
    nextCursor: z.string().nullable(),
    eligibility: returnEligibilitySchema,
  })
  .meta({ id: 'OrderReturns' });
export type OrderReturns = z.infer<typeof orderReturnsSchema>;

const orderReferenceParam = z
  .string()
  .max(100)
  .describe('The `orderReference` (`or1_` + 32 lowercase hex) of one of your orders');
const orderNumberParam = z
  .string()
  .max(30)
  .describe('The display number of one of your orders (compatibility)');
const pageParams = {
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last return of the previous page (`nextCursor`)'),
};

export const byReferenceInputSchema = z.object({ orderReference: orderReferenceParam });
export const byNumberInputSchema = z.object({ orderNumber: orderNumberParam });
export const orderReturnsByReferenceQuerySchema = z.object({
  orderReference: orderReferenceParam,
  ...pageParams,
});
export const orderReturnsByNumberQuerySchema = z.object({ orderNumber: orderNumberParam, ...pageParams });
export type ReturnPageQuery = { limit: number; cursor?: string | undefined };

export const createReturnByReferenceInputSchema = createReturnInputSchema.extend({
  orderReference: orderReferenceParam,
});
export const cancelReturnInputSchema = z.object({
  orderReference: orderReferenceParam,
  returnId: z.string().max(64).describe('`ret_…`'),
});

export const returnIdInputSchema = z.object({ returnId: z.string().min(1).max(64).describe('`ret_…`') });
export const rejectReturnInputSchema = z.strictObject({
  returnId: returnIdInputSchema.shape.returnId,
  reason: z
    .string()
    .trim()
    .min(1)
    .max(MAX_REJECTION_REASON_LENGTH)
    .describe('Why the return is refused, 1 to 500 characters; shown to the customer in RETURN_REJECTED'),
});
export type RejectReturnInput = z.output<typeof rejectReturnInputSchema>;

export const returnListQuerySchema = z.object({
  ...pageParams,
  status: returnStatusSchema.optional(),
  orderId: z.string().min(1).max(64).optional().describe('The returns of one order (`ord_…`)'),
  email: z.email().max(320).optional().describe("The customer's email, exactly (case-insensitive)"),
});
export type ReturnListQuery = z.output<typeof returnListQuerySchema>;
