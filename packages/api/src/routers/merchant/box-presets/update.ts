import { boxPresetSchema, updateBoxPreset, updateBoxPresetInputSchema } from '@commerce/fulfillment';
import { writeContext } from '../../../write-context.ts';
import { operator } from './box-preset-access.ts';
import { NAME_AND_LIMIT, TAGS } from './docs.ts';

export const updateProcedure = operator
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/shipping/box-presets/{id}',
      tags: TAGS,
      summary: 'Change a box preset',
      description: `With \`expectedRevision\` not the current \`revision\`, \`409 STALE_STATE\` and nothing changes. A change raises \`revision\` by one. Archived presets can be edited (their name is checked again on restore). ${NAME_AND_LIMIT}`,
    },
    errors: ['BOX_PRESET_NAME_TAKEN', 'STALE_STATE'],
  })
  .input(updateBoxPresetInputSchema)
  .output(boxPresetSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateBoxPreset(ctx.db, writeContext(ctx), id, changes);
  });
