import { pageSchema } from '@commerce/core';
import { listPublicOrders, publicOrderListQuerySchema, publicOrderSchema } from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { READS_SWITCH, TAGS } from './docs.ts';
import { assertPublicOrderReads } from './public-order-reads.ts';

export const listProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/orders',
      tags: TAGS,
      summary: "The store's orders (only when public order reads are on)",
      description: `${READS_SWITCH} Newest first.`,
    },
    rateLimit: 'public-read',
  })
  .input(publicOrderListQuerySchema)
  .output(pageSchema(publicOrderSchema))
  .query(async ({ ctx, input }) => {
    await assertPublicOrderReads(ctx, ctx.tenant.organizationId);
    return listPublicOrders(ctx.db, ctx.tenant.organizationId, input);
  });
