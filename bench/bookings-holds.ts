/**
 * `npx -y pnpm@10.34.8 --filter @commerce/bench bench:holds`: booking hold
 * attempts on one hot slot through TWO gateway processes sharing one
 * PostgreSQL (the capacity lock and trigger across processes).
 * Builds the gateway, starts both (the first migrates and seeds the demo
 * organization), creates through the merchant API one service over one
 * resource per scenario, then fires `POST /public/booking-holds` at the same
 * interval with autocannon, half the connections on each gateway:
 *
 *   - capacity 1: one attempt wins, every other is 409 CAPACITY_UNAVAILABLE;
 *   - capacity 1,000: the first 1,000 win (if the run reaches them).
 *
 * Every attempt has its own idempotency key, customer email and client
 * address: the gateways run with TRUST_PROXY=true and each request sends
 * `X-Forwarded-For: 10.a.b.c` from a counter, so neither the 10-active-holds
 * limit (per address, per email) nor the per-client request limit
 * (`public-checkout`, 300 per 10 minutes) shapes the result: the run measures
 * the claim path, not the limiters.
 *
 * Reports attempts/s, the gateways' CPU per attempt, the status counts,
 * p50/p95/p99 latency, then reads the
 * database with the capacity checker (bench/check-capacity.ts) and fails
 * unless each resource's peak is within its capacity and the 201 count equals
 * its live hold claims. Meanwhile BENCH_SEARCH_CLIENTS clients run 31-day
 * availability searches of the hot service (latency under the hold load);
 * after the capacity-1,000 scenario, BENCH_CONVERSIONS of the won holds are
 * converted (POST /public/booking-holds/:id/checkout) and capacity checked
 * again. Writes results/bookings-holds.json.
 *
 * Knobs (environment): BENCH_CONNECTIONS (64, split over the two gateways),
 * BENCH_ATTEMPTS (3,000 per scenario, every one answered before it is
 * counted), BENCH_WARMUP_ATTEMPTS (400, on a separate resource), BENCH_POOL_SIZE (10 connections per gateway), BENCH_POSTGRES_URL
 * (admin connection, postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_HOLDS_DATABASE (commerce_bench_holds, dropped and recreated),
 * BENCH_LOG_LEVEL (warn), BENCH_OUTPUT (results/bookings-holds.json), BENCH_CPU_PROFILE (1: each
 * gateway runs with --cpu-prof into results/cpu-profiles.tmp), BENCH_SEARCH_CLIENTS (2; 0 for
 * none), BENCH_CONVERSIONS (300; 0 for none), BENCH_CONVERSION_CONCURRENCY (16).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { checkDatabaseCapacity, formatCapacityReport } from './check-capacity.ts';
import { benchJwt, demoOwnerToken, freshBenchDatabase, intEnv, productionGatewayEnv } from './gateway-env.ts';
import { BENCH_DIR, GATEWAY_DIR, RESULTS_DIR, ROOT } from './paths.ts';
import {
  freePort,
  logTail,
  readCpuMs,
  runBench,
  type ServerProcess,
  startServer,
  waitUntilHealthy,
} from './processes.ts';
import { inBareReads, measureYardstick } from './yardstick.ts';

const settings = {
  connections: intEnv('BENCH_CONNECTIONS', 64),
  attempts: intEnv('BENCH_ATTEMPTS', 3000),
  warmupAttempts: intEnv('BENCH_WARMUP_ATTEMPTS', 400),
  searchClients: intEnv('BENCH_SEARCH_CLIENTS', 2),
  conversions: intEnv('BENCH_CONVERSIONS', 300),
  conversionConcurrency: intEnv('BENCH_CONVERSION_CONCURRENCY', 16),
  poolSize: intEnv('BENCH_POOL_SIZE', 10),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_HOLDS_DATABASE ?? 'commerce_bench_holds',
  gatewayLogLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/bookings-holds.json'),
};

const jwt = benchJwt();
const run = randomBytes(4).toString('hex');
const log = (line: string) => process.stdout.write(`${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Tomorrow 12:00 to 13:00 UTC: inside the all-day hours, never past the lead time. */
const slotStart = new Date(Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000 + 12 * 3_600_000);
const SLOT = {
  startsAt: slotStart.toISOString().replace('.000Z', 'Z'),
  endsAt: new Date(slotStart.getTime() + 3_600_000).toISOString().replace('.000Z', 'Z'),
};

async function post(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 201) throw new Error(`${url}: ${response.status} ${JSON.stringify(json)}`);
  return json as { id: string };
}

