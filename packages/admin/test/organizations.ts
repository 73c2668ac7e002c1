import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';

let sequence = 0;

/** A fresh organization for one test; `label` keeps ids readable (`org_settings_3`). */
export async function insertOrganization(db: Kysely<Database>, label = 'shop'): Promise<string> {
  sequence += 1;
  const id = `org_${label.replace(/-/g, '_')}_${sequence}`;
  await db
    .insertInto('organizations')
    .values({ id, slug: `${label}-${sequence}`, name: 'Shop' })
    .execute();
  return id;
}
