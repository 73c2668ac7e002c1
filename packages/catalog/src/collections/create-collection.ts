import { newId } from '@commerce/core';
import { type Database, inTransaction, isUniqueViolation, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { slugTaken, toCollectionRead } from './collection-rows.ts';

import type { CollectionContext, CollectionRead, CreateCollectionInput } from './schemas.ts';

/**
 * Creates an empty collection. The slug is unique per organization by the
 * `collections_slug_key` constraint, so of concurrent creates with one slug
 * exactly one succeeds and the others answer `SLUG_TAKEN`.
 */
export async function createCollection(
  db: Kysely<Database>,
  ctx: CollectionContext,
  input: CreateCollectionInput,
): Promise<CollectionRead> {
  try {
    return await inTransaction(db, async (trx) => {
      const row = await trx
        .insertInto('collections')
        .values({
          organization_id: ctx.organizationId,
          id: newId('col', ctx.at),
          slug: input.slug,
          name: input.name,
          description: input.description ?? null,
          status: input.status,
          sort_order: input.sortOrder ?? 0,
          archived_at: null,
          created_at: ctx.at,
          updated_at: ctx.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'collection.created',
        targetType: 'collection',
        targetId: row.id,
        metadata: { slug: row.slug, name: row.name, status: row.status },
        at: ctx.at,
      });
      return toCollectionRead(row, 0);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'collections_slug_key')) throw slugTaken();
    throw error;
  }
}
