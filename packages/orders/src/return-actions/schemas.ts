import type { ActionTokenPurpose } from '@commerce/db';
import { z } from 'zod';
import { MAX_RETURN_LINES, returnLineInputSchema, returnSchema } from '../returns/schemas.ts';

export const ACTION_TOKEN_PURPOSES = ['RETURN_REQUEST'] as const satisfies readonly ActionTokenPurpose[];
/** The actions each purpose allows (a token performs one of them, once). */
export const ACTIONS_OF_PURPOSE = {
  RETURN_REQUEST: ['REQUEST_RETURN'],
} as const satisfies Record<ActionTokenPurpose, readonly string[]>;
/** How long an issued token lives, at most: it never outlives the order's return window either. */
export const ACTION_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export const actionTokenPurposeSchema = z.enum(ACTION_TOKEN_PURPOSES);

/** `POST …/return-actions`: which purpose the token serves. */
export const issueReturnActionInputSchema = z
  .strictObject({
    purpose: actionTokenPurposeSchema.describe(
      '`RETURN_REQUEST`: the holder may request one return of the lines eligible now, without signing in',
    ),
  })
  .meta({ id: 'ReturnActionIssue' });
export type IssueReturnActionInput = z.output<typeof issueReturnActionInputSchema>;

/** A line the token covers: eligible when issued, with the quantity then left to return. */
export const actionTokenLineSchema = z
  .object({
    lineId: z.string(),
    itemId: z.string().nullable(),
    variantId: z.string().nullable(),
    name: z.string(),
    unitPriceInCents: z.number().int(),
    quantity: z.number().int().describe('The most the token may return of this line'),
  })
  .meta({ id: 'ActionTokenLine' });
export type ActionTokenLine = z.infer<typeof actionTokenLineSchema>;

const orderAddressShape = {
  orderReference: z.string().nullable(),
  orderNumber: z.number().int(),
};

export const issuedReturnActionSchema = z
  .object({
    token: z
      .string()
      .describe(
        'The `a1_` action token: shown only in this response, never emailed, stored only as a hash. Use it with `GET`/`POST /customer/actions/{token}`',
      ),
    purpose: actionTokenPurposeSchema,
    expiresAt: z.iso.datetime(),
    ...orderAddressShape,
    lines: z.array(actionTokenLineSchema),
  })
  .meta({ id: 'IssuedReturnAction' });
export type IssuedReturnAction = z.infer<typeof issuedReturnActionSchema>;

export const requestReturnActionSchema = z.strictObject({
  action: z.literal('REQUEST_RETURN').describe('The action to perform; it must be one the purpose allows'),
  lines: z
    .array(returnLineInputSchema)
    .min(1)
    .max(MAX_RETURN_LINES)
    .describe("Lines among the token's, each at most the token's quantity"),
});

/** `POST /customer/actions/{token}`: the action and its input. */
export const performActionInputSchema = z
  .discriminatedUnion('action', [requestReturnActionSchema])
  .meta({ id: 'ActionPerform' });
export type PerformActionInput = z.output<typeof performActionInputSchema>;

export const actionResultSchema = z
  .object({
    action: z.literal('REQUEST_RETURN'),
    return: returnSchema,
  })
  .meta({ id: 'ActionResult' });
export type ActionResult = z.infer<typeof actionResultSchema>;

export const actionPreviewSchema = z
  .object({
    purpose: actionTokenPurposeSchema,
    expiresAt: z.iso.datetime(),
    consumedAt: z.iso
      .datetime()
      .nullable()
      .describe('When the token performed its action; null while unused'),
    order: z.object({ ...orderAddressShape, status: z.string() }),
    lines: z.array(
      actionTokenLineSchema.extend({
        returnableQuantity: z
          .number()
          .int()
          .describe(
            'What the token could return of the line now: its quantity, less what returns claimed since',
          ),
      }),
    ),
    actions: z
      .array(z.object({ action: z.literal('REQUEST_RETURN'), enabled: z.boolean() }))
      .describe('The actions of the purpose; all disabled once the token was used'),
    result: actionResultSchema.nullable().describe('The recorded result of the action performed, if any'),
  })
  .meta({ id: 'ActionPreview' });
export type ActionPreview = z.infer<typeof actionPreviewSchema>;

export const actionTokenInputSchema = z.object({
  token: z.string().max(100).describe('The `a1_` action token'),
});
