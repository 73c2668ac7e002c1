/**
 * `pnpm --filter @commerce/bench bench:catalog`: the catalog reads on 100,000
 * items. Builds the gateway, starts it on PostgreSQL and on PGlite with the
 * demo organization holding 100,000 items (seeded in one SQL statement, with
 * variants, published reviews and a collection so that every list decoration
 * has work to do), and drives three routes with autocannon:
 *
 *   - the storefront list   GET /api/v1/public/items?limit=50
 *   - one storefront item   GET /api/v1/public/items/{slug}
 *   - the merchant search   GET /api/v1/merchant/items?search=<substring>&limit=50
 *
 * The two storefront routes are also driven on the bare server (bare-server.ts,
 * Hono + `pg` or PGlite with no framework), which runs the SQL texts the
 * catalog services send (bare-sql.ts, checked against the services' own
 * compiled SQL before anything is measured) on the same data: each engine
 * runs the bare server first (both routes), stops it, then the gateway, and
 * the two must answer the same bodies. Each route then has a "% of bare".
 *
 * On PostgreSQL it also runs EXPLAIN (ANALYZE, BUFFERS) of the merchant search
 * query (compiled by the item service itself) for the benchmark's substring
 * and for a rare one, and says whether the trigram index served each.
 * Prints req/s, p50 and p99 per route and writes results/catalog.json.
 *
 * Knobs (environment): BENCH_ENGINES (postgres,pglite), BENCH_CATALOG_ITEMS (100000),
 * BENCH_CONNECTIONS (32), BENCH_DURATION (10 s), BENCH_WARMUP (2 s), BENCH_POOL_SIZE (10),
 * BENCH_SEARCH (lantern), BENCH_POSTGRES_URL (admin connection,
 * postgres://postgres@127.0.0.1:5432/postgres), BENCH_CATALOG_DATABASE
 * (commerce_bench_catalog, dropped and recreated), BENCH_LOG_LEVEL (the gateway's, info),
 * BENCH_OUTPUT (results/catalog.json), BENCH_CPU_PROFILE (1: the gateway runs with
 * --cpu-prof into results/cpu-profiles.tmp), BENCH_KEEP_DATABASE (1: leave the
 * PostgreSQL database in place, to experiment on it afterwards).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintDevToken } from '@commerce/auth';
import {
  getPublicItem,
  itemListQuerySchema,
  listItems,
  listPublicItems,
  publicItemListQuerySchema,
} from '@commerce/catalog';
import { type Database, openDatabase } from '@commerce/db';
import {
  type CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import pg from 'pg';
import { SQL } from './bare-sql.ts';
import {
  benchJwt,
  type Connection,
  type Engine,
  enginesFromEnv,
  freshBenchDatabase,
  intEnv,
  productionGatewayEnv,
} from './gateway-env.ts';
import { type LoadResult, measure } from './load.ts';
import { BENCH_DIR, GATEWAY_DIR, RESULTS_DIR, ROOT } from './paths.ts';
import {
  freePort,
  logTail,
  readCpuMs,
  type ServerProcess,
  startBareServer,
  startServer,
  stopAll,
  waitUntilHealthy,
} from './processes.ts';

const settings = {
  engines: enginesFromEnv(),
  items: intEnv('BENCH_CATALOG_ITEMS', 100_000),
  connections: intEnv('BENCH_CONNECTIONS', 32),
  durationSeconds: intEnv('BENCH_DURATION', 10),
  warmupSeconds: intEnv('BENCH_WARMUP', 2),
  poolSize: intEnv('BENCH_POOL_SIZE', 10),
  search: (process.env.BENCH_SEARCH ?? 'lantern').trim(),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_CATALOG_DATABASE ?? 'commerce_bench_catalog',
  gatewayLogLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/catalog.json'),
  cpuProfile: process.env.BENCH_CPU_PROFILE === '1',
  keepDatabase: process.env.BENCH_KEEP_DATABASE === '1',
  publicReadsPerMinute: 100_000_000,
};
if (!/^[a-z_][a-z0-9_]*$/.test(settings.database))
  throw new Error('BENCH_CATALOG_DATABASE must be a plain identifier');
if (settings.items < 100) throw new Error('BENCH_CATALOG_ITEMS must be at least 100');
if (!settings.search) throw new Error('BENCH_SEARCH must not be empty');

const jwt = benchJwt();

/** An item with variants, published reviews and a collection: n = 2 (see the seed). */
const DETAIL_SLUG = 'bench-item-2';
/** A substring only one item has (its model code, see the seed), to show the trigram index at work. */
const RARE_SEARCH = `model ${createHash('md5')
  .update(String(Math.floor(settings.items / 3)))
  .digest('hex')
  .slice(0, 6)}`;

