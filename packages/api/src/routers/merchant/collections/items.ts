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
        "Every member whatever its status, in the collection's order, archived collections included.",
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
