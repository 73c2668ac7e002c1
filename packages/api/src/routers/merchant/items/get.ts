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
      description:
        'Open to any member; archived items included. An unknown id, or one of another organization, is `404`.',
    },
  })
  .input(itemIdInputSchema)
  .output(itemSchema)
  .query(({ ctx, input }) => getItem(ctx.db, ctx.tenant.organizationId, input.id));
