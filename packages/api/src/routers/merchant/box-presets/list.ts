import { pageSchema } from '@commerce/core';
import { boxPresetListQuerySchema, boxPresetSchema, listBoxPresets } from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
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
  .query(({ ctx, input }) => listBoxPresets(ctx.db, ctx.tenant.organizationId, input));
