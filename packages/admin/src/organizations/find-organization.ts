import { type Database, prepared } from '@commerce/db';
import type { CompiledQuery, Kysely } from 'kysely';
import { organizationSlugSchema } from './schemas.ts';

export interface Tenant {
  organizationId: string;
  slug: string;
  name: string;
}

// Every tenant request runs this lookup: it is compiled once, prepared once per PostgreSQL
// connection, and run with each request's slug.
let compiledLookup: CompiledQuery<TenantRow> | undefined;

interface TenantRow {
  id: string;
  slug: string;
  name: string;
}

function lookupQuery(db: Kysely<Database>, slug: string) {
  return db
    .selectFrom('organizations')
    .select(['id', 'slug', 'name'])
    .where('slug', '=', slug)
    .where('status', '=', 'ACTIVE');
}

/** The active organization a request's `x-organization-slug` names, if any. */
export async function findTenantBySlug(db: Kysely<Database>, slug: string): Promise<Tenant | undefined> {
  if (!organizationSlugSchema.safeParse(slug).success) return undefined;
  compiledLookup ??= prepared(lookupQuery(db, '').compile());
  const [, ...fixed] = compiledLookup.parameters;
  const { rows } = await db.executeQuery<TenantRow>({ ...compiledLookup, parameters: [slug, ...fixed] });
  const row = rows[0];
  return row && { organizationId: row.id, slug: row.slug, name: row.name };
}
