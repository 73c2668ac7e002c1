import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { pageNotFound, toCmsPageRead } from './page-rows.ts';
import type { CmsPageRead } from './schemas.ts';

/** One page of the organization, archived or not, with its content; 404 for any other id. */
export async function getPage(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<CmsPageRead> {
  const row = await db
    .selectFrom('pages')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw pageNotFound();
  return toCmsPageRead(row);
}
