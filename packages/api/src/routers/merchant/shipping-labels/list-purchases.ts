import { pageSchema } from '@commerce/core';
import { labelPurchaseListQuerySchema, labelPurchaseSchema, listLabelPurchases } from '@commerce/fulfillment';
import { merchantProcedure } from '../../../trpc.ts';
import { ADDRESSING, RECONCILIATION, TAGS } from './docs.ts';
import { readContext } from './label-access.ts';

export const listPurchasesProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/orders/{orderId}/shipping-label/purchases',
      tags: TAGS,
      summary: "An order's label purchases, oldest first",
      description: `Failed purchases included. ${ADDRESSING} ${RECONCILIATION}`,
    },
  })
  .input(labelPurchaseListQuerySchema)
  .output(pageSchema(labelPurchaseSchema))
  .query(({ ctx, input }) => listLabelPurchases(ctx.db, readContext(ctx), input));
