/**
 * `npx -y pnpm@10.34.8 --filter @commerce/bench bench:fulfillment`: direct
 * fulfillments through HTTP on PostgreSQL (docs/fulfillment.md "Fulfillment
 * records"). Builds the gateway, starts it (demo organization, TRUST_PROXY so that
 * each placed order comes from an address of its own), creates through the
 * merchant API an item with a tracked variant, places BENCH_ORDERS legacy
 * orders of 2 units each (plus BENCH_WARMUP_ORDERS), then:
 *
 *   1. fulfils every order whole with `POST /merchant/commerce/orders/{id}/fulfillments`
 *      (each with its own idempotency key, the customer notified: ORDER_SHIPPED
 *      queued) from BENCH_CONNECTIONS clients in a closed loop: fulfillments
 *      per second, p50/p95/p99, the gateway's CPU per fulfillment;
 *   2. the hot line: one order of BENCH_HOT_UNITS units, BENCH_HOT_ATTEMPTS
 *      fulfillments of 1 unit each from the same clients at once: exactly
 *      BENCH_HOT_UNITS answer 201 and the rest 409 OVER_FULFILLMENT (p99 too).
 *
 * Then reads back: the variant's stock went down by exactly the units shipped,
 * the hot line's shippedQuantity equals its quantity, and sampled orders are
 * FULFILLED; any difference fails the run. Writes results/fulfillment.json.
 *
 * Knobs (environment): BENCH_CONNECTIONS (20), BENCH_ORDERS (1,000),
 * BENCH_WARMUP_ORDERS (50), BENCH_HOT_UNITS (100), BENCH_HOT_ATTEMPTS (300),
 * BENCH_POOL_SIZE (10), BENCH_POSTGRES_URL (admin connection,
 * postgres://postgres@127.0.0.1:5432/postgres), BENCH_FULFILLMENT_DATABASE
 * (commerce_bench_fulfillment, dropped and recreated), BENCH_LOG_LEVEL (warn),
 * BENCH_OUTPUT (results/fulfillment.json), BENCH_CPU_PROFILE (1: the gateway runs with
 * --cpu-prof into results/cpu-profiles.tmp).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  benchJwt,
  callJson,
  demoOwnerToken,
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

const settings = {
  connections: intEnv('BENCH_CONNECTIONS', 20),
  orders: intEnv('BENCH_ORDERS', 1000),
  warmupOrders: intEnv('BENCH_WARMUP_ORDERS', 50),
  hotUnits: intEnv('BENCH_HOT_UNITS', 100),
  hotAttempts: intEnv('BENCH_HOT_ATTEMPTS', 300),
  poolSize: intEnv('BENCH_POOL_SIZE', 10),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_FULFILLMENT_DATABASE ?? 'commerce_bench_fulfillment',
  gatewayLogLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/fulfillment.json'),
};

const jwt = benchJwt();
const STOCK = 10_000_000;
const UNITS_PER_ORDER = 2;
const log = (line: string) => process.stdout.write(`${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

interface Shop {
  api: string;
  merchant: Record<string, string>;
  itemId: string;
  variantId: string;
}

interface PlacedOrder {
  id: string;
  lineId: string;
}

async function expectStatus(what: string, reply: Promise<Reply>, status: number) {
  const answer = await reply;
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function setUpShop(gateway: ServerProcess): Promise<Shop> {
  const api = `${gateway.url}/api/v1`;
  const merchant = { 'x-organization-slug': 'demo', authorization: `Bearer ${await demoOwnerToken(jwt)}` };
  const item = await expectStatus(
    'item',
    callJson(
      `${api}/merchant/items`,
      {
        slug: `bench-crate-${Date.now()}`,
        name: 'Crate',
        type: 'SALE',
        status: 'ACTIVE',
        priceInCents: 1900,
      },
      merchant,
    ),
    201,
  );
  const variant = await expectStatus(
    'variant',
    callJson(
      `${api}/merchant/items/${item.id}/variants`,
      { name: 'Oak', priceInCents: 1900, inventoryQuantity: STOCK },
      merchant,
    ),
    201,
  );
  return { api, merchant, itemId: String(item.id), variantId: String(variant.id) };
}

/** A legacy order of `quantity` units of the variant, placed from an address of its own. */
async function placeOrder(shop: Shop, quantity: number): Promise<PlacedOrder> {
  const body = await expectStatus(
    'order',
    callJson(
      `${shop.api}/public/orders`,
      {
        customerName: 'Bench Customer',
        customerEmail: 'customer@example.com',
        items: [
          { itemId: shop.itemId, variantId: shop.variantId, name: 'Crate', quantity, unitPriceInCents: 1900 },
        ],
      },
      { 'x-organization-slug': 'demo', 'x-forwarded-for': `10.${randomBytes(3).join('.')}` },
    ),
    201,
  );
  const [line] = body.items as { id: string }[];
  return { id: String(body.id), lineId: line!.id };
}

