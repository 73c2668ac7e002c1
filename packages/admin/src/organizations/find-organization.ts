import { type Database, prepared, withParameters } from '@commerce/db';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { canonicalLocale, DEFAULT_STORE_LOCALE, webUrl } from '../settings/schemas.ts';
import { organizationSlugSchema } from './schemas.ts';

const webUrlSchema = webUrl();

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
    .select(['organizations.id', 'organizations.slug', 'organizations.name'])
    .where('organizations.slug', '=', slug)
    .where('organizations.status', '=', 'ACTIVE');
}

/** The active organization a request's `x-organization-slug` names, if any. */
export async function findTenantBySlug(db: Kysely<Database>, slug: string): Promise<Tenant | undefined> {
  if (!organizationSlugSchema.safeParse(slug).success) return undefined;
  compiledLookup ??= prepared(lookupQuery(db, '').compile());
  const [, ...fixed] = compiledLookup.parameters;
  const { rows } = await db.executeQuery(withParameters(compiledLookup, [slug, ...fixed]));
  const row = rows[0];
  return row && { organizationId: row.id, slug: row.slug, name: row.name };
}

/** A tenant with the browser origins its settings allow (`apiSettings.allowedOrigins`). */
export interface TenantWithOrigins extends Tenant {
  allowedOrigins: string[];
}

let compiledLookupWithOrigins: CompiledQuery<TenantRow & { allowed_origins: unknown }> | undefined;

/**
 * `findTenantBySlug` with the tenant's allowed browser origins, in the same one query: what a
 * cross-origin request's CORS answer needs before its procedure runs, which then reuses the tenant.
 */
export async function findTenantWithOriginsBySlug(
  db: Kysely<Database>,
  slug: string,
): Promise<TenantWithOrigins | undefined> {
  if (!organizationSlugSchema.safeParse(slug).success) return undefined;
  compiledLookupWithOrigins ??= prepared(
    lookupQuery(db, '')
      .leftJoin('organization_settings', 'organization_settings.organization_id', 'organizations.id')
      .select(sql<unknown>`organization_settings.api_settings -> 'allowedOrigins'`.as('allowed_origins'))
      .compile(),
  );
  const [, ...fixed] = compiledLookupWithOrigins.parameters;
  const { rows } = await db.executeQuery(withParameters(compiledLookupWithOrigins, [slug, ...fixed]));
  const row = rows[0];
  if (!row) return undefined;
  const origins = Array.isArray(row.allowed_origins) ? row.allowed_origins : [];
  return {
    organizationId: row.id,
    slug: row.slug,
    name: row.name,
    allowedOrigins: origins.filter((origin): origin is string => typeof origin === 'string'),
  };
}

/** How a store presents itself to shoppers (the business profile's public fields), null where unset. */
export interface StorefrontProfile {
  displayName: string | null;
  logoUrl: string | null;
  websiteUrl: string | null;
  /** The store's BCP 47 locale (`businessProfile.locale`), `en-US` while unset. */
  locale: string;
}

let compiledLookupWithProfile:
  | CompiledQuery<
      TenantRow & { display_name: unknown; logo_url: unknown; website_url: unknown; locale: unknown }
    >
  | undefined;

/**
 * `findTenantBySlug` with the store's public profile, in the same one query: the storefront's
 * organization read is the most frequent public read, and a second round trip for the settings row
 * would double its cost. Values are read defensively (a URL that is not http or https is null, a
 * locale the settings would refuse is the default), whatever older rows or hand edits hold.
 */
export async function findTenantWithProfileBySlug(
  db: Kysely<Database>,
  slug: string,
): Promise<(Tenant & { profile: StorefrontProfile }) | undefined> {
  if (!organizationSlugSchema.safeParse(slug).success) return undefined;
  compiledLookupWithProfile ??= prepared(
    lookupQuery(db, '')
      .leftJoin('organization_settings', 'organization_settings.organization_id', 'organizations.id')
      .select([
        sql<unknown>`organization_settings.business_profile ->> 'displayName'`.as('display_name'),
        sql<unknown>`organization_settings.business_profile ->> 'logoUrl'`.as('logo_url'),
        sql<unknown>`organization_settings.business_profile ->> 'websiteUrl'`.as('website_url'),
        sql<unknown>`organization_settings.business_profile ->> 'locale'`.as('locale'),
      ])
      .compile(),
  );
  const [, ...fixed] = compiledLookupWithProfile.parameters;
  const { rows } = await db.executeQuery(withParameters(compiledLookupWithProfile, [slug, ...fixed]));
  const row = rows[0];
  if (!row) return undefined;
  return {
    organizationId: row.id,
    slug: row.slug,
    name: row.name,
    profile: {
      displayName:
        typeof row.display_name === 'string' && row.display_name.trim() !== '' ? row.display_name : null,
      logoUrl: readWebUrl(row.logo_url),
      websiteUrl: readWebUrl(row.website_url),
      locale: (typeof row.locale === 'string' && canonicalLocale(row.locale)) || DEFAULT_STORE_LOCALE,
    },
  };
}

/** A stored URL the settings would accept today, else null. */
function readWebUrl(value: unknown): string | null {
  return webUrlSchema.safeParse(value).success ? (value as string) : null;
}
