import {
  addCollectionItems,
  addCollectionItemsInputSchema,
  archiveCollection,
  type CollectionContext,
  collectionActionInputSchema,
  collectionIdInputSchema,
  collectionItemOrderSchema,
  collectionItemRemovalSchema,
  collectionItemsAddedSchema,
  collectionItemsQuerySchema,
  collectionListQuerySchema,
  collectionOrderSchema,
  collectionSchema,
  createCollection,
  createCollectionInputSchema,
  getCollection,
  itemSchema,
  listCollectionItems,
  listCollections,
  removeCollectionItem,
  removeCollectionItemInputSchema,
  reorderCollectionItems,
  reorderCollectionItemsInputSchema,
  reorderCollections,
  reorderCollectionsInputSchema,
  restoreCollection,
  updateCollection,
  updateCollectionInputSchema,
} from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: collections'];

function collectionContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): CollectionContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

const writer = () => merchantProcedureWith('catalog:write');

const SLUG_RULE =
  '`slug` is unique per organization (1 to 100 characters, lowercase letters and digits in groups joined by single hyphens): one another collection holds, archived or not, is `409 SLUG_TAKEN`.';

export const merchantCollectionsRouter = router({
  create: writer()
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/collections',
        tags: TAGS,
        summary: 'Create a collection',
        description: [
          'Body `{ name, slug, status, description?, sortOrder? }`: `name` 1 to 200 characters (trimmed), `status` `ACTIVE` or `DRAFT`, `description` at most 10,000 characters, `sortOrder` an integer (default 0). Unknown keys are `400`.',
          SLUG_RULE,
          'Answers `201` with the collection (no items yet). Audited as `collection.created`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['SLUG_TAKEN'],
    })
    .input(createCollectionInputSchema)
    .output(collectionSchema)
    .mutation(({ ctx, input }) => createCollection(ctx.db, collectionContext(ctx), input)),

  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/collections',
        tags: TAGS,
        summary: "The organization's collections",
        description:
          'Open to any member. Ordered by `sortOrder` ascending, then `createdAt` descending, then `id` descending. Archived collections are hidden unless `archived=true`; `status` filters by `ACTIVE` or `DRAFT`. Keyset-paginated: pass `nextCursor` as `cursor` (limit 1 to 200, default 50); a cursor that names no collection of the organization is `400`.',
      },
    })
    .input(collectionListQuerySchema)
    .output(pageSchema(collectionSchema))
    .query(({ ctx, input }) => listCollections(ctx.db, ctx.tenant.organizationId, input)),

  reorder: writer()
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/collections/reorder',
        tags: TAGS,
        summary: 'Set the order of the collections',
        description:
          'Body `{ orderedIds }`: every non-archived collection of the organization exactly once (archived ones are not part of the order), else `400 VALIDATION_FAILED` with an issue per duplicate or foreign id and one for the missing ones, and nothing changes. Each collection gets `sortOrder` equal to its index, in one transaction. Answers `{ orderedIds }`. Audited as `collection.reordered` when a `sortOrder` changed.',
      },
    })
    .input(reorderCollectionsInputSchema)
    .output(collectionOrderSchema)
    .mutation(({ ctx, input }) => reorderCollections(ctx.db, collectionContext(ctx), input.orderedIds)),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/collections/{id}',
        tags: TAGS,
        summary: 'One collection',
        description:
          'Open to any member; archived collections included. `itemCount` counts every member, whatever its status. An unknown id, or one of another organization, is `404`.',
      },
    })
    .input(collectionIdInputSchema)
    .output(collectionSchema)
    .query(({ ctx, input }) => getCollection(ctx.db, ctx.tenant.organizationId, input.id)),

  update: writer()
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/collections/{id}',
        tags: TAGS,
        summary: 'Change a collection',
        description: [
          'Any subset of `{ name, slug, status, description, sortOrder }` (same rules as create; `description: null` clears it). Archived collections may be edited too.',
          SLUG_RULE,
          'Audited as `collection.updated` with `{ fields }`, the names of the fields whose value changed; a patch that changes nothing answers the collection and records nothing.',
        ].join('\n\n'),
      },
      errors: ['SLUG_TAKEN'],
    })
    .input(updateCollectionInputSchema)
    .output(collectionSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateCollection(ctx.db, collectionContext(ctx), id, changes);
    }),

  archive: writer()
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/collections/{id}/archive',
        tags: TAGS,
        summary: 'Archive a collection',
        description:
          'Soft delete: sets `archivedAt`, keeps `status`, members and their order. The collection leaves the storefront and the default merchant list at once. Idempotent: archiving an archived collection answers it unchanged. Answers `201` with the collection. Audited as `collection.archived`.',
      },
      successStatus: 201,
    })
    .input(collectionActionInputSchema)
    .output(collectionSchema)
    .mutation(({ ctx, input }) => archiveCollection(ctx.db, collectionContext(ctx), input.id)),

  restore: writer()
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/collections/{id}/restore',
        tags: TAGS,
        summary: 'Restore an archived collection',
        description:
          'Clears `archivedAt` and keeps `status` (an ACTIVE collection is public again at once). Idempotent: restoring a live collection answers it unchanged. Answers `201` with the collection. Audited as `collection.restored`.',
      },
      successStatus: 201,
    })
    .input(collectionActionInputSchema)
    .output(collectionSchema)
    .mutation(({ ctx, input }) => restoreCollection(ctx.db, collectionContext(ctx), input.id)),

  items: merchantProcedure
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
    ),

  addItems: writer()
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/collections/{id}/items',
        tags: TAGS,
        summary: 'Append items to a collection',
        description: [
          'Body `{ itemIds }`, 1 to 500 ids. Items already in the collection are skipped and keep their place; the others are appended at the end in the order sent (a repeated id counts once). Any item of the organization may be added, whatever its status; the storefront shows only ACTIVE ones.',
          'An id that names no item of the organization (unknown, or another organization’s) is `400 VALIDATION_FAILED` with an issue `itemIds.<index>` per such id, and nothing is added. An unknown collection is `404`.',
          'Concurrent appends to one collection run one after another: no two members share a position and no item is added twice. Answers `200 { addedItemIds, skippedItemIds, itemCount }`. Audited as `collection.items_added` with `{ itemIds }` (the appended ones) when something was appended.',
        ].join('\n\n'),
      },
    })
    .input(addCollectionItemsInputSchema)
    .output(collectionItemsAddedSchema)
    .mutation(({ ctx, input }) =>
      addCollectionItems(ctx.db, collectionContext(ctx), input.id, input.itemIds),
    ),

  removeItem: writer()
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/merchant/collections/{id}/items/{itemId}',
        tags: TAGS,
        summary: 'Take an item out of a collection',
        description:
          'Idempotent: answers `200 { removed: 1 }` when the item was a member and `{ removed: 0 }` otherwise (an unknown item id included). The other members keep their order. An unknown collection is `404`. Audited as `collection.item_removed` with `{ itemId }` when something was removed.',
      },
    })
    .input(removeCollectionItemInputSchema)
    .output(collectionItemRemovalSchema)
    .mutation(({ ctx, input }) =>
      removeCollectionItem(ctx.db, collectionContext(ctx), input.id, input.itemId),
    ),

  reorderItems: writer()
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/collections/{id}/items/order',
        tags: TAGS,
        summary: "Set the order of a collection's items",
        description:
          'Body `{ itemIds }`: exactly the current members, each once (at most 10,000), else `400 VALIDATION_FAILED` with an issue per duplicate or non-member id and one for the missing members, and nothing changes. Each member gets the position of its index, in one transaction under the collection’s lock. Answers `{ itemIds }`. Audited as `collection.items_reordered` when an item moved.',
      },
    })
    .input(reorderCollectionItemsInputSchema)
    .output(collectionItemOrderSchema)
    .mutation(({ ctx, input }) =>
      reorderCollectionItems(ctx.db, collectionContext(ctx), input.id, input.itemIds),
    ),
});
