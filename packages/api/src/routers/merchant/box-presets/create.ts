import { boxPresetSchema, createBoxPreset, createBoxPresetInputSchema } from '@commerce/orders';
import { writeContext } from '../../../write-context.ts';
import { operator } from './box-preset-access.ts';
import { LIMIT_NOTE, PRESET_BODY, TAGS } from './docs.ts';

export const createProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/box-presets',
      tags: TAGS,
      summary: 'Create a box preset',
      description: `${PRESET_BODY}\n\n${LIMIT_NOTE} Answers \`201\` with the preset at \`revision\` 1. Audited as \`box_preset.created\`.`,
    },
    successStatus: 201,
    errors: ['BOX_PRESET_NAME_TAKEN', 'BOX_PRESET_LIMIT_REACHED'],
  })
  .input(createBoxPresetInputSchema)
  .output(boxPresetSchema)
  .mutation(({ ctx, input }) => createBoxPreset(ctx.db, writeContext(ctx), input));
