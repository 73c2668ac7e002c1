import { collectionItemsQuerySchema, itemSchema, listCollectionItems } from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const itemsProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/collections/{id}/items',
      tags: TAGS,
      summary: "A collection's items, in the collection's order",
      description:
        "Open to any member. Every member whatever its status (DRAFT and archived items included), in the collection's own order, decorated like the merchant item list. Works for archived collections. Keyset-paginated by item id: pass `nextCursor` as `cursor` (limit 1 to 200, default 50); a cursor that is not a member is `400`. An unknown collection is `404`.",
    },
  })
  .input(collectionItemsQuerySchema)
  .output(pageSchema(itemSchema))
  .query(({ ctx, input }) =>
    listCollectionItems(ctx.db, ctx.tenant.organizationId, input.id, {
      limit: input.limit,
      cursor: input.cursor,
    }),
  );
