import { getPublicOrder, orderIdInputSchema, publicOrderSchema } from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { READS_SWITCH, TAGS } from './docs.ts';
import { assertPublicOrderReads } from './public-order-reads.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/orders/{id}',
      tags: TAGS,
      summary: 'An order by id (only when public order reads are on)',
      description: `${READS_SWITCH}`,
    },
    rateLimit: 'public-read',
  })
  .input(orderIdInputSchema)
  .output(publicOrderSchema)
  .query(async ({ ctx, input }) => {
    await assertPublicOrderReads(ctx, ctx.tenant.organizationId);
    return getPublicOrder(ctx.db, ctx.tenant.organizationId, input.id);
  });