interface Scenario {
  id: 'public-list' | 'public-item' | 'merchant-search';
  label: string;
  path: string;
  headers: Record<string, string>;
  /** The bare server serves this route too (the storefront reads). */
  hasBare: boolean;
}

interface ExplainResult {
  search: string;
  /** How many statements the search sent (a second one for a selective term). */
  statements: number;
  usesTrigramIndex: boolean;
  executionMs: number | null;
  plan: string;
}

interface EngineResult {
  engine: Engine;
  items: number;
  seedMs: number;
  explain: ExplainResult[] | null;
  scenarios: {
    id: Scenario['id'];
    label: string;
    path: string;
    /** The gateway's run. */
    result: LoadResult;
    /** The bare server's run of the same route, just before, when it serves the route. */
    bare: LoadResult | null;
    /** Gateway req/s over bare req/s. */
    shareOfBare: number | null;
  }[];
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function gatewayEnv(port: number, connection: Connection): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...productionGatewayEnv({
      port,
      connection,
      jwt,
      logLevel: settings.gatewayLogLevel,
      poolSize: settings.poolSize,
    }),
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: String(settings.publicReadsPerMinute),
  };
}

async function startGateway(engine: Engine, connection: Connection): Promise<ServerProcess> {
  const port = await freePort();
  const args = [path.join(GATEWAY_DIR, 'dist/main.js')];
  if (settings.cpuProfile) {
    const dir = path.join(RESULTS_DIR, 'cpu-profiles.tmp');
    mkdirSync(dir, { recursive: true });
    args.unshift(
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      `--cpu-prof-name=${engine}-catalog-gateway-${Date.now()}.cpuprofile`,
    );
  }
  const server = startServer({
    name: `gateway (${engine})`,
    args,
    cwd: ROOT,
    port,
    logFile: path.join(RESULTS_DIR, `${engine}-catalog-gateway.log.tmp`),
    env: gatewayEnv(port, connection),
  });
  await waitUntilHealthy(server);
  return server;
}

async function startBare(engine: Engine, connection: Connection): Promise<ServerProcess> {
  const { server } = await startBareServer({
    name: `bare (${engine})`,
    logFile: path.join(RESULTS_DIR, `${engine}-catalog-bare.log.tmp`),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(connection.databaseUrl ? { BARE_DATABASE_URL: connection.databaseUrl } : {}),
      ...(connection.dataDir ? { BARE_DATA_DIR: connection.dataDir } : {}),
      BARE_POOL_SIZE: String(settings.poolSize),
      JWT_SECRET: jwt.secret,
      JWT_ISSUER: jwt.issuer,
      JWT_AUDIENCE: jwt.audience,
      RATE_LIMIT_PER_MINUTE: String(settings.publicReadsPerMinute),
    },
  });
  return server;
}

/**
 * The bare server's SQL texts are the catalog services' own: compiles
 * `listPublicItems` (no filter, no cursor) and `getPublicItem` through a
 * Kysely that runs nothing, and compares what they send with bare-sql.ts.
 */
