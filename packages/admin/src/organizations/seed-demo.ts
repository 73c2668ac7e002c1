import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { createOrganization } from './create-organization.ts';

export const DEMO_ORGANIZATION = {
  slug: 'demo',
  name: 'Demo Store',
  owner: { email: 'owner@demo.test', name: 'Demo Owner' },
} as const;

/** Creates the demo organization once; later starts leave it as it is. */
export async function seedDemoOrganization(db: Kysely<Database>, at: Date): Promise<'created' | 'present'> {
  const present = await db
    .selectFrom('organizations')
    .select('id')
    .where('slug', '=', DEMO_ORGANIZATION.slug)
    .executeTakeFirst();
  if (present) return 'present';
  await createOrganization(db, { ...DEMO_ORGANIZATION, owner: { ...DEMO_ORGANIZATION.owner } }, at);
  return 'created';
}
