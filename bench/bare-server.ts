/**
 * The ceiling: the benchmarked routes written directly on Hono and
 * @hono/node-server, doing the same work as the gateway without its
 * framework (no tRPC, Kysely, zod, pino or request ids).
 *
 * - GET /healthz: a JSON body.
 * - GET /api/v1/public/organization: the gateway's tenant query, then an
 *   in-memory rate-limit counter keyed by organization and client address.
 * - GET /api/v1/merchant/auth/memberships: the tenant query, jose HS256
 *   verification with the same options, then the gateway's three other
 *   queries (user by subject, active membership, the membership list).
 *
 * Environment: PORT, HOST, BARE_DATABASE_URL (PostgreSQL; unset = an
 * in-memory PGlite holding the demo rows), BARE_POOL_SIZE, JWT_SECRET,
 * JWT_ISSUER, JWT_AUDIENCE, RATE_LIMIT_PER_MINUTE. Run by `run.ts`.
 */
import { PGlite } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { jwtVerify } from 'jose';
import pg from 'pg';

/** The SQL Kysely compiles for the gateway's queries, character for character. */
export const SQL = {
  tenant: 'select "id", "slug", "name" from "organizations" where "slug" = $1 and "status" = $2',
  user: 'select * from "merchant_users" where "subject" = $1',
  membership: 'select * from "memberships" where "organization_id" = $1 and "user_id" = $2 and "status" = $3',
  list: 'select "memberships".*, "merchant_users"."name" as "user_name" from "memberships" left join "merchant_users" on "merchant_users"."id" = "memberships"."user_id" where "memberships"."organization_id" = $1 order by "memberships"."created_at" asc, "memberships"."id" asc limit $2',
} as const;

const PAGE_LIMIT = 50;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])$/;

type Row = Record<string, unknown>;
interface Store {
  query(text: string, params: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function openPostgres(url: string, poolSize: number): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {});
  return {
    query: async (text, params) => (await pool.query<Row>(text, params)).rows,
    close: () => pool.end(),
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

async function main() {
  const databaseUrl = process.env.BARE_DATABASE_URL;
  const store = databaseUrl
    ? await openPostgres(databaseUrl, Number(process.env.BARE_POOL_SIZE ?? 10))
    : await openPglite();
  const secret = new TextEncoder().encode(required('JWT_SECRET'));
  const verifyOptions = {
    issuer: required('JWT_ISSUER'),
    audience: required('JWT_AUDIENCE'),
    algorithms: ['HS256'],
    requiredClaims: ['exp'],
  };
  const allow = createLimiter(Number(process.env.RATE_LIMIT_PER_MINUTE ?? 600));

  const tenantOf = async (header: string | undefined) => {
    const slug = header?.trim();
    if (!slug || !SLUG.test(slug)) return undefined;
    const rows = await store.query(SQL.tenant, [slug, 'ACTIVE']);
    return rows[0] as { id: string; slug: string; name: string } | undefined;
  };

  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/api/v1/public/organization', async (c) => {
    const tenant = await tenantOf(c.req.header('x-organization-slug'));
    if (!tenant) return c.json({ error: { code: 'NOT_FOUND' } }, 404);
    if (!allow(`public-read:${tenant.id}:${getConnInfo(c).remote.address ?? 'unknown'}`)) {
      return c.json({ error: { code: 'RATE_LIMITED' } }, 429);
    }
    return c.json({ id: tenant.id, slug: tenant.slug, name: tenant.name });
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
