/**
 * `pnpm bench`: builds the gateway, starts it on PostgreSQL and on the
 * embedded PGlite, and drives three routes with autocannon, each alternating
 * with the same route on a bare Hono server (bare-server.ts, the ceiling) in this
 * same invocation. Prints the tables and writes results/latest.json.
 *
 * Knobs (environment): BENCH_ENGINES (postgres,pglite), BENCH_CONNECTIONS (32),
 * BENCH_DURATION (10 s), BENCH_WARMUP (2 s), BENCH_ROUNDS (5: slices each server's duration is
 * split in, alternating with the other's), BENCH_POOL_SIZE (10),
 * BENCH_POSTGRES_URL (admin connection, postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_DATABASE (commerce_bench), BENCH_LOG_LEVEL (the gateway's, info),
 * BENCH_CPU_PROFILE (1: the gateway runs with --cpu-prof into results/cpu-profiles.tmp),
 * BENCH_SCENARIOS (healthz,public,merchant), BENCH_SOAK (0: that many more public-read runs
 * on the gateway at the end, RSS after each), BENCH_OUTPUT (results/latest.json).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintDevToken } from '@commerce/auth';
import { benchJwt, type Engine, enginesFromEnv, intEnv, productionGatewayEnv } from './gateway-env.ts';
import { type LoadResult, type LoadTarget, measure, measureAlternating } from './load.ts';
import { BENCH_DIR, GATEWAY_DIR, RESULTS_DIR, ROOT } from './paths.ts';
import { dropBenchDatabase, recreateBenchDatabase } from './postgres.ts';
import {
  freePort,
  loggedAfterMs,
  logTail,
  type Memory,
  readCpuMs,
  readMemory,
  type ServerProcess,
  sampleRss,
  startBareServer,
  startServer,
  stopAll,
  waitUntilHealthy,
} from './processes.ts';

type ScenarioId = 'healthz' | 'public' | 'item' | 'merchant';

interface Scenario {
  id: ScenarioId;
  label: string;
  path: string;
  headers: Record<string, string>;
}

interface ScenarioResult {
  scenario: ScenarioId;
  label: string;
  path: string;
  bare: LoadResult;
  gateway: LoadResult;
  /** Gateway req/s over bare req/s. */
  ratio: number;
}

interface EngineResult {
  engine: Engine;
  database: string;
  coldStartMs: {
    freshData: number;
    existingData: number;
    /** When the gateway logged "gateway listening" (its clock against ours; ±1 ms). */
    listeningFreshData: number | undefined;
    listeningExistingData: number | undefined;
    bare: number;
  };
  scenarios: ScenarioResult[];
  /** The public read on the gateway again, right after the first: throughput and memory stay put. */
  publicRepeat: LoadResult | undefined;
  /** BENCH_SOAK more public-read runs on the gateway: req/s and RSS (KiB) after each. */
  soak: { requestsPerSecond: number; rssKb: number }[];
  memoryKb: {
    gateway: {
      idle: number;
      after: Partial<Record<ScenarioId | 'publicRepeat', number>>;
      maxUnderLoad: number;
      peak: number;
    };
    bare: { idle: number; after: number; peak: number };
  };
}

const settings = {
  scenarios: (process.env.BENCH_SCENARIOS ?? 'healthz,public,item,merchant')
    .split(',')
    .map((scenario) => scenario.trim())
    .filter(Boolean),
  engines: enginesFromEnv(),
  connections: intEnv('BENCH_CONNECTIONS', 32),
  durationSeconds: intEnv('BENCH_DURATION', 10),
  warmupSeconds: intEnv('BENCH_WARMUP', 2),
  rounds: Math.max(1, intEnv('BENCH_ROUNDS', 5)),
  poolSize: intEnv('BENCH_POOL_SIZE', 10),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_DATABASE ?? 'commerce_bench',
  gatewayLogLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
  cpuProfile: process.env.BENCH_CPU_PROFILE === '1',
  soakRuns: intEnv('BENCH_SOAK', 0),
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/latest.json'),
  publicReadsPerMinute: 100_000_000,
};
if (!/^[a-z_][a-z0-9_]*$/.test(settings.database))
  throw new Error('BENCH_DATABASE must be a plain identifier');

// The gateway's token settings: its defaults for issuer and audience, a secret of this run.
const jwt = {
  ...benchJwt(),
  subject: 'bench|demo-owner',
  email: 'owner@demo.test',
};