/** A resource of `capacity` and an ACTIVE service over it, open all day every day, 60 minutes. */
async function setUpService(gateway: ServerProcess, merchant: Record<string, string>, capacity: number) {
  const api = `${gateway.url}/api/v1`;
  const resource = await post(
    `${api}/merchant/booking-resources`,
    { name: `Boat ×${capacity}`, kind: 'VEHICLE', capacity },
    merchant,
  );
  const allDay = [{ start: '00:00', end: '24:00' }];
  const service = await post(
    `${api}/merchant/booking-services`,
    {
      slug: `bench-holds-${run}-${capacity}-${resource.id.slice(-6).toLowerCase()}`,
      name: `Bench holds ×${capacity}`,
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'UTC',
      durations: { choicesMinutes: [60] },
      availability: {
        weeklyHours: Object.fromEntries(
          ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => [day, allDay]),
        ),
      },
      requirements: [{ name: 'Boat', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 2500 },
    },
    merchant,
  );
  return { resourceId: resource.id, serviceId: service.id };
}

interface Tally {
  statuses: Record<string, number>;
  latencies: number[];
  /** The holds won, with the key and email that made them (a conversion needs both). */
  won: { id: string; key: string; email: string }[];
}

interface AttemptContext {
  key?: string;
  email?: string;
}

let attempts = 0;
/** A client address of its own per request (TRUST_PROXY): no per-client limit shapes a run. */
const clientAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
let probes = 1 << 20;

/** Latency percentiles, in ms, of unsorted samples. */
function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: round2(percentile(sorted, 50)),
    p95: round2(percentile(sorted, 95)),
    p99: round2(percentile(sorted, 99)),
    max: round2(sorted.at(-1) ?? 0),
  };
}

/**
 * 31-day availability searches of `serviceId`, `clients` at a time one after another, until
 * `until` settles: the search as a shopper sees it while the holds pour in.
 */
async function probeSearches(gateways: ServerProcess[], serviceId: string, until: Promise<unknown>) {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const from = new Date(slotStart.getTime() - 12 * 3_600_000);
  const body = JSON.stringify({
    serviceId,
    startsAt: from.toISOString().replace('.000Z', 'Z'),
    endsAt: new Date(from.getTime() + 31 * 86_400_000).toISOString().replace('.000Z', 'Z'),
    timezone: 'UTC',
    quantity: 1,
  });
  await Promise.all(
    Array.from({ length: settings.searchClients }, async (_, client) => {
      const gateway = gateways[client % gateways.length]!;
      while (!done) {
        probes += 1;
        const started = performance.now();
        const response = await fetch(`${gateway.url}/api/v1/public/booking-availability/search`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-organization-slug': 'demo',
            'x-forwarded-for': clientAddress(probes),
          },
          body,
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }),
  );
  return { ...summarize(latencies), statuses };
}

/** Converts `holds` (POST /public/booking-holds/:id/checkout with each hold's key), `concurrency` at a time. */
async function convertHolds(gateways: ServerProcess[], holds: Tally['won']) {
  const latencies: number[] = [];
  const flows: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: settings.conversionConcurrency }, async (_, client) => {
      const gateway = gateways[client % gateways.length]!;
      for (let index = next++; index < holds.length; index = next++) {
        const hold = holds[index]!;
        probes += 1;
        const began = performance.now();
        const response = await fetch(`${gateway.url}/api/v1/public/booking-holds/${hold.id}/checkout`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-organization-slug': 'demo',
            'x-idempotency-key': hold.key,
            'x-forwarded-for': clientAddress(probes),
          },
          body: JSON.stringify({ customerName: 'Bench Shopper', customerEmail: hold.email }),
        });
        const answer = (await response.json()) as { flow?: string; error?: { code?: string } };
        latencies.push(performance.now() - began);
        const label =
          response.status === 200 ? `200 ${answer.flow}` : `${response.status} ${answer.error?.code}`;
        flows[label] = (flows[label] ?? 0) + 1;
      }
    }),
  );
  const wallSeconds = (performance.now() - started) / 1000;
  return {
    ...summarize(latencies),
    perSecond: Math.round(holds.length / Math.max(wallSeconds, 0.001)),
    flows,
  };
}
/**
 * `amount` hold attempts on `serviceId`, `connections` and attempts split over the gateways; every
 * attempt is answered before it returns (a run cut by time would drop the answers in flight, and
 * their holds, from the count).
 */
