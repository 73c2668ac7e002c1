/**
 * `pnpm --filter @commerce/bench bench:db-outage`: a database restart under
 * load. Starts the gateway from source (with its worker inside, rate limits in
 * PostgreSQL), drives readers and writers at it, and "restarts" PostgreSQL
 * for this gateway only: for BENCH_OUTAGE_MS every connection of the gateway
 * (picked by its own `application_name`, never another session of the server)
 * is ended again and again, as a fast shutdown and the restart after it do;
 * BENCH_OUTAGES times. Counts the answers by status, checks that the process
 * lived, how long /readyz took to say 200 after each outage, and that every
 * acknowledged write is stored. Prints a table and writes
 * results/db-outage-<BENCH_LABEL>.json.
 *
 * Knobs: BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_DATABASE (commerce_bench_outage), BENCH_READERS (12), BENCH_WRITERS (4),
 * BENCH_OUTAGES (3), BENCH_OUTAGE_MS (1000), BENCH_BETWEEN_MS (3000), BENCH_LABEL (latest).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { benchJwt, demoOwnerToken, intEnv, productionGatewayEnv } from './gateway-env.ts';
import { GATEWAY_DIR, RESULTS_DIR } from './paths.ts';
import { dropBenchDatabase, recreateBenchDatabase } from './postgres.ts';
import { freePort, logTail, startServer, stopAll, waitUntilHealthy } from './processes.ts';

const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = process.env.BENCH_DATABASE ?? 'commerce_bench_outage';
const label = process.env.BENCH_LABEL ?? 'latest';
const settings = {
  readers: intEnv('BENCH_READERS', 12),
  writers: intEnv('BENCH_WRITERS', 4),
  outages: intEnv('BENCH_OUTAGES', 3),
  outageMs: intEnv('BENCH_OUTAGE_MS', 1_000),
  betweenMs: intEnv('BENCH_BETWEEN_MS', 3_000),
};

const database = await recreateBenchDatabase(adminUrl, databaseName);
const applicationName = `commerce_bench_outage_${randomBytes(4).toString('hex')}`;
const url = new URL(database.url);
url.searchParams.set('application_name', applicationName);
const jwt = benchJwt();
const port = await freePort();
mkdirSync(RESULTS_DIR, { recursive: true });
const inherited = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(DATABASE_|RATE_LIMIT_|TEST_|PGAPPNAME$)/.test(name)),
);
const gateway = startServer({
  name: 'gateway',
  args: ['--import', 'tsx', 'src/main.ts'],
  cwd: GATEWAY_DIR,
  env: {
    ...inherited,
    ...productionGatewayEnv({
      port,
      connection: { databaseUrl: url.toString() },
      jwt,
      logLevel: 'info',
      poolSize: 10,
    }),
    RATE_LIMIT_STORE: 'postgres',
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000000',
    RUN_WORKER: 'true',
  },
  port,
  logFile: path.join(RESULTS_DIR, `db-outage-${label}.log`),
});

const admin = new pg.Client({ connectionString: adminUrl, application_name: 'commerce_bench_outage_admin' });
await admin.connect();
try {
  await waitUntilHealthy(gateway);
  const token = await demoOwnerToken(jwt);
  const tenant = { 'x-organization-slug': 'demo' };
  const merchant = { ...tenant, authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const byStatus = new Map<string, number>();
  const count = (status: string) => byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const acknowledged: string[] = [];
  let running = true;
  let sequence = 0;
  const loop = async (step: () => Promise<void>) => {
    while (running) {
      try {
        await step();
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        count(`no answer (${cause?.code ?? (error as Error).name})`);
        await sleep(20);
      }
    }
  };
  const read = async () => {
    const response = await fetch(`${gateway.url}/api/v1/public/organization`, {
      headers: tenant,
      signal: AbortSignal.timeout(15_000),
    });
    await response.arrayBuffer();
    count(String(response.status));
  };
  const write = async () => {
    const response = await fetch(`${gateway.url}/api/v1/merchant/items`, {
      method: 'POST',
      headers: merchant,
      body: JSON.stringify({ slug: `outage-${++sequence}`, name: 'Outage', type: 'SALE', status: 'ACTIVE' }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json()) as { id?: string };
    count(String(response.status));
    if (response.status === 201 && body.id) acknowledged.push(body.id);
  };

  // /readyz every 50 ms: its answers over time.
  const readiness: Array<{ at: number; ready: boolean }> = [];
  const readinessLoop = (async () => {
    while (running) {
      const at = performance.now();
      const ready = await fetch(`${gateway.url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status === 200;
        },
        () => false,
      );
      readiness.push({ at, ready });
      await sleep(50);
    }
  })();

  const load = Promise.all([
    ...Array.from({ length: settings.readers }, () => loop(read)),
    ...Array.from({ length: settings.writers }, () => loop(write)),
  ]);
  const started = performance.now();
  await sleep(2_000);

  const outageEnds: number[] = [];
  let ended = 0;
  for (let outage = 0; outage < settings.outages; outage++) {
    const until = performance.now() + settings.outageMs;
    while (performance.now() < until) {
      const { rows } = await admin.query<{ ended: number }>(
        `select count(*)::int as ended from (select pg_terminate_backend(pid) from pg_stat_activity
           where datname = $1 and application_name = $2) terminated`,
        [databaseName, applicationName],
      );
      ended += rows[0]?.ended ?? 0;
      await sleep(50);
    }
    outageEnds.push(performance.now());
    await sleep(settings.betweenMs);
  }
  running = false;
  await Promise.all([load, readinessLoop]);
  const seconds = (performance.now() - started) / 1000;

  // After each outage: how long until /readyz said 200 (null: never did).
  const recovery = outageEnds.map((end) => {
    const first = readiness.find((sample) => sample.at >= end && sample.ready);
    return first ? Math.round(first.at - end) : null;
  });
  const alive = !gateway.exited;
  let stored: number | null = null;
  if (acknowledged.length > 0) {
    const check = new pg.Client({ connectionString: database.url });
    await check.connect();
    const { rows } = await check.query<{ stored: number }>(
      'select count(*)::int as stored from items where id = any($1)',
      [acknowledged],
    );
    stored = rows[0]?.stored ?? 0;
    await check.end();
  }
  const total = [...byStatus.values()].reduce((sum, value) => sum + value, 0);
  const result = {
    label,
    database: database.version,
    settings,
    seconds: Math.round(seconds * 10) / 10,
    connectionsEnded: ended,
    answers: Object.fromEntries([...byStatus.entries()].sort()),
    total,
    gatewayAlive: alive,
    gatewayExit: gateway.exitReason ?? null,
    readyAfterOutageMs: recovery,
    writesAcknowledged: acknowledged.length,
    writesStored: stored,
  };
  writeFileSync(path.join(RESULTS_DIR, `db-outage-${label}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `database outage under load (${label}): ${settings.outages} outages of ${settings.outageMs} ms`,
  );
  console.table(Object.entries(result.answers).map(([status, answers]) => ({ status, answers })));
  console.log(
    `gateway alive: ${alive}${alive ? '' : ` (${gateway.exitReason})`}; /readyz 200 after each outage (ms): ${JSON.stringify(recovery)}; ` +
      `writes acknowledged ${acknowledged.length}, stored ${stored}`,
  );
  if (!alive) console.log(logTail(gateway, 12));
} finally {
  await admin.end();
  await stopAll();
  await dropBenchDatabase(adminUrl, databaseName);
}
