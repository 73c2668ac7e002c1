import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely, Updateable } from 'kysely';
import { countOneCollection, lockCollection, slugTaken, toCollectionRead } from './collection-rows.ts';

import type { CollectionContext, CollectionRead, UpdateCollectionChanges } from './schemas.ts';

type CollectionSet = Updateable<Database['collections']>;

/**
 * Changes the fields sent (archived collections too). `description: null`
 * clears it. A change of slug to one another collection holds is
 * `SLUG_TAKEN`. Audited as `collection.updated` with the names of the fields
 * whose value changed; a patch that changes nothing writes nothing.
 */
export async function updateCollection(
  db: Kysely<Database>,
  ctx: CollectionContext,
  id: string,
  changes: UpdateCollectionChanges,
): Promise<CollectionRead> {
  try {
    return await inTransaction(db, async (trx) => {
      const current = await lockCollection(trx, ctx.organizationId, id);
      const set: CollectionSet = {};
      const fields: string[] = [];
      if (changes.name !== undefined && changes.name !== current.name) {
        set.name = changes.name;
        fields.push('name');
      }
      if (changes.slug !== undefined && changes.slug !== current.slug) {
        set.slug = changes.slug;
        fields.push('slug');
      }
      if (changes.status !== undefined && changes.status !== current.status) {
        set.status = changes.status;
        fields.push('status');
      }
      if (changes.description !== undefined && changes.description !== current.description) {
        set.description = changes.description;
        fields.push('description');
      }
      if (changes.sortOrder !== undefined && changes.sortOrder !== current.sort_order) {
        set.sort_order = changes.sortOrder;
        fields.push('sortOrder');
      }
      const itemCount = await countOneCollection(trx, ctx.organizationId, id);
      if (fields.length === 0) return toCollectionRead(current, itemCount);

      const row = await trx
        .updateTable('collections')
        .set({ ...set, updated_at: ctx.at })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'collection.updated',
        targetType: 'collection',
        targetId: id,
        metadata: { fields },
        at: ctx.at,
      });
      return toCollectionRead(row, itemCount);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'collections_slug_key')) throw slugTaken();
    throw error;
  }
}
