/**
 * `pnpm --filter @commerce/bench bench:checkout` (or `npx tsx checkout.ts` in
 * bench/): the checkout sequence end to end. Builds the gateway, starts it on
 * PostgreSQL and on PGlite (demo organization, TAX_PROVIDER=sandbox, the
 * sandbox payment provider, TRUST_PROXY so that each simulated shopper has an
 * address of its own for the rate limits), creates a priced item with a
 * tracked variant and a shipping rate through the merchant API, then runs
 * BENCH_CONNECTIONS shoppers in a closed loop, each doing one checkout after
 * another:
 *
 *   1. POST /public/checkout/sessions                       (create)
 *   2. POST /public/checkout/sessions/{token}/reprice       (destination DE)
 *   3. POST /public/checkout/sessions/{token}/bind          (tax, stock reserved)
 *   4. POST /public/checkout/sessions/{token}/payment-session (order + intent)
 *   5. POST /webhooks/payments                              (signed payment_intent.succeeded)
 *
 * Prints checkouts per second, each step's p50 / p99, and any non-2xx; checks
 * afterwards that the variant's stock went down by exactly the number of paid
 * checkouts; writes results/checkout.json.
 *
 * Knobs (environment): BENCH_ENGINES (postgres,pglite), BENCH_CONNECTIONS (16),
 * BENCH_DURATION (10 s), BENCH_WARMUP (2 s), BENCH_POOL_SIZE (10),
 * BENCH_POSTGRES_URL (admin connection, postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_CHECKOUT_DATABASE (commerce_bench_checkout, dropped and recreated),
 * BENCH_LOG_LEVEL (the gateway's, warn), BENCH_OUTPUT (results/checkout.json).
 */
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  benchJwt,
  type Connection,
  callJson,
  demoOwnerToken,
  type Engine,
  enginesFromEnv,
  freshBenchDatabase,
  intEnv,
  productionGatewayEnv,
  type Reply,
} from './gateway-env.ts';
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

const STEPS = ['create', 'reprice', 'bind', 'payment-session', 'webhook'] as const;
type Step = (typeof STEPS)[number];

const settings = {
  engines: enginesFromEnv(),
  connections: intEnv('BENCH_CONNECTIONS', 16),
  durationSeconds: intEnv('BENCH_DURATION', 10),
  warmupSeconds: intEnv('BENCH_WARMUP', 2),
  poolSize: intEnv('BENCH_POOL_SIZE', 10),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_CHECKOUT_DATABASE ?? 'commerce_bench_checkout',
  gatewayLogLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/checkout.json'),
};

const jwt = benchJwt();
const webhookSecret = `whsec_bench_${randomBytes(16).toString('hex')}`;
const STOCK = 10_000_000;

const log = (line: string) => process.stdout.write(`${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

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
      webhookSecret,
    }),
    TRUST_PROXY: 'true',
    TAX_PROVIDER: 'sandbox',
    PAYMENT_PROVIDER: 'sandbox',
  };
}

const call = (url: string, body: unknown, headers: Record<string, string>) => callJson(url, body, headers);

/** A `Stripe-Signature` header for the body, signed as the payment processor signs it. */
function sign(body: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', webhookSecret).update(`${t}.${body}`).digest('hex')}`;
}

/** A `payment_intent.succeeded` for the payment session's own amount and currency (the webhook checks both). */
function succeededEvent(intentId: string, amountInCents: number, currency: string): string {
  return JSON.stringify({
    id: `evt_bench_${randomBytes(12).toString('hex')}`,
    object: 'event',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: intentId,
        object: 'payment_intent',
        amount: amountInCents,
        amount_received: amountInCents,
        currency: currency.toLowerCase(),
        metadata: {},
        status: 'succeeded',
      },
    },
  });
}

interface Catalog {
  itemId: string;
  variantId: string;
  merchant: Record<string, string>;
}

async function setUpCatalog(gateway: ServerProcess): Promise<Catalog> {
  const token = await demoOwnerToken(jwt);
  const merchant = { 'x-organization-slug': 'demo', authorization: `Bearer ${token}` };
  const api = `${gateway.url}/api/v1`;
  const created = async (what: string, reply: Promise<Reply>) => {
    const { status, body } = await reply;
    if (status !== 201) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
    return body as { id: string };
  };
  const item = await created(
    'item',
    call(
      `${api}/merchant/items`,
      { slug: `bench-lamp-${Date.now()}`, name: 'Lamp', type: 'SALE', status: 'ACTIVE', priceInCents: 4900 },
      merchant,
    ),
  );
  const variant = await created(
    'variant',
    call(
      `${api}/merchant/items/${item.id}/variants`,
      { name: 'Brass', priceInCents: 2500, inventoryQuantity: STOCK },
      merchant,
    ),
  );
  const zone = await created(
    'zone',
    call(`${api}/merchant/shipping/zones`, { name: 'Europe', countries: ['DE'] }, merchant),
  );
  await created(
    'rate',
    call(
      `${api}/merchant/shipping/zones/${zone.id}/rates`,
      { name: 'Standard', priceInCents: 500 },
      merchant,
    ),
  );
  return { itemId: item.id, variantId: variant.id, merchant };
}

