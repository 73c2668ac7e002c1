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
      description: [
        'Body `{ ids }`: 1 to 100 item ids; duplicates are answered once.',
        `Answers a flat array of the public items among them, in the order asked. Ids that are unknown, of a draft or archived item, or of another organization are left out silently. ${PUBLIC_ITEM}`,
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
  })
  .input(resolveItemsInputSchema)
  .output(z.array(publicItemSchema))
  .mutation(({ ctx, input }) => resolvePublicItems(ctx.db, ctx.tenant.organizationId, input));
