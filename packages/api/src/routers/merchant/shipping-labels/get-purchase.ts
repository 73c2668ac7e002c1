import { getLabelPurchase, labelPurchasePathSchema, labelPurchaseSchema } from '@commerce/fulfillment';
import { merchantProcedure } from '../../../trpc.ts';
import { ADDRESSING, RECONCILIATION, TAGS } from './docs.ts';
import { readContext } from './label-access.ts';

export const getPurchaseProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/orders/{orderId}/shipping-label/purchases/{purchaseId}',
      tags: TAGS,
      summary: 'A label purchase',
      description: `${ADDRESSING} ${RECONCILIATION}`,
    },
  })
  .input(labelPurchasePathSchema)
  .output(labelPurchaseSchema)
  .query(({ ctx, input }) => getLabelPurchase(ctx.db, readContext(ctx), input));