interface RunStats {
  checkouts: number;
  /** The orders of the last few paid checkouts, read back afterwards. */
  paidOrderIds: string[];
  latencies: Record<Step, number[]>;
  failures: Record<string, number>;
}

/** One shopper's checkouts until `until`; every step's latency, every failure by step and status. */
async function shopper(
  gateway: ServerProcess,
  catalog: Catalog,
  until: number,
  stats: RunStats,
): Promise<void> {
  const api = `${gateway.url}/api/v1`;
  while (performance.now() < until) {
    // A new address per checkout: many shoppers, as the per-client rate limit sees them.
    const client = { 'x-forwarded-for': `10.${randomBytes(3).join('.')}` };
    const tenant = { ...client, 'x-organization-slug': 'demo' };
    const timed = async (step: Step, run: () => Promise<Reply>, expected: number): Promise<Reply | null> => {
      const started = performance.now();
      const reply = await run();
      stats.latencies[step].push(performance.now() - started);
      if (reply.status !== expected) {
        const key = `${step} ${reply.status} ${String((reply.body.error as { code?: string } | undefined)?.code ?? '')}`;
        stats.failures[key] = (stats.failures[key] ?? 0) + 1;
        return null;
      }
      return reply;
    };
    const session = await timed(
      'create',
      () =>
        call(
          `${api}/public/checkout/sessions`,
          {
            lines: [{ itemId: catalog.itemId, variantId: catalog.variantId, quantity: 1 }],
            email: 'shopper@example.com',
            customerName: 'Bench Shopper',
          },
          tenant,
        ),
      201,
    );
    if (!session) continue;
    const steps = `${api}/public/checkout/sessions/${String(session.body.checkoutToken)}`;
    if (!(await timed('reprice', () => call(`${steps}/reprice`, { shippingCountry: 'DE' }, tenant), 200)))
      continue;
    if (!(await timed('bind', () => call(`${steps}/bind`, {}, tenant), 200))) continue;
    const handoff = await timed('payment-session', () => call(`${steps}/payment-session`, {}, client), 200);
    if (!handoff) continue;
    const intentId = String(handoff.body.clientSecret).split('_secret_')[0]!;
    const event = succeededEvent(intentId, Number(handoff.body.amountInCents), String(handoff.body.currency));
    const settled = await timed(
      'webhook',
      () => call(`${api}/webhooks/payments`, event, { 'stripe-signature': sign(event) }),
      200,
    );
    if (settled) {
      stats.checkouts += 1;
      stats.paidOrderIds.push(String(handoff.body.orderId));
      if (stats.paidOrderIds.length > 20) stats.paidOrderIds.shift();
    }
  }
}

async function drive(gateway: ServerProcess, catalog: Catalog, seconds: number): Promise<RunStats> {
  const stats: RunStats = {
    checkouts: 0,
    paidOrderIds: [],
    latencies: Object.fromEntries(STEPS.map((step) => [step, [] as number[]])) as RunStats['latencies'],
    failures: {},
  };
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: settings.connections }, () => shopper(gateway, catalog, until, stats)),
  );
  return stats;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

interface EngineResult {
  engine: Engine;
  checkoutsPerSecond: number;
  checkouts: number;
  requestsPerSecond: number;
  cpuMicrosPerCheckout: number;
  /** The bare handler's CPU per public read on this machine and engine (yardstick.ts). */
  bareReadCpuMicros: number;
  steps: Record<Step, { count: number; p50: number; p99: number }>;
  failures: Record<string, number>;
  stockTaken: number;
  /** The last paid checkouts' orders read back through the merchant API: all PAID. */
  ordersReadPaid: number;
}