// Configuration the gateway reads; none of the caller's values leak into a run.
const GATEWAY_KEYS = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATA_DIR',
  'DATABASE_POOL_SIZE',
  'HOSTED_CHECKOUT_URL',
  'MERCHANT_JWT_SECRET',
  'MERCHANT_JWKS_URL',
  'MERCHANT_JWT_ISSUER',
  'MERCHANT_JWT_AUDIENCE',
  'PLATFORM_ADMIN_TOKEN',
  'SMTP_URL',
  'EMAIL_FROM',
  'PAYMENT_PROVIDER',
  'PAYMENT_WEBHOOK_SECRET',
  'RATE_LIMIT_STORE',
  'RATE_LIMIT_PUBLIC_READS_PER_MINUTE',
  'MAX_BODY_BYTES',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'SEED_DEMO',
  'RUN_WORKER',
  'WORKER_POLL_MS',
  'SHUTDOWN_TIMEOUT_MS',
];

function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of GATEWAY_KEYS) delete env[key];
  // tsx runs this file through loader flags; the servers must not inherit them.
  delete env.NODE_OPTIONS;
  return env;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function buildGateway(): void {
  const started = performance.now();
  execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  if (!existsSync(path.join(GATEWAY_DIR, 'dist/main.js')))
    throw new Error('the gateway build wrote no dist/main.js');
  log(`built apps/gateway/dist/main.js in ${Math.round(performance.now() - started)} ms`);
}

async function startGateway(
  engine: Engine,
  connection: { databaseUrl?: string; dataDir?: string },
  label: 'fresh' | 'existing',
) {
  const port = await freePort();
  const args = [path.join(GATEWAY_DIR, 'dist/main.js')];
  if (settings.cpuProfile) {
    const dir = path.join(RESULTS_DIR, 'cpu-profiles.tmp');
    mkdirSync(dir, { recursive: true });
    args.unshift(
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      `--cpu-prof-name=${engine}-gateway-${Date.now()}.cpuprofile`,
    );
  }
  const server = startServer({
    name: `gateway (${engine})`,
    args,
    cwd: ROOT,
    port,
    logFile: path.join(RESULTS_DIR, `${engine}-gateway-${label}.log.tmp`),
    env: {
      ...baseEnv(),
      ...productionGatewayEnv({
        port,
        connection,
        jwt,
        logLevel: settings.gatewayLogLevel,
        poolSize: settings.poolSize,
      }),
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: String(settings.publicReadsPerMinute),
    },
  });
  const coldStartMs = await waitUntilHealthy(server);
  const listening = loggedAfterMs(server, 'gateway listening');
  return {
    server,
    coldStartMs: round2(coldStartMs),
    listeningMs: listening === undefined ? undefined : Math.round(listening),
  };
}

async function startBare(engine: Engine, databaseUrl: string | undefined) {
  return startBareServer({
    name: `bare (${engine})`,
    logFile: path.join(RESULTS_DIR, `${engine}-bare.log.tmp`),
    env: {
      ...baseEnv(),
      ...(databaseUrl ? { BARE_DATABASE_URL: databaseUrl } : {}),
      BARE_POOL_SIZE: String(settings.poolSize),
      BARE_SUBJECT: jwt.subject,
      JWT_SECRET: jwt.secret,
      JWT_ISSUER: jwt.issuer,
      JWT_AUDIENCE: jwt.audience,
      RATE_LIMIT_PER_MINUTE: String(settings.publicReadsPerMinute),
    },
  });
}

/** The item of the item read: `bench-lamp`, active, with two variants, created through the merchant API. */
async function createBenchItem(
  gateway: ServerProcess,
  merchantHeaders: Record<string, string>,
): Promise<void> {
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${gateway.url}/api/v1${route}`, {
      method: 'POST',
      headers: { ...merchantHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { id: string };
    if (response.status !== 201)
      throw new Error(`POST ${route}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const item = await post('/merchant/items', {
    slug: ITEM_SLUG,
    name: 'Bench lamp',
    description: 'A lamp the bench reads.',
    tags: ['lighting', 'brass'],
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 4900,
  });
  for (const [index, name] of ['Brass', 'Copper'].entries()) {
    await post(`/merchant/items/${item.id}/variants`, {
      name,
      sku: `LAMP-${index + 1}`,
      priceInCents: 4900 + index * 500,
      inventoryQuantity: 100,
    });
  }
}

