import { boxPresetActionInputSchema, boxPresetSchema, restoreBoxPreset } from '@commerce/orders';
import { writeContext } from '../../../write-context.ts';
import { operator } from './box-preset-access.ts';
import { LIMIT_NOTE, TAGS } from './docs.ts';

export const restoreProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/box-presets/{id}/restore',
      tags: TAGS,
      summary: 'Restore an archived box preset',
      description: `No body. \`archivedAt\` is cleared. Its name must be free among the non-archived presets (\`409 BOX_PRESET_NAME_TAKEN\`). ${LIMIT_NOTE} Idempotent: restoring a non-archived preset answers it unchanged. Answers \`201\` with the preset. Audited as \`box_preset.restored\` when it changes.`,
    },
    successStatus: 201,
    errors: ['BOX_PRESET_NAME_TAKEN', 'BOX_PRESET_LIMIT_REACHED'],
  })
  .input(boxPresetActionInputSchema)
  .output(boxPresetSchema)
  .mutation(({ ctx, input }) => restoreBoxPreset(ctx.db, writeContext(ctx), input.id));