async function benchEngine(engine: Engine): Promise<EngineResult> {
  log(`\n== ${engine} ==`);
  const { connection, dispose } = await freshBenchDatabase(engine, {
    adminUrl: settings.postgresAdminUrl,
    database: settings.database,
    label: 'checkout',
  });
  const port = await freePort();
  const gateway = startServer({
    name: `gateway (${engine})`,
    args: [path.join(GATEWAY_DIR, 'dist/main.js')],
    cwd: ROOT,
    port,
    logFile: path.join(RESULTS_DIR, `${engine}-checkout-gateway.log.tmp`),
    env: gatewayEnv(port, connection),
  });
  try {
    await waitUntilHealthy(gateway);
    const catalog = await setUpCatalog(gateway);
    if (settings.warmupSeconds > 0) await drive(gateway, catalog, settings.warmupSeconds);
    const stockBefore = await stockOf(gateway, catalog);
    const cpuBefore = readCpuMs(gateway.pid);
    const started = performance.now();
    const stats = await drive(gateway, catalog, settings.durationSeconds);
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuMs = readCpuMs(gateway.pid) - cpuBefore;
    if (gateway.exited) throw new Error(`the gateway exited:\n${logTail(gateway)}`);
    const stockTaken = stockBefore - (await stockOf(gateway, catalog));
    const ordersReadPaid = await countPaid(gateway, catalog, stats.paidOrderIds);
    if (ordersReadPaid !== stats.paidOrderIds.length)
      throw new Error(
        `${stats.paidOrderIds.length - ordersReadPaid} settled checkouts left their order unpaid`,
      );
    // Every bound checkout took one unit and kept it (paid, or still awaiting payment when the run ended).
    if (stockTaken < stats.checkouts)
      throw new Error(`stock taken ${stockTaken} < paid checkouts ${stats.checkouts}`);
    const requests = STEPS.reduce((sum, step) => sum + stats.latencies[step].length, 0);
    const steps = Object.fromEntries(
      STEPS.map((step) => [
        step,
        {
          count: stats.latencies[step].length,
          p50: round2(percentile(stats.latencies[step], 50)),
          p99: round2(percentile(stats.latencies[step], 99)),
        },
      ]),
    ) as EngineResult['steps'];
    const yardstick = await measureYardstick(connection.databaseUrl);
    const result: EngineResult = {
      engine,
      checkoutsPerSecond: round2(stats.checkouts / wallSeconds),
      checkouts: stats.checkouts,
      requestsPerSecond: Math.round(requests / wallSeconds),
      cpuMicrosPerCheckout: stats.checkouts > 0 ? Math.round((cpuMs * 1000) / stats.checkouts) : 0,
      bareReadCpuMicros: yardstick.bareReadCpuMicros,
      steps,
      failures: stats.failures,
      stockTaken,
      ordersReadPaid,
    };
    log(
      `${result.checkoutsPerSecond} checkouts/s (${result.checkouts} in ${settings.durationSeconds} s, ${result.requestsPerSecond} req/s, ${result.cpuMicrosPerCheckout} µs gateway CPU per checkout); stock taken ${stockTaken}; the last ${ordersReadPaid} orders read back PAID`,
    );
    log(`  gateway CPU per checkout = ${inBareReads(result.cpuMicrosPerCheckout, yardstick)}`);
    for (const step of STEPS)
      log(
        `  ${step.padEnd(16)} ${String(steps[step].count).padStart(6)}  p50 ${steps[step].p50} ms  p99 ${steps[step].p99} ms`,
      );
    if (Object.keys(stats.failures).length > 0) log(`  failures: ${JSON.stringify(stats.failures)}`);
    return result;
  } finally {
    await gateway.stop();
    await dispose();
  }
}

async function countPaid(gateway: ServerProcess, catalog: Catalog, orderIds: string[]): Promise<number> {
  let paid = 0;
  for (const id of orderIds) {
    const response = await fetch(`${gateway.url}/api/v1/merchant/orders/${id}`, {
      headers: catalog.merchant,
    });
    const body = (await response.json()) as { paymentStatus?: string };
    if (body.paymentStatus === 'PAID') paid += 1;
  }
  return paid;
}

async function stockOf(gateway: ServerProcess, catalog: Catalog): Promise<number> {
  const response = await fetch(
    `${gateway.url}/api/v1/merchant/items/${catalog.itemId}/variants/${catalog.variantId}`,
    { headers: catalog.merchant },
  );
  const body = (await response.json()) as { inventoryQuantity: number };
  return body.inventoryQuantity;
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  log(
    `machine: ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `${settings.connections} shoppers, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured; pool size ${settings.poolSize}`,
  );
  const engines: EngineResult[] = [];
  for (const engine of settings.engines) engines.push(await benchEngine(engine));
  writeFileSync(
    settings.output,
    `${JSON.stringify({ startedAt: new Date().toISOString(), settings, engines }, null, 2)}\n`,
  );
  log(`\nwrote ${path.relative(ROOT, settings.output)}`);
}

runBench(main);
