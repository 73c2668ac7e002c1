import { boxPresetReadInputSchema, boxPresetSchema, getBoxPreset } from '@commerce/fulfillment';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/box-presets/{id}',
      tags: TAGS,
      summary: 'One box preset, archived or not',
      description: 'Archived presets included.',
    },
  })
  .input(boxPresetReadInputSchema)
  .output(boxPresetSchema)
  .query(({ ctx, input }) => getBoxPreset(ctx.db, ctx.tenant.organizationId, input.id));