/** Runs `work` over `inputs` from `concurrency` clients in a closed loop, in order of the inputs. */
async function closedLoop<T, R>(
  inputs: T[],
  concurrency: number,
  work: (input: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(inputs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, inputs.length) }, async () => {
      while (next < inputs.length) {
        const index = next++;
        results[index] = await work(inputs[index]!);
      }
    }),
  );
  return results;
}

interface Attempt {
  status: number;
  code: string | null;
  ms: number;
}

async function fulfil(shop: Shop, order: PlacedOrder, quantity: number): Promise<Attempt> {
  const started = performance.now();
  const reply = await callJson(
    `${shop.api}/merchant/commerce/orders/${order.id}/fulfillments`,
    { lines: [{ lineId: order.lineId, quantity }], notifyCustomer: true },
    { ...shop.merchant, 'x-idempotency-key': `bench-ful-${randomBytes(12).toString('hex')}` },
  );
  const code = (reply.body.error as { code?: string } | undefined)?.code ?? null;
  return { status: reply.status, code, ms: performance.now() - started };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function summarize(attempts: Attempt[], seconds: number) {
  const sorted = attempts.map((attempt) => attempt.ms).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const { status, code } of attempts) {
    const key = code ? `${status} ${code}` : String(status);
    statuses[key] = (statuses[key] ?? 0) + 1;
  }
  return {
    attempts: attempts.length,
    perSecond: round2(attempts.length / seconds),
    p50Ms: round2(percentile(sorted, 50)),
    p95Ms: round2(percentile(sorted, 95)),
    p99Ms: round2(percentile(sorted, 99)),
    statuses,
  };
}

