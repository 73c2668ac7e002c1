import { pageSchema } from '@commerce/core';
import { labelPurchaseListQuerySchema, labelPurchaseSchema, listLabelPurchases } from '@commerce/orders';
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
      description: [
        `Open to any member. ${ADDRESSING}`,
        'Every purchase of the order, failed ones included, oldest first (by id), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor naming no purchase of the order is `400`.',
        RECONCILIATION,
      ].join('\n\n'),
    },
  })
  .input(labelPurchaseListQuerySchema)
  .output(pageSchema(labelPurchaseSchema))
  .query(({ ctx, input }) => listLabelPurchases(ctx.db, readContext(ctx), input));
