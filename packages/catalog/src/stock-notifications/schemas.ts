import { z } from 'zod';
import { variantIdSchema } from '../variants/schemas.ts';

export const stockSubscriptionStatusSchema = z
  .enum(['ACTIVE', 'NOTIFIED', 'UNSUBSCRIBED'])
  .describe(
    '`ACTIVE`: waiting for stock. `NOTIFIED`: the back-in-stock email went out (a new signup makes it ACTIVE again). `UNSUBSCRIBED`: opted out through an unsubscribe link; a new signup leaves it so.',
  );

export const subscribeToStockBodySchema = z.strictObject({
  email: z
    .string()
    .trim()
    .max(320)
    .pipe(z.email())
    .describe('Where the back-in-stock email goes; at most 320 characters, compared without case'),
  variantId: variantIdSchema
    .optional()
    .describe(
      'The variant awaited; omit it to hear when any variant of the item is back. Must name a non-archived variant of the item.',
    ),
});
export type SubscribeToStockInput = z.output<typeof subscribeToStockBodySchema>;

/** A signup as the shopper sees it: never the email of another signup. */
export const stockSubscriptionSchema = z
  .object({
    id: z.string().describe('`stk_…`'),
    itemId: z.string(),
    variantId: z.string().nullable().describe('Null for a signup that waits for any variant'),
    status: stockSubscriptionStatusSchema,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'StockSubscription' });
export type StockSubscriptionRead = z.infer<typeof stockSubscriptionSchema>;

export const unsubscribeBodySchema = z.strictObject({
  token: z.string().min(1).max(100).describe('The `token` query parameter of the unsubscribe link (`u1_…`)'),
});

export const unsubscribeResultSchema = z
  .object({
    status: z.literal('UNSUBSCRIBED'),
    subscriptionType: z.literal('STOCK_NOTIFICATION'),
    itemName: z.string().describe('What the subscription was about, for the confirmation page'),
  })
  .meta({ id: 'UnsubscribeResult' });
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;