async function fire(
  gateways: ServerProcess[],
  serviceId: string,
  amount: number,
): Promise<Tally & { wallSeconds: number }> {
  const tally: Tally = { statuses: {}, latencies: [], won: [] };
  const perGateway = Math.max(1, Math.floor(settings.connections / gateways.length));
  const started = performance.now();
  let lastAnswer = started;
  await Promise.all(
    gateways.map(
      (gateway) =>
        new Promise<void>((resolve, reject) => {
          const instance = autocannon(
            {
              url: gateway.url,
              connections: perGateway,
              amount: Math.max(perGateway, Math.floor(amount / gateways.length)),
              pipelining: 1,
              timeout: 30,
              requests: [
                {
                  method: 'POST',
                  path: '/api/v1/public/booking-holds',
                  setupRequest: (request, context: AttemptContext) => {
                    attempts += 1;
                    const n = attempts;
                    context.key = `bench-hold-${run}-${n}-key`;
                    context.email = `h${n}-${run}@bench.test`;
                    request.headers = {
                      'content-type': 'application/json',
                      'x-organization-slug': 'demo',
                      'x-idempotency-key': context.key,
                      'x-forwarded-for': clientAddress(n),
                    };
                    request.body = JSON.stringify({
                      serviceId,
                      ...SLOT,
                      quantity: 1,
                      customerEmail: context.email,
                    });
                    return request;
                  },
                  onResponse: (status, body, context: AttemptContext) => {
                    if (status === 201 && context.key && context.email) {
                      const { id } = JSON.parse(body) as { id: string };
                      tally.won.push({ id, key: context.key, email: context.email });
                    }
                    let label = String(status);
                    if (status !== 201) {
                      try {
                        label += ` ${(JSON.parse(body) as { error?: { code?: string } }).error?.code ?? ''}`;
                      } catch {
                        // Not JSON: the status alone.
                      }
                    }
                    tally.statuses[label] = (tally.statuses[label] ?? 0) + 1;
                  },
                },
              ],
            },
            (error) => (error ? reject(error) : resolve()),
          );
          instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
            tally.latencies.push(ms);
            lastAnswer = performance.now();
          });
        }),
    ),
  );
  // Until the last answer: autocannon reports `done` on its next one-second tick, which would
  // add up to a second to a run of ten.
  return { ...tally, wallSeconds: (lastAnswer - started) / 1000 };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  log(
    `machine: ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `2 gateways on PostgreSQL, ${settings.connections} connections, ${settings.attempts} attempts per scenario; pool ${settings.poolSize} per gateway`,
  );
  const { connection, dispose } = await freshBenchDatabase('postgres', {
    adminUrl: settings.postgresAdminUrl,
    database: settings.database,
    label: 'holds',
  });
  const databaseUrl = connection.databaseUrl!;
  const gateways: ServerProcess[] = [];
  try {
    for (const index of [1, 2]) {
      const port = await freePort();
      const gateway = startServer({
        name: `gateway ${index}`,
        args: [
          ...(process.env.BENCH_CPU_PROFILE === '1'
            ? [
                '--cpu-prof',
                `--cpu-prof-dir=${path.join(RESULTS_DIR, 'cpu-profiles.tmp')}`,
                `--cpu-prof-name=holds-gateway-${index}-${Date.now()}.cpuprofile`,
              ]
            : []),
          path.join(GATEWAY_DIR, 'dist/main.js'),
        ],
        cwd: ROOT,
        port,
        logFile: path.join(RESULTS_DIR, `holds-gateway-${index}.log.tmp`),
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...productionGatewayEnv({
            port,
            connection,
            jwt,
            logLevel: settings.gatewayLogLevel,
            poolSize: settings.poolSize,
          }),
          // The first migrates and seeds; the second starts on the migrated database.
          SEED_DEMO: index === 1 ? 'true' : 'false',
          TRUST_PROXY: 'true',
        },
      });
      gateways.push(gateway);
      await waitUntilHealthy(gateway);
    }
    const token = await demoOwnerToken(jwt);
    const merchant = { 'x-organization-slug': 'demo', authorization: `Bearer ${token}` };
    const primary = gateways[0]!;

    if (settings.warmupAttempts > 0) {
      const warm = await setUpService(primary, merchant, 10_000);
      await fire(gateways, warm.serviceId, settings.warmupAttempts);
    }

    const scenarios = [];
    for (const capacity of [1, 1000]) {
      const { resourceId, serviceId } = await setUpService(primary, merchant, capacity);
      const cpuBefore = gateways.reduce((sum, gateway) => sum + readCpuMs(gateway.pid), 0);
      const firing = fire(gateways, serviceId, settings.attempts);
      const searching = probeSearches(gateways, serviceId, firing);
      const tally = await firing;
      const searchUnderLoad = await searching;
      const cpuMs = gateways.reduce((sum, gateway) => sum + readCpuMs(gateway.pid), 0) - cpuBefore;
      for (const gateway of gateways)
        if (gateway.exited) throw new Error(`${gateway.name} exited:\n${logTail(gateway)}`);
      const sorted = tally.latencies.sort((a, b) => a - b);
      const total = Object.values(tally.statuses).reduce((sum, count) => sum + count, 0);
      const created = tally.statuses['201'] ?? 0;
      const report = await checkDatabaseCapacity(databaseUrl);
      const row = report.resources.find((resource) => resource.resourceId === resourceId);
      const liveClaims = row?.liveClaims ?? 0;
      const scenario = {
        capacity,
        attempts: total,
        attemptsPerSecond: Math.round(total / tally.wallSeconds),
        /** Both gateways' CPU time (user + system) per attempt: PostgreSQL's own work is not in it. */
        gatewayCpuMicrosPerAttempt: total > 0 ? Math.round((cpuMs * 1000) / total) : 0,
        statuses: tally.statuses,
        latencyMs: {
          p50: round2(percentile(sorted, 50)),
          p95: round2(percentile(sorted, 95)),
          p99: round2(percentile(sorted, 99)),
          max: round2(sorted.at(-1) ?? 0),
        },
        searchUnderLoad,
        check: {
          peak: row?.peak ?? 0,
          capacity: row?.capacity ?? capacity,
          liveClaims,
          invariantHolds: report.ok,
        },
      };
      scenarios.push(scenario);
      log(`\n== capacity ${capacity} ==`);
      log(
        `${scenario.attempts} attempts in ${round2(tally.wallSeconds)} s: ${scenario.attemptsPerSecond} attempts/s, ${scenario.gatewayCpuMicrosPerAttempt} µs gateway CPU per attempt; ` +
          `p50 ${scenario.latencyMs.p50} ms, p95 ${scenario.latencyMs.p95} ms, p99 ${scenario.latencyMs.p99} ms, max ${scenario.latencyMs.max} ms`,
      );
      log(`statuses: ${JSON.stringify(tally.statuses)}`);
      const yardstick = await measureYardstick(databaseUrl);
      Object.assign(scenario, { bareReadCpuMicros: yardstick.bareReadCpuMicros });
      log(`gateway CPU per attempt = ${inBareReads(scenario.gatewayCpuMicrosPerAttempt, yardstick)}`);
      log(
        `31-day search meanwhile (${settings.searchClients} clients): ${searchUnderLoad.count} searches, p50 ${searchUnderLoad.p50} ms, p95 ${searchUnderLoad.p95} ms, p99 ${searchUnderLoad.p99} ms; ${JSON.stringify(searchUnderLoad.statuses)}`,
      );
      for (const line of formatCapacityReport(report)) log(line);
      if (!report.ok) throw new Error('the capacity invariant is violated');
      if (created !== liveClaims)
        throw new Error(
          `201 count ${created} differs from the live hold claims ${liveClaims} of ${resourceId}`,
        );
      if ((row?.peak ?? 0) > capacity) throw new Error(`peak ${row?.peak} over capacity ${capacity}`);
      log(
        `check: 201 count ${created} == live hold claims ${liveClaims}; peak ${row?.peak ?? 0} <= capacity ${capacity}`,
      );
      if (capacity > 1 && settings.conversions > 0) {
        const conversion = await convertHolds(gateways, tally.won.slice(0, settings.conversions));
        const after = await checkDatabaseCapacity(databaseUrl);
        log(
          `conversion of ${conversion.count} holds (${settings.conversionConcurrency} at a time): ${conversion.perSecond}/s, p50 ${conversion.p50} ms, p95 ${conversion.p95} ms, p99 ${conversion.p99} ms; ${JSON.stringify(conversion.flows)}`,
        );
        for (const line of formatCapacityReport(after)) log(line);
        if (!after.ok) throw new Error('the capacity invariant is violated after the conversions');
        Object.assign(scenario, { conversion });
      }
    }
    writeFileSync(
      settings.output,
      `${JSON.stringify({ startedAt: new Date().toISOString(), settings, slot: SLOT, scenarios }, null, 2)}\n`,
    );
    log(`\nwrote ${path.relative(ROOT, settings.output)}`);
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await dispose();
  }
}

runBench(main);
