import { AppError, keysetAfter, type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { toMembershipRead } from './membership-read.ts';
import type { MembershipRead } from './schemas.ts';

/** The organization's memberships, oldest first, keyset-paginated by id. */
export async function listMemberships(
  db: Kysely<Database>,
  organizationId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<Page<MembershipRead>> {
  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor) {
    cursorRow = await db
      .selectFrom('memberships')
      .select(['created_at', 'id'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow) throw AppError.validation([{ path: 'cursor', message: 'does not name a membership' }]);
  }
  const rows = await db
    .selectFrom('memberships')
    .leftJoin('merchant_users', 'merchant_users.id', 'memberships.user_id')
    .selectAll('memberships')
    .select('merchant_users.name as user_name')
    .where('memberships.organization_id', '=', organizationId)
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'memberships.created_at', direction: 'asc', value: cursorRow!.created_at },
          { column: 'memberships.id', direction: 'asc', value: cursorRow!.id },
        ]),
      ),
    )
    .orderBy('memberships.created_at', 'asc')
    .orderBy('memberships.id', 'asc')
    .limit(query.limit + 1)
    .execute();
  return toPage(
    rows.map((row) => toMembershipRead(row, row.user_name)),
    query.limit,
  );
}
