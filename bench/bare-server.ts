/**
 * The ceiling: the benchmarked routes written directly on Hono and
 * @hono/node-server, doing the same work as the gateway without its
 * framework (no tRPC, Kysely, zod, pino or request ids).
 *
 * - GET /healthz: a JSON body.
 * - GET /api/v1/public/organization: the tenant, then an in-memory rate-limit
 *   counter keyed by organization and client address.
 * - GET /api/v1/merchant/auth/memberships: the tenant, jose HS256
 *   verification with the same options, then the gateway's three other
 *   queries (user by subject, active membership, the membership list).
 * - GET /api/v1/public/items?limit=n and GET /api/v1/public/items/{slug}
 *   (the catalog bench): the tenant, the rate-limit counter, then the catalog
 *   service's one statement (page or item, decorations, variants), mapped to
 *   the public item JSON.
 *
 * The tenant is looked up by slug on every request, as the gateway does;
 * the SQL texts are the gateway's (bare-sql.ts).
 *
 * Environment: PORT, HOST, BARE_DATABASE_URL (PostgreSQL), BARE_DATA_DIR (a
 * PGlite data directory the gateway migrated and seeded; the gateway must not
 * hold it at the same time); with neither, an in-memory PGlite holding the
 * demo rows of the main bench. BARE_POOL_SIZE, JWT_SECRET, JWT_ISSUER,
 * JWT_AUDIENCE, RATE_LIMIT_PER_MINUTE. Run by `run.ts` and `catalog.ts`.
 */
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { jwtVerify } from 'jose';
import pg from 'pg';
import { SQL } from './bare-sql.ts';

const PAGE_LIMIT = 50;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])$/;

type Row = Record<string, unknown>;
interface Store {
  /** A text that starts with `/* prepared *\/` is prepared once per connection on PostgreSQL, as the gateway does. */
  query(text: string, params: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

// int8 (counts) as numbers, as the gateway's database handle reads them.
const INT8_OID = 20;

const PREPARED = '/* prepared */ ';

async function openPostgres(url: string, poolSize: number): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => {});
  const names = new Map<string, string>();
  return {
    query: async (text, params) => {
      let name: string | undefined;
      if (text.startsWith(PREPARED)) {
        name = names.get(text) ?? `bare_${names.size + 1}`;
        names.set(text, name);
      }
      return (await pool.query<Row>(name ? { name, text, values: params } : { text, values: params })).rows;
    },
    close: () => pool.end(),
  };
}

/** The gateway's data directory, with the extensions its migrations created. */
async function openPgliteDirectory(dataDir: string): Promise<Store> {
  const db = await PGlite.create({
    dataDir,
    extensions: { citext, pg_trgm, btree_gist },
    parsers: { [INT8_OID]: (value: string) => Number(value) },
  });
  return {
    query: async (text, params) => (await db.query<Row>(text, params, { rowMode: 'object' })).rows,
    close: () => db.close(),
  };
}

/** Its own in-memory PGlite (the gateway holds its data directory exclusively) with the demo rows. */
async function openPglite(): Promise<Store> {
  const db = await PGlite.create({ extensions: { citext } });
  await db.exec(`
    create extension if not exists citext;
    create table organizations (
      id text primary key, slug text not null unique, name text not null,
      status text not null default 'ACTIVE' check (status in ('ACTIVE', 'SUSPENDED')),
      created_at timestamptz not null default now());
    create table organization_settings (
      organization_id text primary key references organizations (id),
      business_profile jsonb not null default '{}'::jsonb);
    create table merchant_users (
      id text primary key, subject text not null unique, email citext not null,
      email_verified boolean not null default false, name text,
      created_at timestamptz not null default now(), updated_at timestamptz not null default now());
    create index merchant_users_email_idx on merchant_users (email);
    create table memberships (
      organization_id text not null references organizations (id), id text not null,
      user_id text references merchant_users (id), email citext not null, invited_name text,
      role text not null check (role in ('Owner', 'Admin', 'Staff')),
      permissions jsonb not null default '[]'::jsonb,
      status text not null check (status in ('PENDING', 'ACTIVE')),
      created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
      primary key (organization_id, id), unique (organization_id, email));
    create unique index memberships_user_key on memberships (organization_id, user_id) where user_id is not null;
    create index memberships_list_idx on memberships (organization_id, created_at, id);
    create index memberships_user_idx on memberships (user_id);
  `);
  const subject = required('BARE_SUBJECT');
  await db.query(
    `insert into organizations (id, slug, name) values ('org_01BENCHBAREORGANIZATION00', 'demo', 'Demo Store')`,
  );
  await db.query(
    `insert into merchant_users (id, subject, email, email_verified, name)
     values ('usr_01BENCHBAREUSER000000000', $1, 'owner@demo.test', true, null)`,
    [subject],
  );
  await db.query(`insert into memberships (organization_id, id, user_id, email, invited_name, role, status)
    values ('org_01BENCHBAREORGANIZATION00', 'mem_01BENCHBAREMEMBERSHIP000', 'usr_01BENCHBAREUSER000000000',
            'owner@demo.test', 'Demo Owner', 'Owner', 'ACTIVE')`);
  return {
    query: async (text, params) => (await db.query<Row>(text, params, { rowMode: 'object' })).rows,
    close: () => db.close(),
  };
}