async function checkCatalogSql(): Promise<void> {
  const sent: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (inner) => new PostgresIntrospector(inner),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') sent.push(event.query);
    },
  });
  await listPublicItems(db, 'org_check', publicItemListQuerySchema.parse({ limit: 50 }));
  await getPublicItem(db, 'org_check', DETAIL_SLUG).catch(() => undefined);
  const expected = [
    {
      name: 'publicItems',
      sql: SQL.publicItems,
      parameters: ['org_check', 'ACTIVE', 51, 'org_check', 'org_check', 'org_check'],
    },
    {
      name: 'publicItem',
      sql: SQL.publicItem,
      parameters: ['org_check', DETAIL_SLUG, 'ACTIVE', 'org_check', 'org_check', 'org_check', 'org_check'],
    },
  ];
  if (sent.length !== expected.length)
    throw new Error(
      `the catalog services sent ${sent.length} statements, the bare server runs ${expected.length}`,
    );
  expected.forEach((statement, index) => {
    const actual = sent[index]!;
    if (
      actual.sql !== statement.sql ||
      JSON.stringify(actual.parameters) !== JSON.stringify(statement.parameters)
    )
      throw new Error(
        `bare-sql.ts ${statement.name} is not what the service sends:\n  service: ${JSON.stringify(actual.sql)} ${JSON.stringify(actual.parameters)}`,
      );
  });
}

/**
 * The demo organization's catalog, each table in one statement: `items` rows
 * with varied names, descriptions and tags (a tenth DRAFT, a fiftieth
 * archived), two variants on every fourth item, three published reviews on
 * every fifth, and an ACTIVE collection holding every twentieth item.
 */
async function seedCatalog(connection: Connection): Promise<void> {
  const database = await openDatabase(connection);
  const db = database.db;
  const count = settings.items;
  try {
    await sql`
      with words as (
        select array['Red', 'Blue', 'Green', 'Walnut', 'Oak', 'Steel', 'Canvas', 'Vintage', 'Compact', 'Deluxe', 'Trail', 'Harbour']::text[] as adjectives,
               array['Tent', 'Kayak', 'Lantern', 'Stove', 'Chair', 'Table', 'Backpack', 'Paddle', 'Bicycle', 'Helmet', 'Jacket', 'Camera', 'Tripod', 'Drone', 'Speaker']::text[] as nouns,
               array['camping', 'the beach', 'the city', 'the mountains', 'weekend trips', 'events']::text[] as places,
               array['outdoor', 'summer', 'winter', 'water', 'travel', 'family', 'pro', 'budget', 'eco', 'classic']::text[] as tags
      ),
      generated as (
        select n,
               w.adjectives[1 + n % 12] || ' ' || w.nouns[1 + (n / 12) % 15] || ' ' || n as name,
               'A ' || lower(w.adjectives[1 + n % 12]) || ' ' || lower(w.nouns[1 + (n / 12) % 15]) || ' for ' ||
                 w.places[1 + n % 6] || '. Model ' || left(md5(n::text), 6) || '.' as description,
               w.tags[1 + n % 10] as first_tag,
               w.tags[1 + (n / 10) % 10] as second_tag,
               case when n % 10 = 0 then 'DRAFT' when n % 50 = 1 then 'ARCHIVED' else 'ACTIVE' end as status
        from generate_series(1, ${count}::int) as n, words w
      )
      insert into items (organization_id, id, slug, name, description, tags, type, status, sort_order,
                         price_in_cents, metafields, search_text, archived_at, created_at, updated_at)
      select o.id,
             'itm_bench_' || lpad(g.n::text, 7, '0'),
             'bench-item-' || g.n,
             g.name,
             g.description,
             jsonb_build_array(g.first_tag, g.second_tag),
             (array['RENTAL', 'SALE', 'SERVICE'])[1 + g.n % 3],
             g.status,
             0,
             case when g.n % 9 = 0 then null else 500 + (g.n * 37) % 20000 end,
             jsonb_build_object('batch', 'bench'),
             lower(g.name || E'\\n' || g.description || E'\\n' || g.first_tag || E'\\n' || g.second_tag),
             case when g.status = 'ARCHIVED' then now() end,
             now() - make_interval(secs => g.n),
             now() - make_interval(secs => g.n)
      from generated g, organizations o
      where o.slug = 'demo'`.execute(db);
    await sql`
      insert into variants (organization_id, id, item_id, sku, name, options, price_in_cents, sale_price_in_cents,
                            inventory_quantity, sort_order, archived_at, created_at, updated_at)
      select o.id,
             'var_bench_' || lpad(n::text, 7, '0') || '_' || v,
             'itm_bench_' || lpad(n::text, 7, '0'),
             'BENCH-' || n || '-' || v,
             case v when 1 then 'Small' else 'Large' end,
             jsonb_build_object('size', case v when 1 then 'S' else 'L' end),
             1000 + v * 500,
             case when n % 8 = 2 then 800 + v * 400 end,
             (n * v) % 20,
             v,
             null,
             now(),
             now()
      from organizations o, generate_series(1, ${count}::int) as n, generate_series(1, 2) as v
      where o.slug = 'demo' and n % 4 = 2`.execute(db);
    await sql`
      insert into reviews (organization_id, id, item_id, rating, author_name, author_email, title, body, status,
                           verified_purchase, created_at)
      select o.id,
             'rev_bench_' || lpad(n::text, 7, '0') || '_' || r,
             'itm_bench_' || lpad(n::text, 7, '0'),
             1 + (n + r) % 5,
             'Reviewer ' || r,
             'reviewer' || r || '-' || n || '@bench.test',
             'Review ' || r,
             'A review written for the catalog bench.',
             'PUBLISHED',
             r = 1,
             now() - make_interval(secs => n + r)
      from organizations o, generate_series(1, ${count}::int) as n, generate_series(1, 3) as r
      where o.slug = 'demo' and n % 5 = 2`.execute(db);
    await sql`
      insert into collections (organization_id, id, slug, name, status, sort_order, created_at, updated_at)
      select id, 'col_bench_featured', 'featured', 'Featured', 'ACTIVE', 0, now(), now()
      from organizations where slug = 'demo'`.execute(db);
    await sql`
      insert into collection_items (organization_id, collection_id, item_id, position, created_at)
      select o.id, 'col_bench_featured', 'itm_bench_' || lpad(n::text, 7, '0'), n / 2, now()
      from organizations o, generate_series(2, ${count}::int, 2) as n
      where o.slug = 'demo' and n % 20 = 2`.execute(db);
    await sql`analyze`.execute(db);
  } finally {
    await database.close();
  }
}

