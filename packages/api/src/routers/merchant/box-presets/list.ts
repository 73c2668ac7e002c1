import { pageSchema } from '@commerce/core';
import { boxPresetListQuerySchema, boxPresetSchema, listBoxPresets } from '@commerce/fulfillment';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/box-presets',
      tags: TAGS,
      summary: "The organization's box presets",
      description: 'Non-archived presets unless `archived=true`.',
    },
  })
  .input(boxPresetListQuerySchema)
  .output(pageSchema(boxPresetSchema))
  .query(({ ctx, input }) => listBoxPresets(ctx.db, ctx.tenant.organizationId, input));
