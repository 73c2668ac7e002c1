import { getPublicOrderByNumber, orderNumberInputSchema, publicOrderSchema } from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { READS_SWITCH, TAGS } from './docs.ts';
import { assertPublicOrderReads } from './public-order-reads.ts';

export const getByNumberProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/orders/number/{num}',
      tags: TAGS,
      summary: 'An order by number (only when public order reads are on)',
      description: `${READS_SWITCH}`,
    },
    rateLimit: 'public-read',
  })
  .input(orderNumberInputSchema)
  .output(publicOrderSchema)
  .query(async ({ ctx, input }) => {
    await assertPublicOrderReads(ctx, ctx.tenant.organizationId);
    return getPublicOrderByNumber(ctx.db, ctx.tenant.organizationId, input.num);
  });
