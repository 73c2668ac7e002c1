import { collectionSchema, createCollection, createCollectionInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { SLUG_RULE, TAGS } from './docs.ts';

export const createProcedure = writer()
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
  .mutation(({ ctx, input }) => createCollection(ctx.db, writeContext(ctx), input));