const ITEM_SLUG = 'bench-lamp';

async function getJson(
  server: ServerProcess,
  scenario: Scenario,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${scenario.path}`, { headers: scenario.headers });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Reported as text.
  }
  return { status: response.status, body };
}

/** JSON with object keys sorted, so two bodies compare by content. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** The shape of a body: its keys and value types, not its values. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]));
  }
  return value === null ? 'null' : typeof value;
}

/**
 * Both servers answer each route with 200 and the same body (on PostgreSQL
 * they read the same rows; PGlite's bare server has its own rows, so only the
 * shape is compared there).
 */
async function checkParity(
  engine: Engine,
  bare: ServerProcess,
  gateway: ServerProcess,
  scenarios: Scenario[],
) {
  for (const scenario of scenarios) {
    const [fromBare, fromGateway] = await Promise.all([getJson(bare, scenario), getJson(gateway, scenario)]);
    for (const [name, answer] of [
      ['bare', fromBare],
      ['gateway', fromGateway],
    ] as const) {
      if (answer.status !== 200) {
        throw new Error(
          `${engine}: ${name} answered ${scenario.path} with ${answer.status}: ${JSON.stringify(answer.body)}`,
        );
      }
    }
    const same =
      engine === 'postgres'
        ? canonical(fromBare.body) === canonical(fromGateway.body)
        : canonical(shape(fromBare.body)) === canonical(shape(fromGateway.body));
    if (!same) {
      throw new Error(
        `${engine}: bare and gateway bodies differ for ${scenario.path}:\n  bare:    ${JSON.stringify(fromBare.body)}\n  gateway: ${JSON.stringify(fromGateway.body)}`,
      );
    }
  }
}

/** Every response of a measured run must be a 2xx; anything else stops the bench. */
async function assertClean(server: ServerProcess, scenario: Scenario, result: LoadResult): Promise<void> {
  if (result.non2xx === 0 && result.errors === 0 && result.timeouts === 0) return;
  if (server.exited) {
    // Nothing in the bench stops a server during a run: something else on the machine did.
    throw new Error(
      `${server.name} exited (${server.exitReason}) during the ${scenario.label} run, ` +
        `after ${result.totalRequests} responses; its log ends:\n${logTail(server, 5)}`,
    );
  }
  const sample = await getJson(server, scenario).catch((error: unknown) => ({
    status: 0,
    body: String(error),
  }));
  throw new Error(
    `${server.name} ${scenario.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts ` +
      `(status codes ${JSON.stringify(result.statusCodes)}); a request now answers ${sample.status} ${JSON.stringify(sample.body)}`,
  );
}

function target(server: ServerProcess, scenario: Scenario): LoadTarget {
  return {
    options: {
      url: `${server.url}${scenario.path}`,
      headers: scenario.headers,
      connections: settings.connections,
      duration: settings.durationSeconds,
    },
    cpuMs: () => readCpuMs(server.pid),
  };
}

async function checkAndLog(
  server: ServerProcess,
  scenario: Scenario,
  result: LoadResult,
): Promise<LoadResult> {
  await assertClean(server, scenario, result);
  log(
    `  ${server.name.padEnd(20)} ${scenario.label.padEnd(20)} ${String(result.requestsPerSecond).padStart(7)} req/s` +
      `  p50 ${result.latency.p50.toFixed(2)} ms  p99 ${result.latency.p99.toFixed(2)} ms` +
      `  ${result.cpuMicrosPerRequest} µs CPU/req (${result.cpuCores} cores)`,
  );
  return result;
}

/** One server alone: warm-up, then BENCH_DURATION seconds. */
async function load(server: ServerProcess, scenario: Scenario): Promise<LoadResult> {
  const { options, cpuMs } = target(server, scenario);
  return checkAndLog(server, scenario, await measure(options, settings.warmupSeconds, cpuMs));
}

/**
 * The bare server and the gateway on the same route, in BENCH_ROUNDS alternating slices that add up
 * to BENCH_DURATION seconds each (see `measureAlternating`): the ratio compares the two under the
 * same machine conditions.
 */
async function loadPair(
  bare: ServerProcess,
  gateway: ServerProcess,
  scenario: Scenario,
): Promise<[LoadResult, LoadResult]> {
  const [fromBare, fromGateway] = await measureAlternating(
    [target(bare, scenario), target(gateway, scenario)],
    settings.warmupSeconds,
    settings.rounds,
  );
  return [await checkAndLog(bare, scenario, fromBare!), await checkAndLog(gateway, scenario, fromGateway!)];
}

async function benchEngine(engine: Engine, all: Scenario[], selected: Scenario[]): Promise<EngineResult> {
  let scenarios = selected;
  log(`\n== ${engine} ==`);
  let dataDir: string | undefined;
  let databaseUrl: string | undefined;
  let database: string;
  const started: ServerProcess[] = [];
  try {
    if (engine === 'postgres') {
      const created = await recreateBenchDatabase(settings.postgresAdminUrl, settings.database);
      database = created.version;
      databaseUrl = created.url;
    } else {
      const manifest = path.join(BENCH_DIR, 'node_modules/@electric-sql/pglite/package.json');
      const pglite = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
      database = `PGlite ${pglite.version}`;
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'commerce-bench-pglite-'));
    }
    const connection = { ...(databaseUrl ? { databaseUrl } : {}), ...(dataDir ? { dataDir } : {}) };

    // Cold start on an empty database (migrations and the demo seed run), then on the same data again.
    const fresh = await startGateway(engine, connection, 'fresh');
    await fresh.server.stop();
    const existing = await startGateway(engine, connection, 'existing');
    const gateway = existing.server;
    started.push(gateway);
    log(
      `cold start: fresh data ${fresh.coldStartMs} ms (listening at ${fresh.listeningMs} ms), ` +
        `existing data ${existing.coldStartMs} ms (listening at ${existing.listeningMs} ms)`,
    );

    // The first merchant request creates the user and binds the demo owner's pending membership.
    const merchant = all.find((scenario) => scenario.id === 'merchant')!;
    const first = await getJson(gateway, merchant);
    if (first.status !== 200)
      throw new Error(`first merchant request: ${first.status} ${JSON.stringify(first.body)}`);
    // The item read needs an item; PGlite's bare server has rows of its own (no items), so the
    // item read is measured on PostgreSQL only.
    if (engine === 'postgres' && scenarios.some((scenario) => scenario.id === 'item')) {
      await createBenchItem(gateway, merchant.headers);
    } else if (scenarios.some((scenario) => scenario.id === 'item')) {
      log('item read: measured on PostgreSQL only (the bare PGlite server holds no items)');
      scenarios = scenarios.filter((scenario) => scenario.id !== 'item');
    }

    const bare = await startBare(engine, databaseUrl);
    started.push(bare.server);
    await checkParity(engine, bare.server, gateway, scenarios);
    const gatewayIdle = readMemory(gateway.pid).rssKb;
    const bareIdle = readMemory(bare.server.pid).rssKb;

    const results: ScenarioResult[] = [];
    const after: EngineResult['memoryKb']['gateway']['after'] = {};
    let maxUnderLoad = gatewayIdle;
    const sampled = async <T>(work: () => Promise<T>): Promise<T> => {
      const sampler = sampleRss(gateway.pid);
      try {
        return await work();
      } finally {
        maxUnderLoad = Math.max(maxUnderLoad, sampler.stop());
      }
    };
    const loadGateway = (scenario: Scenario) => sampled(() => load(gateway, scenario));
    let publicRepeat: LoadResult | undefined;
    for (const scenario of scenarios) {
      const [fromBare, fromGateway] = await sampled(() => loadPair(bare.server, gateway, scenario));
      after[scenario.id] = readMemory(gateway.pid).rssKb;
      if (scenario.id === 'public') {
        // The same load once more: throughput and RSS should not move.
        publicRepeat = await loadGateway(scenario);
        after.publicRepeat = readMemory(gateway.pid).rssKb;
      }
      results.push({
        scenario: scenario.id,
        label: scenario.label,
        path: scenario.path,
        bare: fromBare,
        gateway: fromGateway,
        ratio: round2(fromGateway.requestsPerSecond / fromBare.requestsPerSecond),
      });
    }
    const soak: EngineResult['soak'] = [];
    const publicScenario = scenarios.find((scenario) => scenario.id === 'public');
    for (let run = 0; publicScenario && run < settings.soakRuns; run++) {
      const result = await loadGateway(publicScenario);
      soak.push({ requestsPerSecond: result.requestsPerSecond, rssKb: readMemory(gateway.pid).rssKb });
    }
    const gatewayMemory: Memory = readMemory(gateway.pid);
    const bareMemory: Memory = readMemory(bare.server.pid);

    return {
      engine,
      database,
      coldStartMs: {
        freshData: fresh.coldStartMs,
        existingData: existing.coldStartMs,
        listeningFreshData: fresh.listeningMs,
        listeningExistingData: existing.listeningMs,
        bare: bare.coldStartMs,
      },
      scenarios: results,
      publicRepeat,
      soak,
      memoryKb: {
        gateway: { idle: gatewayIdle, after, maxUnderLoad, peak: gatewayMemory.hwmKb },
        bare: { idle: bareIdle, after: bareMemory.rssKb, peak: bareMemory.hwmKb },
      },
    };
  } finally {
    for (const server of started) await server.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await dropBenchDatabase(settings.postgresAdminUrl, settings.database).catch(() => {});
  }
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => `${'-'.repeat(width + 1)}${column === 0 ? '-' : ':'}`).join('|')}|`;
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join('\n');
}

const ms = (value: number) => value.toFixed(2);
const mib = (kb: number) => (kb / 1024).toFixed(1);

function report(engine: EngineResult): string {
  const rows = engine.scenarios.map((row) => [
    row.label,
    row.bare.requestsPerSecond,
    row.gateway.requestsPerSecond,
    `${Math.round(row.ratio * 100)}%`,
    ms(row.bare.latency.p50),
    ms(row.bare.latency.p99),
    ms(row.gateway.latency.p50),
    ms(row.gateway.latency.p99),
    row.bare.cpuMicrosPerRequest,
    row.gateway.cpuMicrosPerRequest,
  ]);
  const repeat = engine.publicRepeat;
  const firstPublic = engine.scenarios.find((row) => row.scenario === 'public');
  if (repeat && firstPublic) {
    rows.splice(engine.scenarios.indexOf(firstPublic) + 1, 0, [
      'public read, again',
      '',
      repeat.requestsPerSecond,
      `${Math.round((repeat.requestsPerSecond / firstPublic.bare.requestsPerSecond) * 100)}%`,
      '',
      '',
      ms(repeat.latency.p50),
      ms(repeat.latency.p99),
      '',
      repeat.cpuMicrosPerRequest,
    ]);
  }
  const memory = engine.memoryKb.gateway;
  const memoryRows: [string, number | undefined][] = [
    ['idle, before load', memory.idle],
    ['after /healthz', memory.after.healthz],
    ['after public read', memory.after.public],
    ['after public read again', memory.after.publicRepeat],
    ['after merchant read', memory.after.merchant],
    ['largest sample under load', memory.maxUnderLoad],
    ['peak (VmHWM)', memory.peak],
  ];
  const { public: afterPublic, publicRepeat: afterRepeat } = memory.after;
  if (afterPublic !== undefined && afterRepeat !== undefined) {
    const growth = afterRepeat - afterPublic;
    memoryRows.push(['public → public again', growth]);
  }
  return [
    `${engine.engine}: ${engine.database} (latencies in ms; CPU = the server process's own, per request)`,
    table(
      [
        'scenario',
        'bare req/s',
        'gateway req/s',
        'ratio',
        'bare p50',
        'bare p99',
        'gw p50',
        'gw p99',
        'bare CPU µs/req',
        'gw CPU µs/req',
      ],
      rows,
    ),
    '',
    table(
      ['cold start (spawn → first 200 on /healthz)', 'ms'],
      [
        ['gateway, fresh data (migrations + seed)', ms(engine.coldStartMs.freshData)],
        [
          '  of which until "gateway listening" was logged',
          String(engine.coldStartMs.listeningFreshData ?? '?'),
        ],
        ['gateway, existing data', ms(engine.coldStartMs.existingData)],
        [
          '  of which until "gateway listening" was logged',
          String(engine.coldStartMs.listeningExistingData ?? '?'),
        ],
        ['bare server (tsx)', ms(engine.coldStartMs.bare)],
      ],
    ),
    '',
    table(
      ['gateway RSS', 'MiB'],
      memoryRows.flatMap(([label, kb]) =>
        kb === undefined ? [] : [[label, label.includes('→') && kb >= 0 ? `+${mib(kb)}` : mib(kb)]],
      ),
    ),
    `bare server RSS: ${mib(engine.memoryKb.bare.idle)} MiB idle, ${mib(engine.memoryKb.bare.after)} MiB after load`,
    ...(engine.soak.length > 0
      ? [
          `soak, public read on the gateway ${engine.soak.length} × ${settings.durationSeconds} s: ` +
            engine.soak.map((run) => `${run.requestsPerSecond} req/s → ${mib(run.rssKb)} MiB`).join(', '),
        ]
      : []),
  ].join('\n');
}

function verdicts(engines: EngineResult[]): string[] {
  const lines: string[] = [];
  const mark = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  for (const engine of engines) {
    for (const row of engine.scenarios.filter(
      (row) => row.scenario === 'public' || row.scenario === 'item',
    )) {
      const name = row.scenario === 'public' ? 'public read' : 'item read';
      lines.push(
        `${engine.engine}: ${name} at ${Math.round(row.ratio * 100)}% of bare (target ≥ 80%): ${mark(row.ratio >= 0.8)}`,
        `${engine.engine}: ${name} p99 ${ms(row.gateway.latency.p99)} ms at ${settings.connections} connections (target < 25 ms): ${mark(row.gateway.latency.p99 < 25)}`,
        `${engine.engine}: ${name} CPU per request: gateway ${row.gateway.cpuMicrosPerRequest} µs, bare ${row.bare.cpuMicrosPerRequest} µs`,
      );
    }
    const slowest = Math.max(engine.coldStartMs.freshData, engine.coldStartMs.existingData);
    lines.push(
      `${engine.engine}: cold start ≤ ${ms(slowest)} ms (target < 3000 ms): ${mark(slowest < 3000)}`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  mkdirSync(RESULTS_DIR, { recursive: true });
  buildGateway();

  const token = await mintDevToken({
    secret: jwt.secret,
    issuer: jwt.issuer,
    audience: jwt.audience,
    subject: jwt.subject,
    email: jwt.email,
    expiresInSeconds: 3600,
  });
  const all: Scenario[] = [
    { id: 'healthz', label: 'GET /healthz', path: '/healthz', headers: {} },
    {
      id: 'public',
      label: 'public tenant read',
      path: '/api/v1/public/organization',
      headers: { 'x-organization-slug': 'demo' },
    },
    {
      id: 'item',
      label: 'public item read',
      path: `/api/v1/public/items/${ITEM_SLUG}`,
      headers: { 'x-organization-slug': 'demo' },
    },
    {
      id: 'merchant',
      label: 'merchant read',
      path: '/api/v1/merchant/auth/memberships',
      headers: { authorization: `Bearer ${token}`, 'x-organization-slug': 'demo' },
    },
  ];

  const scenarios = all.filter((scenario) => settings.scenarios.includes(scenario.id));
  if (scenarios.length === 0)
    throw new Error('BENCH_SCENARIOS selects no scenario (healthz, public, item, merchant)');

  const machine = {
    cpus: os.availableParallelism(),
    nproc: execFileSync('nproc', { encoding: 'utf8' }).trim(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: round2(os.totalmem() / 2 ** 30),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
  log(
    `machine: ${machine.nproc} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}`,
  );
  log(
    `load: autocannon in the runner process, ${settings.connections} connections, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per run; ` +
      `pool size ${settings.poolSize}; gateway LOG_LEVEL=${settings.gatewayLogLevel}`,
  );

  // Other work on the machine takes CPU from both servers alike, but lowers every figure.
  const loadBefore = round2(os.loadavg()[0]!);
  if (loadBefore > 0.5) {
    log(`warning: the 1-minute load average is ${loadBefore} before the bench starts: figures may be low`);
  }
  const engines: EngineResult[] = [];
  for (const engine of settings.engines) engines.push(await benchEngine(engine, all, scenarios));

  log('');
  for (const engine of engines) log(`${report(engine)}\n`);
  for (const line of verdicts(engines)) log(line);

  const output = {
    generatedAt: startedAt.toISOString(),
    durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    machine: { ...machine, loadAverageBefore: loadBefore },
    settings: {
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
      poolSize: settings.poolSize,
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

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  process.stderr.write(`\nbench failed: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await stopAll();
}
