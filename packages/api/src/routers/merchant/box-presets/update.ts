import { boxPresetSchema, updateBoxPreset, updateBoxPresetInputSchema } from '@commerce/orders';
import { writeContext } from '../../../write-context.ts';
import { operator } from './box-preset-access.ts';
import { PRESET_BODY, TAGS } from './docs.ts';

export const updateProcedure = operator
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/shipping/box-presets/{id}',
      tags: TAGS,
      summary: 'Change a box preset',
      description: [
        `Any subset of the create fields, and \`expectedRevision\`: when sent and not the preset's \`revision\`, \`409 STALE_STATE\` (with \`details.revision\`) and nothing changes. ${PRESET_BODY}`,
        'An outer dimension kept while its inner one grows past it is `400` naming the outer field. Archived presets can be edited (their name is checked again on restore).',
        'Only changed fields are written; then `revision` goes up by one. Audited as `box_preset.updated` with `{ boxPresetId, fields }`; a change that changes nothing (or an empty body) records nothing. An unknown id, or one of another organization, is `404`.',
      ].join('\n\n'),
    },
    errors: ['BOX_PRESET_NAME_TAKEN', 'STALE_STATE'],
  })
  .input(updateBoxPresetInputSchema)
  .output(boxPresetSchema)
  .mutation(({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateBoxPreset(ctx.db, writeContext(ctx), id, changes);
  });
