import type { Database, Item } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ItemWriteContext } from '../src/items/context.ts';
import { createItem } from '../src/items/create-item.ts';
import type { ItemRead } from '../src/items/item-read.ts';
import { createItemInputSchema } from '../src/items/schemas.ts';

let sequence = 0;

/** A fresh organization for one test; `label` keeps ids readable (`org_items_3`). */
export async function insertOrganization(db: Kysely<Database>, label = 'items'): Promise<string> {
  sequence += 1;
  const id = `org_${label.replace(/-/g, '_')}_${sequence}`;
  await db
    .insertInto('organizations')
    .values({ id, slug: `${label}-${sequence}`, name: 'Shop' })
    .execute();
  return id;
}

/** The email configuration of catalog tests: links under https://shop.example. */
export const TEST_EMAIL_CONFIG: CustomerEmailConfig = {
  emailFrom: 'Platform <no-reply@platform.example>',
  linkBase: 'https://shop.example',
};

export function itemContext(
  organizationId: string,
  at: Date,
): ItemWriteContext & { email: CustomerEmailConfig } {
  return {
    organizationId,
    actor: { userId: 'usr_catalog_tester', email: 'tester@shop.test' },
    at,
    email: TEST_EMAIL_CONFIG,
  };
}

let slugSequence = 0;

/** Creates an item through the service, with a unique slug and `SALE` type unless given. */
export async function seedItem(
  db: Kysely<Database>,
  ctx: ItemWriteContext,
  input: Partial<z.input<typeof createItemInputSchema>> = {},
): Promise<ItemRead> {
  slugSequence += 1;
  const parsed = createItemInputSchema.parse({
    slug: `item-${slugSequence}`,
    name: `Item ${slugSequence}`,
    type: 'SALE',
    ...input,
  });
  return createItem(db, ctx, parsed);
}

export async function itemRow(db: Kysely<Database>, organizationId: string, id: string): Promise<Item> {
  return db
    .selectFrom('items')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export function auditsOf(db: Kysely<Database>, organizationId: string, action?: string) {
  return db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'actor_email', 'target_type', 'target_id', 'metadata', 'created_at'])
    .where('organization_id', '=', organizationId)
    .$if(action !== undefined, (qb) => qb.where('action', '=', action!))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
