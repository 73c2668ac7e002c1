import { collectionSchema, updateCollection, updateCollectionInputSchema } from '@commerce/catalog';
import { writeContext } from '../../../write-context.ts';
import { writer } from './collection-access.ts';
import { SLUG_RULE, TAGS } from './docs.ts';

export const updateProcedure = writer()
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
    return updateCollection(ctx.db, writeContext(ctx), id, changes);
  });
