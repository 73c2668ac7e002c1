import type { AuditActor } from '@commerce/db';
import { z } from 'zod';
import { SANDBOX_BEHAVIOUR_VALUES, sandboxBehavioursSchema } from './sandbox-behaviours.ts';

/** Who acts on the sandbox carrier's console, for which tenant, when. */
export interface SandboxControlContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
  /** The store currency: the account opens in it at its first use. */
  currency: string;
  startingBalanceInCents: number;
}

export const SANDBOX_LABELS_SHOWN = 100;
export const MAX_SANDBOX_FUNDS_IN_CENTS = 10_000_000;
/** The account's ceiling (the column's CHECK): funds past it are refused. */
export const MAX_SANDBOX_BALANCE_IN_CENTS = 2_000_000_000;

export const sandboxCarrierSchema = z
  .object({
    balanceInCents: z.number().int().describe('The prepaid balance now'),
    currency: z.string(),
    behaviours: sandboxBehavioursSchema,
    purchaseCount: z.number().int().describe('Labels sold to this organization'),
    labels: z
      .array(
        z.object({
          trackingNumber: z.string(),
          purchaseId: z.string().describe('The client reference the label was bought under (`lbp_…`)'),
          status: z.enum(['ACTIVE', 'VOID_PENDING', 'VOIDED', 'VOID_REJECTED']),
          voidRequestCount: z.number().int(),
        }),
      )
      .describe(`The latest ${SANDBOX_LABELS_SHOWN} labels, newest first`),
  })
  .meta({ id: 'SandboxCarrier' });
export type SandboxCarrierRead = z.infer<typeof sandboxCarrierSchema>;

export const sandboxCarrierUpdateInputSchema = z.strictObject({
  behaviours: z
    .strictObject({
      rate: z.enum(SANDBOX_BEHAVIOUR_VALUES.rate).optional(),
      balance: z.enum(SANDBOX_BEHAVIOUR_VALUES.balance).optional(),
      purchase: z.enum(SANDBOX_BEHAVIOUR_VALUES.purchase).optional(),
      void: z.enum(SANDBOX_BEHAVIOUR_VALUES.void).optional(),
      read: z.enum(SANDBOX_BEHAVIOUR_VALUES.read).optional(),
    })
    .describe('Any of the behaviours; the others keep their value'),
});
export type SandboxCarrierUpdateInput = z.output<typeof sandboxCarrierUpdateInputSchema>;

export const sandboxFundsInputSchema = z.strictObject({
  amountInCents: z
    .number()
    .int()
    .min(1)
    .max(MAX_SANDBOX_FUNDS_IN_CENTS)
    .describe('1 to 10000000, added to the balance'),
});
export type SandboxFundsInput = z.output<typeof sandboxFundsInputSchema>;

export const sandboxSettleVoidInputSchema = z.strictObject({
  trackingNumber: z
    .string()
    .min(1)
    .max(100)
    .describe('A label of this organization with a refund in progress (`VOID_PENDING`)'),
  outcome: z
    .enum(['VOIDED', 'REJECTED'])
    .describe('`VOIDED` refunds the charge; `REJECTED` leaves the label standing'),
});
export type SandboxSettleVoidInput = z.output<typeof sandboxSettleVoidInputSchema>;

export const carrierListSchema = z
  .object({
    data: z.array(
      z.object({
        carrier: z.string(),
        services: z.array(z.object({ code: z.string(), name: z.string(), domesticOnly: z.boolean() })),
      }),
    ),
    nextCursor: z.null(),
  })
  .meta({ id: 'CarrierList' });
export type CarrierList = z.infer<typeof carrierListSchema>;
