import { publicItemSchema, resolveItemsInputSchema, resolvePublicItems } from '@commerce/catalog';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';
import { PUBLIC_ITEM, TAGS } from './docs.ts';

export const resolveProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/items/resolve',
      tags: TAGS,
      summary: 'The public items among a list of ids (saved-cart restore)',
      description: `The public items among the ids, in the order asked; ids that are not public items of the store are left out silently. ${PUBLIC_ITEM}`,
    },
    rateLimit: 'public-read',
  })
  .input(resolveItemsInputSchema)
  .output(z.array(publicItemSchema))
  .mutation(({ ctx, input }) => resolvePublicItems(ctx.db, ctx.tenant.organizationId, input));
