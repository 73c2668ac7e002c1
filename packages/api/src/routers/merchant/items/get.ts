import { getItem, itemIdInputSchema, itemSchema } from '@commerce/catalog';
import { merchantProcedure } from '../../../trpc.ts';
import { ITEMS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/items/{id}',
      tags: ITEMS,
      summary: 'An item by id',
      description: 'Archived items included.',
    },
  })
  .input(itemIdInputSchema)
  .output(itemSchema)
  .query(({ ctx, input }) => getItem(ctx.db, ctx.tenant.organizationId, input.id));
