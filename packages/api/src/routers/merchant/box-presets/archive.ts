import { archiveBoxPreset, boxPresetActionInputSchema, boxPresetSchema } from '@commerce/fulfillment';
import { writeContext } from '../../../write-context.ts';
import { operator } from './box-preset-access.ts';
import { TAGS } from './docs.ts';

export const archiveProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/box-presets/{id}/archive',
      tags: TAGS,
      summary: 'Archive a box preset',
      description:
        'Idempotent. The preset is no longer recommended, and its name and its place under the limit are free.',
    },
    successStatus: 201,
  })
  .input(boxPresetActionInputSchema)
  .output(boxPresetSchema)
  .mutation(({ ctx, input }) => archiveBoxPreset(ctx.db, writeContext(ctx), input.id));
