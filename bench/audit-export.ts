/**
 * `pnpm --filter @commerce/bench bench:export`: the audit-log CSV export of
 * 100,000 records, downloaded from the built gateway on PostgreSQL and on
 * PGlite, with the gateway's resident memory sampled every 20 ms throughout.
 * The export streams from a database cursor, so the peak should stay far
 * below the size of the file it sends.
 *
 * Knobs (environment): BENCH_ENGINES (postgres,pglite), BENCH_EXPORT_ROWS (100000),
 * BENCH_POSTGRES_URL (admin connection, postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_EXPORT_DATABASE (commerce_bench_export, dropped and recreated),
 * BENCH_EXPORT_HEAP_MB (unset: the gateway runs with --max-old-space-size of this many MB,
 * which a process holding the whole result would exceed), BENCH_OUTPUT (results/audit-export.json).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '@commerce/db';
import { sql } from 'kysely';
import {
  benchJwt,
  type Connection,
  demoOwnerToken,
  type Engine,
  enginesFromEnv,
  freshBenchDatabase,
  productionGatewayEnv,
} from './gateway-env.ts';
import { BENCH_DIR, GATEWAY_DIR, RESULTS_DIR, ROOT } from './paths.ts';
import {
  freePort,
  readMemory,
  type ServerProcess,
  startServer,
  stopAll,
  waitUntilHealthy,
} from './processes.ts';

const settings = {
  engines: enginesFromEnv(),
  rows: Number(process.env.BENCH_EXPORT_ROWS ?? 100_000),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_EXPORT_DATABASE ?? 'commerce_bench_export',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/audit-export.json'),
  heapMb: process.env.BENCH_EXPORT_HEAP_MB ? Number(process.env.BENCH_EXPORT_HEAP_MB) : undefined,
};
if (!/^[a-z_][a-z0-9_]*$/.test(settings.database))
  throw new Error('BENCH_EXPORT_DATABASE must be a plain identifier');
if (!Number.isInteger(settings.rows) || settings.rows < 1)
  throw new Error('BENCH_EXPORT_ROWS must be a positive integer');

const jwt = benchJwt();

interface ExportResult {
  engine: Engine;
  rows: number;
  csvBytes: number;
  seconds: number;
  rowsPerSecond: number;
  rssIdleMiB: number;
  rssPeakMiB: number;
  rssGrowthMiB: number;
  /** VmHWM after the export, the kernel's own peak since the process started. */
  hwmMiB: number;
}

const MiB = (kb: number) => Math.round((kb / 1024) * 10) / 10;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function gatewayEnv(port: number, connection: Connection): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...productionGatewayEnv({ port, connection, jwt, logLevel: 'warn' }),
  };
}

async function startGateway(engine: Engine, connection: { databaseUrl?: string; dataDir?: string }) {
  const port = await freePort();
  const server = startServer({
    name: `gateway (${engine})`,
    args: [
      ...(settings.heapMb ? [`--max-old-space-size=${settings.heapMb}`] : []),
      path.join(GATEWAY_DIR, 'dist/main.js'),
    ],
    cwd: ROOT,
    port,
    logFile: path.join(RESULTS_DIR, `${engine}-export-gateway.log.tmp`),
    env: gatewayEnv(port, connection),
  });
  await waitUntilHealthy(server);
  return server;
}

/** Inserts `rows` audit records for the demo organization in one statement (the gateway is stopped). */
async function seedAuditRows(connection: { databaseUrl?: string; dataDir?: string }): Promise<void> {
  const database = await openDatabase(connection);
  try {
    await sql`
      insert into audit_logs (organization_id, id, actor_user_id, actor_email, action, target_type, target_id, metadata, created_at)
      select o.id,
             'aud_bench_' || lpad(n::text, 7, '0'),
             'usr_bench_' || (n % 17),
             'staff' || (n % 17) || '@demo.test',
             (array['item.updated', 'settings.updated', 'membership.granted', 'order.status_changed'])[1 + n % 4],
             'item',
             'itm_' || lpad(n::text, 7, '0'),
             jsonb_build_object('fields', jsonb_build_array('name', 'priceInCents'), 'note', 'bulk, "quoted" = row ' || n),
             now() - make_interval(secs => n)
      from organizations o, generate_series(1, ${settings.rows}) as n
      where o.slug = 'demo'`.execute(database.db);
  } finally {
    await database.close();
  }
}