/**
 * The merchant search statements exactly as the item service sends them
 * (captured from `listItems` through Kysely's log: one for a common term, a
 * second through the trigram index for a selective one), each explained with
 * its parameters.
 */
async function explainSearch(databaseUrl: string, search: string): Promise<ExplainResult> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const captured: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event.query);
    },
  });
  try {
    const { rows } = await pool.query<{ id: string }>(`select id from organizations where slug = 'demo'`);
    const organizationId = rows[0]?.id;
    if (!organizationId) throw new Error('no demo organization');
    await listItems(db, organizationId, itemListQuerySchema.parse({ search, limit: 50 }));
    const statements = captured.filter((compiled) => compiled.sql.includes('search_text'));
    if (statements.length === 0) throw new Error('the item list sent no search query');
    const plans: string[] = [];
    let executionMs = 0;
    for (const [index, statement] of statements.entries()) {
      const explained = await pool.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, buffers) ${statement.sql}`,
        statement.parameters as unknown[],
      );
      const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      plans.push(`statement ${index + 1} of ${statements.length}:\n${plan}`);
      executionMs += Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN);
    }
    const plan = plans.join('\n');
    return {
      search,
      statements: statements.length,
      usesTrigramIndex: plan.includes('items_search_trgm_idx'),
      executionMs: Number.isNaN(executionMs) ? null : round2(executionMs),
      plan,
    };
  } finally {
    await db.destroy();
  }
}

async function getJson(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

/** JSON with object keys sorted, so two bodies compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** Each route answers 200 with the shape the bench means to measure, before it is measured. */
async function checkScenarios(server: ServerProcess, scenarios: Scenario[]): Promise<void> {
  for (const scenario of scenarios) {
    const { status, body } = await getJson(`${server.url}${scenario.path}`, scenario.headers);
    if (status !== 200) throw new Error(`${scenario.label}: ${status} ${JSON.stringify(body).slice(0, 500)}`);
    if (scenario.id === 'public-list' && (body as unknown[]).length !== 50)
      throw new Error(`${scenario.label}: expected 50 items, got ${(body as unknown[]).length}`);
    if (scenario.id === 'public-item') {
      const item = body as { ratingCount: number; salePriceInCents: number | null; collectionIds: string[] };
      if (item.ratingCount !== 3 || item.salePriceInCents === null || item.collectionIds.length !== 1)
        throw new Error(`${scenario.label}: the item lacks its decorations: ${JSON.stringify(body)}`);
    }
    if (scenario.id === 'merchant-search') {
      const page = body as { data: unknown[] };
      log(`  ${scenario.label}: first page holds ${page.data.length} items`);
    }
  }
}

async function load(server: ServerProcess, scenario: Scenario): Promise<LoadResult> {
  const result = await measure(
    {
      url: `${server.url}${scenario.path}`,
      headers: scenario.headers,
      connections: settings.connections,
      duration: settings.durationSeconds,
    },
    settings.warmupSeconds,
    () => readCpuMs(server.pid),
  );
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${server.name} ${scenario.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `(status codes ${JSON.stringify(result.statusCodes)})${server.exited ? `; the gateway exited:\n${logTail(server, 5)}` : ''}`,
    );
  }
  log(
    `  ${server.name.padEnd(20)} ${scenario.label.padEnd(34)} ${String(result.requestsPerSecond).padStart(6)} req/s` +
      `  p50 ${result.latency.p50.toFixed(2)} ms  p99 ${result.latency.p99.toFixed(2)} ms` +
      `  ${result.cpuMicrosPerRequest} µs CPU/req`,
  );
  return result;
}

async function benchEngine(engine: Engine, scenarios: Scenario[]): Promise<EngineResult> {
  log(`\n== ${engine} ==`);
  const { connection, dispose } = await freshBenchDatabase(engine, {
    adminUrl: settings.postgresAdminUrl,
    database: settings.database,
    label: 'catalog',
    keep: settings.keepDatabase,
  });
  try {
    // The first start migrates and seeds the demo organization; PGlite then needs its directory back.
    const first = await startGateway(engine, connection);
    await first.stop();
    const seeding = performance.now();
    await seedCatalog(connection);
    const seedMs = Math.round(performance.now() - seeding);
    log(`seeded ${settings.items} items with variants, reviews and a collection in ${seedMs} ms`);

    let explain: ExplainResult[] | null = null;
    if (connection.databaseUrl) {
      explain = [];
      for (const search of [settings.search, RARE_SEARCH]) {
        const result = await explainSearch(connection.databaseUrl, search);
        explain.push(result);
        log(
          `EXPLAIN ANALYZE of the merchant search for "${search}": ${result.statements} statement(s), trigram index ${result.usesTrigramIndex ? 'used' : 'not used'}` +
            ` (execution ${result.executionMs ?? '?'} ms)`,
        );
        log(result.plan.replace(/^/gm, '    '));
      }
    }

    // The bare server first, alone on the data (PGlite's directory has one holder at a time).
    const bareScenarios = scenarios.filter((scenario) => scenario.hasBare);
    const bareBodies = new Map<Scenario['id'], string>();
    const bareResults = new Map<Scenario['id'], LoadResult>();
    const bare = await startBare(engine, connection);
    try {
      await checkScenarios(bare, bareScenarios);
      for (const scenario of bareScenarios) {
        bareBodies.set(
          scenario.id,
          canonical((await getJson(`${bare.url}${scenario.path}`, scenario.headers)).body),
        );
        bareResults.set(scenario.id, await load(bare, scenario));
      }
    } finally {
      await bare.stop();
    }

    const gateway = await startGateway(engine, connection);
    try {
      // Binds the demo owner's pending membership to the bench token's subject.
      const merchant = scenarios.find((scenario) => scenario.id === 'merchant-search')!;
      const bound = await getJson(`${gateway.url}/api/v1/merchant/items?limit=1`, merchant.headers);
      if (bound.status !== 200)
        throw new Error(`merchant sign-in: ${bound.status} ${JSON.stringify(bound.body)}`);
      await checkScenarios(gateway, scenarios);
      for (const scenario of bareScenarios) {
        const fromGateway = canonical(
          (await getJson(`${gateway.url}${scenario.path}`, scenario.headers)).body,
        );
        if (fromGateway !== bareBodies.get(scenario.id))
          throw new Error(
            `${scenario.label}: the bare server and the gateway answer different bodies:\n  bare:    ${bareBodies.get(scenario.id)}\n  gateway: ${fromGateway}`,
          );
      }
      const results: EngineResult['scenarios'] = [];
      for (const scenario of scenarios) {
        const result = await load(gateway, scenario);
        const fromBare = bareResults.get(scenario.id) ?? null;
        results.push({
          id: scenario.id,
          label: scenario.label,
          path: scenario.path,
          result,
          bare: fromBare,
          shareOfBare: fromBare ? round2(result.requestsPerSecond / fromBare.requestsPerSecond) : null,
        });
      }
      return { engine, items: settings.items, seedMs, explain, scenarios: results };
    } finally {
      await gateway.stop();
    }
  } finally {
    await dispose();
  }
}

async function main(): Promise<void> {
  const startedAt = new Date();
  mkdirSync(RESULTS_DIR, { recursive: true });
  await checkCatalogSql();
  execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });

  const token = await mintDevToken({
    secret: jwt.secret,
    issuer: jwt.issuer,
    audience: jwt.audience,
    subject: 'bench|demo-owner',
    email: 'owner@demo.test',
    expiresInSeconds: 3600,
  });
  const tenant = { 'x-organization-slug': 'demo' };
  const scenarios: Scenario[] = [
    {
      id: 'public-list',
      label: 'GET /public/items?limit=50',
      path: '/api/v1/public/items?limit=50',
      headers: tenant,
      hasBare: true,
    },
    {
      id: 'public-item',
      label: `GET /public/items/${DETAIL_SLUG}`,
      path: `/api/v1/public/items/${DETAIL_SLUG}`,
      headers: tenant,
      hasBare: true,
    },
    {
      id: 'merchant-search',
      label: `GET /merchant/items?search=${settings.search}`,
      path: `/api/v1/merchant/items?search=${encodeURIComponent(settings.search)}&limit=50`,
      headers: { ...tenant, authorization: `Bearer ${token}` },
      hasBare: false,
    },
  ];

  log(
    `machine: ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per route; ` +
      `pool size ${settings.poolSize}; gateway LOG_LEVEL=${settings.gatewayLogLevel}`,
  );
  const loadBefore = round2(os.loadavg()[0]!);
  if (loadBefore > 0.5) log(`warning: the 1-minute load average is ${loadBefore} before the bench starts`);

  const engines: EngineResult[] = [];
  for (const engine of settings.engines) engines.push(await benchEngine(engine, scenarios));

  log(
    '\nroute                                  engine     bare req/s  gateway req/s  of bare  bare p99  gateway p50 / p99',
  );
  for (const engine of engines) {
    for (const scenario of engine.scenarios) {
      const { result, bare } = scenario;
      log(
        `${scenario.label.padEnd(38)} ${engine.engine.padEnd(9)} ${(bare ? String(bare.requestsPerSecond) : '-').padStart(10)}` +
          `  ${String(result.requestsPerSecond).padStart(13)}  ${(scenario.shareOfBare === null ? '-' : `${Math.round(scenario.shareOfBare * 100)}%`).padStart(7)}` +
          `  ${(bare ? bare.latency.p99.toFixed(2) : '-').padStart(8)}  ${result.latency.p50.toFixed(2).padStart(7)} / ${result.latency.p99.toFixed(2)}`,
      );
    }
  }
  const loadAfter = round2(os.loadavg()[0]!);

  const output = {
    generatedAt: startedAt.toISOString(),
    durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    machine: {
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: round2(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAverageBefore: loadBefore,
      loadAverageAfter: loadAfter,
    },
    settings: {
      items: settings.items,
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
      poolSize: settings.poolSize,
      search: settings.search,
      gatewayLogLevel: settings.gatewayLogLevel,
      loadGenerator: 'autocannon 8, in the runner process on the same machine',
    },
    engines,
  };
  mkdirSync(path.dirname(settings.output), { recursive: true });
  writeFileSync(settings.output, `${JSON.stringify(output, null, 2)}\n`);
  log(`\nwrote ${path.relative(ROOT, settings.output)} (${output.durationSeconds} s)`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopAll().finally(() => process.exit(130));
  });
}

main()
  .catch((error: unknown) => {
    process.exitCode = 1;
    log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  })
  .finally(stopAll);