async function readJson(shop: Shop, url: string): Promise<Record<string, unknown>> {
  return expectStatus('read', callJson(url, undefined, shop.merchant, 'GET'), 200);
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  log(
    `machine: ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `${settings.orders} orders at ${settings.connections} connections, pool size ${settings.poolSize}`,
  );
  const { connection, dispose } = await freshBenchDatabase('postgres', {
    adminUrl: settings.postgresAdminUrl,
    database: settings.database,
    label: 'fulfillment',
  });
  const port = await freePort();
  const gateway = startServer({
    name: 'gateway',
    args: [
      ...(process.env.BENCH_CPU_PROFILE === '1'
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${path.join(RESULTS_DIR, 'cpu-profiles.tmp')}`,
            `--cpu-prof-name=fulfillment-gateway-${Date.now()}.cpuprofile`,
          ]
        : []),
      path.join(GATEWAY_DIR, 'dist/main.js'),
    ],
    cwd: ROOT,
    port,
    logFile: path.join(RESULTS_DIR, 'fulfillment-gateway.log.tmp'),
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
      TRUST_PROXY: 'true',
    },
  });
  try {
    await waitUntilHealthy(gateway);
    const shop = await setUpShop(gateway);
    const orders = await closedLoop(Array.from({ length: settings.warmupOrders + settings.orders }), 16, () =>
      placeOrder(shop, UNITS_PER_ORDER),
    );
    const hotOrder = await placeOrder(shop, settings.hotUnits);
    const variantUrl = `${shop.api}/merchant/items/${shop.itemId}/variants/${shop.variantId}`;
    const stockBefore = Number((await readJson(shop, variantUrl)).inventoryQuantity);
    log(`placed ${orders.length + 1} orders`);

    const warmup = await closedLoop(orders.slice(0, settings.warmupOrders), settings.connections, (order) =>
      fulfil(shop, order, UNITS_PER_ORDER),
    );
    const cpuBefore = readCpuMs(gateway.pid);
    let started = performance.now();
    const measured = await closedLoop(orders.slice(settings.warmupOrders), settings.connections, (order) =>
      fulfil(shop, order, UNITS_PER_ORDER),
    );
    const direct = {
      ...summarize(measured, (performance.now() - started) / 1000),
      gatewayCpuMicrosPerFulfillment: Math.round(
        ((readCpuMs(gateway.pid) - cpuBefore) * 1000) / measured.length,
      ),
    };
    log(
      `direct: ${direct.attempts} fulfillments, ${direct.perSecond}/s, ${direct.gatewayCpuMicrosPerFulfillment} µs gateway CPU each; ` +
        `p50 ${direct.p50Ms} ms, p95 ${direct.p95Ms} ms, p99 ${direct.p99Ms} ms; ${JSON.stringify(direct.statuses)}`,
    );
    const yardstick = await measureYardstick(connection.databaseUrl);
    Object.assign(direct, { bareReadCpuMicros: yardstick.bareReadCpuMicros });
    log(`  gateway CPU per fulfillment = ${inBareReads(direct.gatewayCpuMicrosPerFulfillment, yardstick)}`);

    started = performance.now();
    const hotAttempts = await closedLoop(
      Array.from({ length: settings.hotAttempts }),
      settings.connections,
      () => fulfil(shop, hotOrder, 1),
    );
    const hot = summarize(hotAttempts, (performance.now() - started) / 1000);
    log(
      `hot line: ${hot.attempts} attempts of 1 unit on a line of ${settings.hotUnits}: ${JSON.stringify(hot.statuses)}; ` +
        `p50 ${hot.p50Ms} ms, p95 ${hot.p95Ms} ms, p99 ${hot.p99Ms} ms`,
    );
    if (gateway.exited) throw new Error(`the gateway exited:\n${logTail(gateway)}`);

    // Read back: every unit shipped once, never more.
    const shippedDirect = [...warmup, ...measured].filter((attempt) => attempt.status === 201).length;
    const shippedHot = hotAttempts.filter((attempt) => attempt.status === 201).length;
    const stockTaken = stockBefore - Number((await readJson(shop, variantUrl)).inventoryQuantity);
    const hotRead = await readJson(shop, `${shop.api}/merchant/orders/${hotOrder.id}`);
    const hotLine = (hotRead.items as { id: string; shippedQuantity: number }[])[0]!;
    const samples = await Promise.all(
      orders.slice(-5).map((order) => readJson(shop, `${shop.api}/merchant/orders/${order.id}`)),
    );
    const check = {
      shippedDirect,
      shippedHot,
      stockTaken,
      expectedStockTaken: shippedDirect * UNITS_PER_ORDER + shippedHot,
      hotLineShipped: hotLine.shippedQuantity,
      sampledFulfilled: samples.filter((order) => order.fulfillmentStatus === 'FULFILLED').length,
    };
    log(`check: ${JSON.stringify(check)}`);
    const failures = [
      shippedDirect !== orders.length && `${orders.length - shippedDirect} direct fulfillments failed`,
      shippedHot !== settings.hotUnits && `the hot line shipped ${shippedHot} of ${settings.hotUnits}`,
      hot.statuses['409 OVER_FULFILLMENT'] !== settings.hotAttempts - settings.hotUnits &&
        'the hot line refused other than OVER_FULFILLMENT',
      check.stockTaken !== check.expectedStockTaken &&
        'the stock moved by another amount than the units shipped',
      check.hotLineShipped !== settings.hotUnits && 'the hot line reads another shipped quantity',
      check.sampledFulfilled !== samples.length && 'a sampled order is not FULFILLED',
    ].filter(Boolean);
    writeFileSync(
      settings.output,
      `${JSON.stringify({ startedAt: new Date().toISOString(), settings, direct, hot, check, failures }, null, 2)}\n`,
    );
    log(`wrote ${path.relative(ROOT, settings.output)}`);
    if (failures.length > 0) throw new Error(failures.join('; '));
  } finally {
    await gateway.stop();
    await dispose();
  }
}

runBench(main);