async function download(server: ServerProcess, token: string): Promise<Omit<ExportResult, 'engine'>> {
  const headers = { authorization: `Bearer ${token}`, 'x-organization-slug': 'demo' };
  // Warm the route (and bind the owner's membership) on an export that matches nothing.
  const warm = await fetch(`${server.url}/api/v1/merchant/audit-logs/export?targetType=none`, { headers });
  if (warm.status !== 200) throw new Error(`warm-up export: ${warm.status} ${await warm.text()}`);
  await warm.text();
  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 500));

  const idle = readMemory(server.pid).rssKb;
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, readMemory(server.pid).rssKb);
  }, 20);
  const started = performance.now();
  let bytes = 0;
  let lineBreaks = 0;
  try {
    const response = await fetch(`${server.url}/api/v1/merchant/audit-logs/export?targetType=item`, {
      headers,
    });
    if (response.status !== 200 || !response.body) throw new Error(`export: ${response.status}`);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 0x0a) lineBreaks += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, readMemory(server.pid).rssKb);
  // One line per record, one for the header; the seeded metadata holds no line break.
  const rows = lineBreaks - 1;
  if (rows !== settings.rows) throw new Error(`the export held ${rows} records, expected ${settings.rows}`);
  return {
    rows,
    csvBytes: bytes,
    seconds: Math.round(seconds * 100) / 100,
    rowsPerSecond: Math.round(rows / seconds),
    rssIdleMiB: MiB(idle),
    rssPeakMiB: MiB(peak),
    rssGrowthMiB: MiB(peak - idle),
    hwmMiB: MiB(readMemory(server.pid).hwmKb),
  };
}

async function benchEngine(engine: Engine, token: string): Promise<ExportResult> {
  log(`\n== ${engine} ==`);
  const { connection, dispose } = await freshBenchDatabase(engine, {
    adminUrl: settings.postgresAdminUrl,
    database: settings.database,
    label: 'export',
  });
  try {
    // First start migrates and seeds the demo organization; PGlite then needs the directory back.
    const first = await startGateway(engine, connection);
    await first.stop();
    const seeding = performance.now();
    await seedAuditRows(connection);
    log(`seeded ${settings.rows} audit records in ${Math.round(performance.now() - seeding)} ms`);
    const gateway = await startGateway(engine, connection);
    try {
      const result = { engine, ...(await download(gateway, token)) };
      log(
        `exported ${result.rows} records (${MiB(result.csvBytes / 1024)} MiB of CSV) ` +
          `in ${result.seconds} s (${result.rowsPerSecond} records/s); gateway RSS ${result.rssIdleMiB} MiB idle, ` +
          `${result.rssPeakMiB} MiB peak (+${result.rssGrowthMiB} MiB), VmHWM ${result.hwmMiB} MiB`,
      );
      return result;
    } finally {
      await gateway.stop();
    }
  } finally {
    await dispose();
  }
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  const token = await demoOwnerToken(jwt);
  const results: ExportResult[] = [];
  for (const engine of settings.engines) results.push(await benchEngine(engine, token));
  writeFileSync(
    settings.output,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        rows: settings.rows,
        heapMb: settings.heapMb ?? null,
        results,
      },
      null,
      2,
    )}\n`,
  );
  log(`\nwrote ${path.relative(ROOT, settings.output)}`);
}

main()
  .catch((error: unknown) => {
    process.exitCode = 1;
    log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  })
  .finally(stopAll);
