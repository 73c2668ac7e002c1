import {
  archiveItem,
  archiveVariant,
  createItem,
  createItemInputSchema,
  createVariant,
  createVariantInputSchema,
  getItem,
  getItemBySlug,
  getVariant,
  type ItemWriteContext,
  itemIdInputSchema,
  itemListQuerySchema,
  itemSchema,
  itemSlugInputSchema,
  listItems,
  listVariants,
  reorderItems,
  reorderItemsInputSchema,
  reorderItemsResultSchema,
  restoreItem,
  restoreVariant,
  updateItem,
  updateItemInputSchema,
  updateVariant,
  updateVariantInputSchema,
  variantListQuerySchema,
  variantPathInputSchema,
  variantSchema,
} from '@commerce/catalog';
import { pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import { z } from 'zod';
import type { ApiContext } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const ITEMS = ['Merchant: items'];
const VARIANTS = ['Merchant: variants'];

function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ItemWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

/** Body-less actions: the path's id and nothing else. */
const itemActionInputSchema = z.strictObject({ id: itemIdInputSchema.shape.id });
const variantActionInputSchema = variantPathInputSchema.strict();

const ITEM_BODY = [
  'Body: `slug` (required on create; lowercase letters and digits in words joined by single hyphens, at most 100, unique per organization), `name` (1 to 200, trimmed), `type` (`RENTAL`, `SALE` or `SERVICE`; required on create), `status` (`ACTIVE` or `DRAFT`, default `DRAFT`; `ARCHIVED` is `400`: use the archive route), `description` (at most 10,000 characters or null), `tags` (at most 50 strings of 1 to 50 characters, trimmed; duplicates stored once), `priceInCents` (integer 0 or more, or null), `metafields` (a JSON object of at most 100 keys and 16,384 bytes; keys starting with `__` are reserved: `400`), `sortOrder` (integer; default 0), `shippingWeightGrams`, `shippingLengthMm`, `shippingWidthMm`, `shippingHeightMm` (integers of at least 1, or null for unknown; merchant reads only, never on public reads).',
  'Unknown keys are `400 VALIDATION_FAILED`.',
].join(' ');

export const merchantItemsRouter = router({
  list: merchantProcedure
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
    .query(({ ctx, input }) => listItems(ctx.db, ctx.tenant.organizationId, input)),

  create: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/items',
        tags: ITEMS,
        summary: 'Create an item',
        description: [
          ITEM_BODY,
          'A new item has `sortOrder` 0 unless one is sent, so it comes first (newest first among equal `sortOrder`) until the items are reordered.',
          'A slug another item of the organization has (archived ones included) is `409 SLUG_TAKEN`. Audited as `item.created`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['SLUG_TAKEN'],
    })
    .input(createItemInputSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => createItem(ctx.db, writeContext(ctx), input)),

  reorder: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/items/reorder',
        tags: ITEMS,
        summary: 'Set the merchant order of every item',
        description: [
          "Body `{ orderedIds }`: every non-archived item of the organization, each exactly once, in the new order (at most 10,000 ids). Each item's `sortOrder` becomes its index, in one transaction.",
          'A duplicate, a missing item, or an id that is unknown, archived or of another organization is `400 VALIDATION_FAILED` (the issues name the ids) and changes nothing. The items are locked while the set is checked and written, so a concurrent archive either lands first (and the set must leave it out) or waits.',
          'Answers `{ data: [{ id, sortOrder }] }` in the new order. A reorder that moves something is audited as `item.reordered` with `{ itemCount, changedCount }`.',
        ].join('\n\n'),
      },
    })
    .input(reorderItemsInputSchema)
    .output(reorderItemsResultSchema)
    .mutation(({ ctx, input }) => reorderItems(ctx.db, writeContext(ctx), input)),

  getBySlug: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/items/by-slug/{slug}',
        tags: ITEMS,
        summary: 'An item by slug',
        description:
          'Open to any member; archived items included. An unknown slug, or one of another organization, is `404`.',
      },
    })
    .input(itemSlugInputSchema)
    .output(itemSchema)
    .query(({ ctx, input }) => getItemBySlug(ctx.db, ctx.tenant.organizationId, input.slug)),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/items/{id}',
        tags: ITEMS,
        summary: 'An item by id',
        description:
          'Open to any member; archived items included. An unknown id, or one of another organization, is `404`.',
      },
    })
    .input(itemIdInputSchema)
    .output(itemSchema)
    .query(({ ctx, input }) => getItem(ctx.db, ctx.tenant.organizationId, input.id)),

  update: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/items/{id}',
        tags: ITEMS,
        summary: 'Change an item',
        description: [
          `Any subset of the create fields. ${ITEM_BODY}`,
          "`metafields` is merged key by key under the item's row lock, as Stripe and Shopify treat metadata: a key sent with a value sets it, a key sent as `null` deletes it, a key not sent is kept (concurrent patches of different keys all survive). The merged set must stay within 100 keys and 16,384 bytes of JSON, else `400`. The reserved `__` keys the service keeps (`__archivedFromStatus`) are preserved and cannot be sent. An empty body changes nothing.",
          'An archived item can be edited, but its `status` changes only through restore: sending `status` for an archived item is `409 INVALID_STATE_TRANSITION`. A slug of another item is `409 SLUG_TAKEN`; an unknown id, or one of another organization, `404`.',
          'A change is audited as `item.updated` with `{ fields }`, the names of the fields whose value changed; a patch that changes nothing writes nothing and records nothing.',
        ].join('\n\n'),
      },
      errors: ['SLUG_TAKEN', 'INVALID_STATE_TRANSITION'],
    })
    .input(updateItemInputSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...changes } = input;
      return updateItem(ctx.db, writeContext(ctx), id, changes);
    }),

  archive: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/items/{id}/archive',
        tags: ITEMS,
        summary: 'Archive (soft-delete) an item',
        description:
          'No body. From any state: `status` becomes `ARCHIVED`, `archivedAt` is set and the prior status is kept in `metafields.__archivedFromStatus`. Archiving an archived item changes nothing (idempotent). Answers `201` with the item. Audited as `item.archived` when something changed.',
      },
      successStatus: 201,
    })
    .input(itemActionInputSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => archiveItem(ctx.db, writeContext(ctx), input.id)),

  restore: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/items/{id}/restore',
        tags: ITEMS,
        summary: 'Restore an archived item',
        description:
          'No body. The item returns to the status stored at archiving (`ACTIVE` or `DRAFT`), or `DRAFT` when none is stored; `archivedAt` is cleared and `__archivedFromStatus` removed. Restoring an item that is not archived changes nothing (idempotent). Answers `201` with the item. Audited as `item.restored` when something changed.',
      },
      successStatus: 201,
    })
    .input(itemActionInputSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => restoreItem(ctx.db, writeContext(ctx), input.id)),

  listVariants: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/items/{itemId}/variants',
        tags: VARIANTS,
        summary: "An item's variants",
        description:
          'Open to any member. `archived` is required: `false` lists the non-archived variants, `true` every variant, archived ones included (true/1/yes, false/0/no in any case; missing or anything else is `400`). Ordered by `sortOrder`, then oldest first; keyset-paginated (`limit` 1 to 200, default 50; `cursor` is the previous `nextCursor`). An unknown item, or one of another organization, is `404`.',
      },
    })
    .input(variantListQuerySchema)
    .output(pageSchema(variantSchema))
    .query(({ ctx, input }) => listVariants(ctx.db, ctx.tenant.organizationId, input)),

  createVariant: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/items/{itemId}/variants',
        tags: VARIANTS,
        summary: 'Add a variant to an item',
        description: [
          'Body: `name` (required, 1 to 200), `sku` (at most 100, or null; unique per organization among variants, archived ones included), `options` (option name to value, at most 20), `priceInCents` and `salePriceInCents` (integers 0 or more, or null; the sale price must not be above the price), `inventoryQuantity` (integer 0 or more; null means stock is not tracked), `sortOrder` (default 0; ties oldest first), `shippingWeightGrams`, `shippingLengthMm`, `shippingWidthMm`, `shippingHeightMm` (integers of at least 1, or null; a unit takes all four from its variant when the variant has all four, else from its item). Unknown keys are `400`.',
          'A SKU another variant of the organization has is `409 SKU_TAKEN`. An unknown item, or one of another organization, is `404`. Audited as `variant.created`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['SKU_TAKEN'],
    })
    .input(createVariantInputSchema)
    .output(variantSchema)
    .mutation(({ ctx, input }) => {
      const { itemId, ...body } = input;
      return createVariant(ctx.db, writeContext(ctx), itemId, body);
    }),

  getVariant: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/items/{itemId}/variants/{variantId}',
        tags: VARIANTS,
        summary: 'A variant of an item',
        description:
          'Open to any member; archived variants included. A variant of another item or organization, or a missing one, is `404`.',
      },
    })
    .input(variantPathInputSchema)
    .output(variantSchema)
    .query(({ ctx, input }) => getVariant(ctx.db, ctx.tenant.organizationId, input.itemId, input.variantId)),

  updateVariant: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/merchant/items/{itemId}/variants/{variantId}',
        tags: VARIANTS,
        summary: 'Change a variant (stock, prices, options …)',
        description: [
          'Any subset of the create fields; `null` clears `sku`, the prices, `inventoryQuantity` (untracked stock) and the shipping dimensions; `options` is replaced wholesale. The sale price must not end above the price (`400`). An empty body changes nothing.',
          'A SKU of another variant is `409 SKU_TAKEN`; a variant of another item or organization `404`. A change is audited as `variant.updated` with `{ itemId, fields }`; a patch that changes nothing records nothing.',
          'Taking a tracked `inventoryQuantity` from `0` to a positive number queues one `BACK_IN_STOCK` email for each active back-in-stock signup of this variant or of any variant of the item, in the same transaction; each signup is then `NOTIFIED` and hears nothing more until the shopper signs up again. Nothing is sent while the item is draft or archived, or the variant archived, nor when stock goes from untracked (`null`) to a number.',
        ].join('\n\n'),
      },
      errors: ['SKU_TAKEN'],
    })
    .input(updateVariantInputSchema)
    .output(variantSchema)
    .mutation(({ ctx, input }) => {
      const { itemId, variantId, ...changes } = input;
      return updateVariant(
        ctx.db,
        {
          ...writeContext(ctx),
          email: customerEmailConfig(ctx),
        },
        itemId,
        variantId,
        changes,
      );
    }),

  archiveVariant: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/items/{itemId}/variants/{variantId}/archive',
        tags: VARIANTS,
        summary: 'Archive (soft-delete) a variant',
        description:
          "No body. Sets `archivedAt`; the variant leaves the `archived=false` list and the item's `salePriceInCents`; its SKU stays taken. Idempotent. Answers `201` with the variant. Audited as `variant.archived` when something changed.",
      },
      successStatus: 201,
    })
    .input(variantActionInputSchema)
    .output(variantSchema)
    .mutation(({ ctx, input }) => archiveVariant(ctx.db, writeContext(ctx), input.itemId, input.variantId)),

  restoreVariant: merchantProcedureWith('catalog:write')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/items/{itemId}/variants/{variantId}/restore',
        tags: VARIANTS,
        summary: 'Restore an archived variant',
        description:
          'No body. Clears `archivedAt`. Idempotent. Answers `201` with the variant. Audited as `variant.restored` when something changed.',
      },
      successStatus: 201,
    })
    .input(variantActionInputSchema)
    .output(variantSchema)
    .mutation(({ ctx, input }) => restoreVariant(ctx.db, writeContext(ctx), input.itemId, input.variantId)),
});
