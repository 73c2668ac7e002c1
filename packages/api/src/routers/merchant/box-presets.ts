import { pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import {
  archiveBoxPreset,
  type BoxPresetWriteContext,
  boxPresetActionInputSchema,
  boxPresetListQuerySchema,
  boxPresetReadInputSchema,
  boxPresetSchema,
  createBoxPreset,
  createBoxPresetInputSchema,
  getBoxPreset,
  listBoxPresets,
  restoreBoxPreset,
  updateBoxPreset,
  updateBoxPresetInputSchema,
} from '@commerce/fulfillment';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: shipping'];

/** Box preset writes need `fulfillment:operate` (CONTRACT-fulfillment.md 13.1); reads are open to any member. */
const operator = merchantProcedureWith('fulfillment:operate');

function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): BoxPresetWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

const PRESET_BODY =
  'Body: `name` (1 to 200, trimmed; unique, case-insensitive, among the non-archived presets: else `409 BOX_PRESET_NAME_TAKEN`), `innerLengthMm`, `innerWidthMm`, `innerHeightMm` (integers 1 to 3000), `outerLengthMm`, `outerWidthMm`, `outerHeightMm` (optional, used for rating: at least the inner value; absent or null means the inner value, and follows it when it changes), `tareWeightGrams` (0 to 50000), `maxLoadGrams` (1 to 150000, or null for no limit of its own), `sortOrder` (default 0). Unknown keys are `400`.';

const LIMIT_NOTE =
  'At most 200 presets of the organization may be non-archived: one more is `409 BOX_PRESET_LIMIT_REACHED` (archive one first).';

export const merchantBoxPresetsRouter = router({
  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/box-presets',
        tags: TAGS,
        summary: "The organization's box presets",
        description: [
          'Open to any member. Ordered by `sortOrder`, then `name`, then `id`; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`; a cursor that names no preset of the organization is `400`).',
          'Non-archived presets only, unless `archived` is true (true/1/yes, false/0/no, case-insensitive; anything else is `400`).',
        ].join('\n\n'),
      },
    })
    .input(boxPresetListQuerySchema)
    .output(pageSchema(boxPresetSchema))
    .query(({ ctx, input }) => listBoxPresets(ctx.db, ctx.tenant.organizationId, input)),

  create: operator
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
    .mutation(({ ctx, input }) => createBoxPreset(ctx.db, writeContext(ctx), input)),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/shipping/box-presets/{id}',
        tags: TAGS,
        summary: 'One box preset, archived or not',
        description:
          'Open to any member. An unknown id, or one of another organization, is `404 RESOURCE_NOT_FOUND`.',
      },
    })
    .input(boxPresetReadInputSchema)
    .output(boxPresetSchema)
    .query(({ ctx, input }) => getBoxPreset(ctx.db, ctx.tenant.organizationId, input.id)),

  update: operator
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
    }),

  archive: operator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/shipping/box-presets/{id}/archive',
        tags: TAGS,
        summary: 'Archive a box preset',
        description:
          'No body. `archivedAt` is set: the preset is no longer recommended, and its name and its place under the limit are free. Idempotent: archiving an archived preset answers it unchanged. Answers `201` with the preset. Audited as `box_preset.archived` when it changes.',
      },
      successStatus: 201,
    })
    .input(boxPresetActionInputSchema)
    .output(boxPresetSchema)
    .mutation(({ ctx, input }) => archiveBoxPreset(ctx.db, writeContext(ctx), input.id)),

  restore: operator
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
    .mutation(({ ctx, input }) => restoreBoxPreset(ctx.db, writeContext(ctx), input.id)),
});
