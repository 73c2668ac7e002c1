import { boxPresetSchema, createBoxPreset, createBoxPresetInputSchema } from '@commerce/fulfillment';
import { writeContext } from '../../../write-context.ts';
import { operator } from './box-preset-access.ts';
import { NAME_AND_LIMIT, TAGS } from './docs.ts';

export const createProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/box-presets',
      tags: TAGS,
      summary: 'Create a box preset',
      description: `An outer dimension left out is the inner one, and follows it. ${NAME_AND_LIMIT}`,
    },
    successStatus: 201,
    errors: ['BOX_PRESET_NAME_TAKEN', 'BOX_PRESET_LIMIT_REACHED'],
  })
  .input(createBoxPresetInputSchema)
  .output(boxPresetSchema)
  .mutation(({ ctx, input }) => createBoxPreset(ctx.db, writeContext(ctx), input));
