import { itemListQuerySchema, itemSchema, listItems } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { ITEMS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/items',
      tags: ITEMS,
      summary: "The organization's items, in the merchant order",
      description: [
        'Open to any member. Ordered by `sortOrder` ascending, then `createdAt` descending, then `id` descending; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`). A `cursor` that names no item of the organization is `400`.',
        'Archived items are hidden unless `archived=true`; `status=ARCHIVED` lists only the archived ones, `status=ACTIVE` or `DRAFT` never includes them. `search` is a case-insensitive substring of the name, description or a tag. `compositionCandidate=true` keeps the items that are not packages or kits (no components of their own); `false` keeps only the packages and kits. Boolean parameters accept true/1/yes and false/0/no in any case; anything else is `400`.',
        'Each item carries `salePriceInCents`, `ratingAverage`, `ratingCount` and `collectionIds`, computed for the whole page at once.',
      ].join('\n\n'),
    },
  })
  .input(itemListQuerySchema)
  .output(pageSchema(itemSchema))
  .query(({ ctx, input }) => listItems(ctx.db, ctx.tenant.organizationId, input));
