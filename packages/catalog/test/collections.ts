import { type Clock, newId } from '@commerce/core';
import type { AuditLog, Database, Item, ItemStatus } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { CollectionContext } from '../src/collections/schemas.ts';

/** Test helpers of the collection and page services (not exported from the package). */

let sequence = 0;
const next = () => {
  sequence += 1;
  return `${process.pid}_${sequence}`;
};

export interface TestShop {
  id: string;
  /** The context of a change by the shop's test merchant. */
  ctx(): CollectionContext;
}

export async function createTestShop(db: Kysely<Database>, clock: Clock, label = 'shop'): Promise<TestShop> {
  const n = next();
  const id = `org_${label}_${n}`;
  await db
    .insertInto('organizations')
    .values({ id, slug: `${label}-${n}`.replace(/_/g, '-'), name: `Shop ${n}` })
    .execute();
  return {
    id,
    ctx: () => ({
      organizationId: id,
      actor: { userId: 'usr_test_merchant', email: 'merchant@example.com' },
      at: clock.now(),
    }),
  };
}

/**
 * An item row written directly (the item routes belong to another area):
 * ACTIVE by default; `ARCHIVED` sets `archivedAt` as the table requires.
 */
export async function insertItem(
  db: Kysely<Database>,
  organizationId: string,
  options: { status?: ItemStatus; name?: string; at?: Date } = {},
): Promise<Item> {
  const n = next();
  const status = options.status ?? 'ACTIVE';
  const at = options.at ?? new Date('2026-01-01T00:00:00.000Z');
  return db
    .insertInto('items')
    .values({
      organization_id: organizationId,
      id: newId('itm', at),
      slug: `item-${n}`.replace(/_/g, '-'),
      name: options.name ?? `Item ${n}`,
      type: 'SALE',
      status,
      price_in_cents: 1000,
      archived_at: status === 'ARCHIVED' ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertItems(
  db: Kysely<Database>,
  organizationId: string,
  count: number,
  options: { status?: ItemStatus } = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) ids.push((await insertItem(db, organizationId, options)).id);
  return ids;
}

/** The members of a collection as stored: item ids by position. */
export async function membersOf(
  db: Kysely<Database>,
  organizationId: string,
  collectionId: string,
): Promise<{ item_id: string; position: number }[]> {
  return db
    .selectFrom('collection_items')
    .select(['item_id', 'position'])
    .where('organization_id', '=', organizationId)
    .where('collection_id', '=', collectionId)
    .orderBy('position')
    .orderBy('item_id')
    .execute();
}

export async function auditRows(
  db: Kysely<Database>,
  organizationId: string,
  actionPrefix: string,
): Promise<AuditLog[]> {
  return db
    .selectFrom('audit_logs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('action', 'like', `${actionPrefix}%`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ code?: string; details?: { issues?: { path: string; message: string }[] } }> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as { code?: string },
  );
}

/** Settles every promise and reports each outcome as `ok` or the error code (or message). */
export async function outcomes(promises: Promise<unknown>[]): Promise<string[]> {
  const settled = await Promise.allSettled(promises);
  return settled.map((result) =>
    result.status === 'fulfilled'
      ? 'ok'
      : String((result.reason as { code?: string }).code ?? (result.reason as Error).message),
  );
}
