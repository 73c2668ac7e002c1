import { AppError, keysetAfter, type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { SignupListQuery, SignupRead } from './schemas.ts';

/**
 * Captured signup requests for the platform operator, newest first
 * (`created_at` desc, `id` desc: the index `signup_requests_recent_idx`),
 * keyset-paginated by id, with the storefront each came from. One query per
 * page (plus one to resolve the cursor).
 */
export async function listSignups(db: Kysely<Database>, query: SignupListQuery): Promise<Page<SignupRead>> {
  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor) {
    cursorRow = await db
      .selectFrom('signup_requests')
      .select(['created_at', 'id'])
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow)
      throw AppError.validation([{ path: 'cursor', message: 'does not name a signup request' }]);
  }
  const rows = await db
    .selectFrom('signup_requests')
    .leftJoin('organizations', 'organizations.id', 'signup_requests.source_organization_id')
    .selectAll('signup_requests')
    .select(['organizations.slug as source_slug'])
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'signup_requests.created_at', direction: 'desc', value: cursorRow!.created_at },
          { column: 'signup_requests.id', direction: 'desc', value: cursorRow!.id },
        ]),
      ),
    )
    .orderBy('signup_requests.created_at', 'desc')
    .orderBy('signup_requests.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return toPage(
    rows.map((row) => ({
      id: row.id,
      email: row.email,
      name: row.name,
      companyName: row.company_name,
      website: row.website,
      message: row.message,
      sourceOrganization:
        row.source_organization_id !== null && row.source_slug !== null
          ? { id: row.source_organization_id, slug: row.source_slug }
          : null,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    })),
    query.limit,
  );
}
