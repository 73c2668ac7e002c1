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

/** A tenant with the browser origins its settings allow (`apiSettings.allowedOrigins`). */
export interface TenantWithOrigins extends Tenant {
  allowedOrigins: string[];
}

/** How a store presents itself to shoppers (the business profile's public fields), null where unset. */
export interface StorefrontProfile {
  displayName: string | null;
  logoUrl: string | null;
  websiteUrl: string | null;
  /** The store's BCP 47 locale (`businessProfile.locale`), `en-US` while unset. */
  locale: string;
}

/**
 * What every tenant request may need of its store, read in one query: the organization, the
 * browser origins its settings allow (a cross-origin request's CORS answer, the customer
 * procedures' origin check) and its public profile (the organization read). Kept in memory by
 * `TenantDirectory`.
 */
export interface TenantSnapshot extends TenantWithOrigins {
  profile: StorefrontProfile;
}

type SnapshotRow = TenantRow & {
  allowed_origins: unknown;
  display_name: unknown;
  logo_url: unknown;
  website_url: unknown;
  locale: unknown;
};

let compiledSnapshot: CompiledQuery<SnapshotRow> | undefined;

/**
 * The active organization of `slug` with its allowed origins and public profile, or undefined.
 * Values are read defensively (an origin that is not a string is left out, a URL that is not http
 * or https is null, a locale the settings would refuse is the default), whatever older rows or
 * hand edits hold.
 */
export async function findTenantSnapshotBySlug(
  db: Kysely<Database>,
  slug: string,
): Promise<TenantSnapshot | undefined> {
  if (!organizationSlugSchema.safeParse(slug).success) return undefined;
  compiledSnapshot ??= prepared(
    lookupQuery(db, '')
      .leftJoin('organization_settings', 'organization_settings.organization_id', 'organizations.id')
      .select([
        sql<unknown>`organization_settings.api_settings -> 'allowedOrigins'`.as('allowed_origins'),
        sql<unknown>`organization_settings.business_profile ->> 'displayName'`.as('display_name'),
        sql<unknown>`organization_settings.business_profile ->> 'logoUrl'`.as('logo_url'),
        sql<unknown>`organization_settings.business_profile ->> 'websiteUrl'`.as('website_url'),
        sql<unknown>`organization_settings.business_profile ->> 'locale'`.as('locale'),
      ])
      .compile(),
  );
  const [, ...fixed] = compiledSnapshot.parameters;
  const { rows } = await db.executeQuery(withParameters(compiledSnapshot, [slug, ...fixed]));
  const row = rows[0];
  if (!row) return undefined;
  const origins = Array.isArray(row.allowed_origins) ? row.allowed_origins : [];
  return {
    organizationId: row.id,
    slug: row.slug,
    name: row.name,
    allowedOrigins: origins.filter((origin): origin is string => typeof origin === 'string'),
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
