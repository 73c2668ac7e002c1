import { cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';

export const customerOrderListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last order of the previous page (`nextCursor`)'),
});
export type CustomerOrderListQuery = z.output<typeof customerOrderListQuerySchema>;

// Malformed values are looked up like any other and found nowhere: the same neutral 404 as an unknown one.
export const orderReferenceInputSchema = z.object({
  orderReference: z.string().max(100).describe('`or1_` + 32 lowercase hex'),
});
export const customerOrderNumberInputSchema = z.object({
  orderNumber: z.string().max(32).describe('The display number, e.g. `1042`'),
});
