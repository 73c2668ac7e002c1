import type { Database, Membership } from '@commerce/db';
import type { Kysely } from 'kysely';

/** The active membership of a user in one organization, if any. */
export async function findActiveMembership(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<Membership | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
}
