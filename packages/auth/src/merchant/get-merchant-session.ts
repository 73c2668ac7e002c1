import type { Database, MerchantUser } from '@commerce/db';
import type { Kysely } from 'kysely';
import { toMembershipRead } from './membership-read.ts';
import type { MerchantSession } from './schemas.ts';

/** The signed-in user with every membership across organizations, in one query. */
export async function getMerchantSession(db: Kysely<Database>, user: MerchantUser): Promise<MerchantSession> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .selectAll('memberships')
    .select(['organizations.slug as organization_slug', 'organizations.name as organization_name'])
    .where('memberships.user_id', '=', user.id)
    .orderBy('memberships.created_at', 'asc')
    .orderBy('memberships.id', 'asc')
    .execute();
  return {
    user: { id: user.id, email: user.email, name: user.name },
    memberships: rows.map((row) => ({
      ...toMembershipRead(row, user.name),
      organization: { id: row.organization_id, slug: row.organization_slug, name: row.organization_name },
    })),
  };
}