/** A fixed-window counter per key, the work of the gateway's memory rate-limit store. */
function createLimiter(pointsPerMinute: number) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return (key: string): boolean => {
    const now = Date.now();
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + 60_000 };
      windows.set(key, window);
    }
    window.count += 1;
    return window.count <= pointsPerMinute;
  };
}

const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** Metafields without the service's reserved `__` keys. */
function publicMetafields(metafields: Record<string, unknown>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const key in metafields) if (!key.startsWith('__')) shown[key] = metafields[key];
  return shown;
}

/** A row of the catalog statements as the public item JSON. */
function publicItem(row: Row) {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    tags: row.tags,
    type: row.type,
    status: row.status,
    sortOrder: row.sort_order,
    priceInCents: row.price_in_cents,
    metafields: publicMetafields(row.metafields as Record<string, unknown>),
    archivedAt: row.archived_at === null ? null : iso(row.archived_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    salePriceInCents: row.sale_price === null ? null : Number(row.sale_price),
    ratingAverage: row.rating_average === null ? null : Math.round(Number(row.rating_average) * 100) / 100,
    ratingCount: Number(row.rating_count),
    collectionIds: row.collection_ids ?? [],
  };
}

async function main() {
  const databaseUrl = process.env.BARE_DATABASE_URL;
  const dataDir = process.env.BARE_DATA_DIR;
  const store = databaseUrl
    ? await openPostgres(databaseUrl, Number(process.env.BARE_POOL_SIZE ?? 10))
    : dataDir
      ? await openPgliteDirectory(dataDir)
      : await openPglite();
  const secret = new TextEncoder().encode(required('JWT_SECRET'));
  const verifyOptions = {
    issuer: required('JWT_ISSUER'),
    audience: required('JWT_AUDIENCE'),
    algorithms: ['HS256'],
    requiredClaims: ['exp'],
  };
  const allow = createLimiter(Number(process.env.RATE_LIMIT_PER_MINUTE ?? 600));

  type Tenant = { id: string; slug: string; name: string };
  // Tenants found are kept for the process's life, as the gateway keeps them in memory (the
  // bench's tenants never change), so each read is its one statement; the organization read below
  // still makes its one query.
  const tenants = new Map<string, Tenant>();
  const tenantOf = async (header: string | undefined): Promise<Tenant | undefined> => {
    const slug = header?.trim();
    if (!slug || !SLUG.test(slug)) return undefined;
    const kept = tenants.get(slug);
    if (kept) return kept;
    const found = (await store.query(SQL.tenant, [slug, 'ACTIVE']))[0] as Tenant | undefined;
    if (found) tenants.set(slug, found);
    return found;
  };
  /** The tenant of a public read that the rate limiter lets through, or the error response. */
  const publicReader = async (c: Context): Promise<Tenant | Response> => {
    const tenant = await tenantOf(c.req.header('x-organization-slug'));
    if (!tenant) return c.json({ error: { code: 'NOT_FOUND' } }, 404);
    if (!allow(`public-read:${tenant.id}:${getConnInfo(c).remote.address ?? 'unknown'}`)) {
      return c.json({ error: { code: 'RATE_LIMITED' } }, 429);
    }
    return tenant;
  };

  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  // The gateway's organization read looks the tenant up with its public profile in one query.
  app.get('/api/v1/public/organization', async (c) => {
    const slug = c.req.header('x-organization-slug')?.trim();
    if (!slug || !SLUG.test(slug)) return c.json({ error: { code: 'NOT_FOUND' } }, 404);
    const row = (await store.query(SQL.tenantWithProfile, [slug, 'ACTIVE']))[0] as
      | (Tenant & {
          display_name: string | null;
          logo_url: string | null;
          website_url: string | null;
          locale: string | null;
        })
      | undefined;
    if (!row) return c.json({ error: { code: 'NOT_FOUND' } }, 404);
    if (!allow(`public-read:${row.id}:${getConnInfo(c).remote.address ?? 'unknown'}`)) {
      return c.json({ error: { code: 'RATE_LIMITED' } }, 429);
    }
    return c.json({
      id: row.id,
      slug: row.slug,
      name: row.name,
      displayName: row.display_name,
      logoUrl: row.logo_url,
      websiteUrl: row.website_url,
      locale: row.locale ?? 'en-US',
    });
  });

  app.get('/api/v1/public/items', async (c) => {
    const tenant = await publicReader(c);
    if (tenant instanceof Response) return tenant;
    // The bench sends `limit` only; any other filter is not this handler's work.
    const query = c.req.query();
    const limit = Number(query.limit ?? PAGE_LIMIT);
    if (
      Object.keys(query).some((key) => key !== 'limit') ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > 200
    ) {
      return c.json({ error: { code: 'VALIDATION_FAILED' } }, 400);
    }
    const rows = await store.query(SQL.publicItems, [
      tenant.id,
      'ACTIVE',
      limit + 1,
      tenant.id,
      tenant.id,
      tenant.id,
    ]);
    return c.json(rows.slice(0, limit).map(publicItem));
  });

  app.get('/api/v1/public/items/:slug', async (c) => {
    const tenant = await publicReader(c);
    if (tenant instanceof Response) return tenant;
    const id = tenant.id;
    const row = (await store.query(SQL.publicItem, [id, c.req.param('slug'), 'ACTIVE', id, id, id, id]))[0];
    if (!row) return c.json({ error: { code: 'RESOURCE_NOT_FOUND' } }, 404);
    return c.json({ ...publicItem(row), variants: row.variants });
  });

  app.get('/api/v1/merchant/auth/memberships', async (c) => {
    const tenant = await tenantOf(c.req.header('x-organization-slug'));
    if (!tenant) return c.json({ error: { code: 'NOT_FOUND' } }, 404);
    const token = /^Bearer[ ]+([^\s]+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!token) return c.json({ error: { code: 'UNAUTHENTICATED' } }, 401);
    let subject: string;
    let email: string;
    let emailVerified: boolean;
    try {
      const { payload } = await jwtVerify(token, secret, verifyOptions);
      if (typeof payload.sub !== 'string' || typeof payload.email !== 'string') throw new Error('claims');
      subject = payload.sub;
      email = payload.email.toLowerCase();
      emailVerified = payload.email_verified !== false;
    } catch {
      return c.json({ error: { code: 'UNAUTHENTICATED' } }, 401);
    }
    const user = (await store.query(SQL.user, [subject]))[0];
    // The bench's user exists already, verified (the gateway creates it at the first sign-in);
    // the gateway would update it here otherwise.
    if (!user || user.email !== email || (!user.email_verified && emailVerified)) {
      return c.json({ error: { code: 'FORBIDDEN' } }, 403);
    }
    const membership = (await store.query(SQL.membership, [tenant.id, user.id, 'ACTIVE']))[0];
    if (!membership) return c.json({ error: { code: 'FORBIDDEN' } }, 403);
    const rows = await store.query(SQL.list, [tenant.id, PAGE_LIMIT + 1]);
    const data = rows.slice(0, PAGE_LIMIT).map((row) => ({
      id: row.id,
      userId: row.user_id,
      email: row.email,
      name: row.user_name ?? row.invited_name,
      role: row.role,
      permissions: row.permissions,
      status: row.status,
      createdAt: iso(row.created_at),
    }));
    const last = data[data.length - 1];
    return c.json({ data, nextCursor: rows.length > PAGE_LIMIT && last ? last.id : null });
  });

  const port = Number(process.env.PORT ?? 0);
  const hostname = process.env.HOST ?? '127.0.0.1';
  const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
    process.stdout.write(
      `${JSON.stringify({ msg: 'bare listening', url: `http://${hostname}:${info.port}` })}\n`,
    );
  });
  const stop = () => {
    server.close();
    if ('closeAllConnections' in server) server.closeAllConnections();
    store.close().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

await main();
