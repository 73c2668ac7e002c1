import { boxPresetActionInputSchema, boxPresetSchema, restoreBoxPreset } from '@commerce/fulfillment';
import { writeContext } from '../../../write-context.ts';
import { operator } from './box-preset-access.ts';
import { NAME_AND_LIMIT, TAGS } from './docs.ts';

export const restoreProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/box-presets/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived box preset',
      description: `Idempotent. ${NAME_AND_LIMIT}`,
    },
    successStatus: 201,
    errors: ['BOX_PRESET_NAME_TAKEN', 'BOX_PRESET_LIMIT_REACHED'],
  })
  .input(boxPresetActionInputSchema)
  .output(boxPresetSchema)
  .mutation(({ ctx, input }) => restoreBoxPreset(ctx.db, writeContext(ctx), input.id));
