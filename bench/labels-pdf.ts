/**
 * `npx -y pnpm@10.34.8 --filter @commerce/bench bench:labels-pdf`: the labels
 * PDF batch (docs/fulfillment.md "Warehouse outputs") through HTTP on PostgreSQL.
 * Builds the gateway, starts it as in production (demo organization), creates
 * through the merchant API BENCH_LABELS orders (default 50, the batch's
 * maximum) with a ship-to address and a planned fulfillment each, then gives
 * each fulfillment native ACTIVE postage and a stored sandbox label (one
 * 4 x 6 in page, as the sandbox carrier renders it) directly in the database:
 * the label purchase flow is not what is measured. Then, after
 * BENCH_WARMUP batches, BENCH_ITERATIONS sequential
 * `POST /merchant/shipping/warehouse-outputs/labels-pdf` of all the
 * fulfillments: p50/p95/p99 to the last byte, the gateway's CPU per batch,
 * and its peak resident memory (VmHWM since start, and the largest RSS
 * sample during the batches). Every answer must be a 200 PDF; the first and
 * last are parsed and must hold BENCH_LABELS pages. Writes
 * results/labels-pdf.json; the run fails when p99 is over BENCH_P99_BUDGET_MS (400).
 *
 * Knobs (environment): BENCH_LABELS (50), BENCH_ITERATIONS (200),
 * BENCH_WARMUP (20), BENCH_P99_BUDGET_MS (400), BENCH_POSTGRES_URL (admin
 * connection, postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_LABELS_DATABASE (commerce_bench_labels, dropped and recreated),
 * BENCH_LOG_LEVEL (warn), BENCH_OUTPUT (results/labels-pdf.json).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DatabaseHandle, openDatabase } from '@commerce/db';
import { labelPdf, pdfPageCount, seedLabel } from '@commerce/fulfillment/testing';
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
  readMemory,
  runBench,
  sampleRss,
  startServer,
  waitUntilHealthy,
} from './processes.ts';

const settings = {
  labels: intEnv('BENCH_LABELS', 50),
  iterations: intEnv('BENCH_ITERATIONS', 200),
  warmup: intEnv('BENCH_WARMUP', 20),
  p99BudgetMs: intEnv('BENCH_P99_BUDGET_MS', 400),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_LABELS_DATABASE ?? 'commerce_bench_labels',
  gatewayLogLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/labels-pdf.json'),
};

const jwt = benchJwt();
const log = (line: string) => process.stdout.write(`${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function expectStatus(what: string, reply: Promise<Reply>, status: number) {
  const answer = await reply;
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** BENCH_LABELS planned fulfillments of orders with a ship-to address, through the merchant API. */
async function plannedFulfillments(api: string, merchant: Record<string, string>): Promise<string[]> {
  const item = await expectStatus(
    'item',
    callJson(
      `${api}/merchant/items`,
      {
        slug: `bench-label-${Date.now()}`,
        name: 'Parcel',
        type: 'SALE',
        status: 'ACTIVE',
        priceInCents: 900,
      },
      merchant,
    ),
    201,
  );
  const ids: string[] = [];
  for (let index = 0; index < settings.labels; index += 1) {
    const order = await expectStatus(
      'order',
      callJson(
        `${api}/public/orders`,
        {
          customerName: `Bench Customer ${index}`,
          customerEmail: 'customer@example.com',
          items: [{ itemId: item.id, variantId: null, name: 'Parcel', quantity: 1, unitPriceInCents: 900 }],
        },
        { 'x-organization-slug': 'demo', 'x-forwarded-for': `10.${randomBytes(3).join('.')}` },
      ),
      201,
    );
    const read = await expectStatus(
      'order read',
      callJson(`${api}/merchant/orders/${order.id}`, undefined, merchant, 'GET'),
      200,
    );
    await expectStatus(
      'ship-to',
      callJson(
        `${api}/merchant/orders/${order.id}/shipping-address`,
        {
          name: `Bench Customer ${index}`,
          line1: `${index} Main St`,
          city: 'Lisbon',
          postalCode: '1000-001',
          country: 'PT',
        },
        merchant,
        'PUT',
      ),
      200,
    );
    const [line] = read.items as { id: string }[];
    const planned = await expectStatus(
      'plan',
      callJson(
        `${api}/merchant/commerce/orders/${read.salesRecordId}/planned-fulfillments`,
        { lines: [{ lineId: line!.id, quantity: 1 }] },
        { ...merchant, 'x-idempotency-key': `bench-plan-${randomBytes(12).toString('hex')}` },
      ),
      201,
    );
    ids.push(String(planned.id));
  }
  return ids;
}

interface Batch {
  status: number;
  ms: number;
  bytes: Uint8Array;
}

async function printBatch(api: string, merchant: Record<string, string>, ids: string[]): Promise<Batch> {
  const started = performance.now();
  const response = await fetch(`${api}/merchant/shipping/warehouse-outputs/labels-pdf`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...merchant },
    body: JSON.stringify({ fulfillmentIds: ids }),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const ms = performance.now() - started;
  if (response.status !== 200 || response.headers.get('content-type') !== 'application/pdf')
    throw new Error(`labels-pdf: ${response.status} ${Buffer.from(bytes).toString('utf8').slice(0, 500)}`);
  return { status: response.status, ms, bytes };
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  log(
    `machine: ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `${settings.iterations} batches of ${settings.labels} labels after ${settings.warmup} warm-up batches`,
  );
  const { connection, dispose } = await freshBenchDatabase('postgres', {
    adminUrl: settings.postgresAdminUrl,
    database: settings.database,
    label: 'labels',
  });
  const port = await freePort();
  const gateway = startServer({
    name: 'gateway',
    args: [path.join(GATEWAY_DIR, 'dist/main.js')],
    cwd: ROOT,
    port,
    logFile: path.join(RESULTS_DIR, 'labels-pdf-gateway.log.tmp'),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...productionGatewayEnv({ port, connection, jwt, logLevel: settings.gatewayLogLevel }),
      TRUST_PROXY: 'true',
    },
  });
  let database: DatabaseHandle | undefined;
  try {
    await waitUntilHealthy(gateway);
    // The gateway migrated the database; the bench writes the labels the purchase flow would have stored.
    database = await openDatabase({ ...connection, poolSize: 2 });
    const api = `${gateway.url}/api/v1`;
    const merchant = { 'x-organization-slug': 'demo', authorization: `Bearer ${await demoOwnerToken(jwt)}` };
    const ids = await plannedFulfillments(api, merchant);
    const { id: organizationId } = await database.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'demo')
      .executeTakeFirstOrThrow();
    let labelBytes = 0;
    for (const [index, fulfillmentId] of ids.entries()) {
      const bytes = await labelPdf(1, { trackingNumber: `SBXBENCH${String(index).padStart(11, '0')}` });
      labelBytes += bytes.byteLength;
      await seedLabel(database.db, { organizationId, fulfillmentId, at: new Date(), label: { bytes } });
    }
    log(
      `seeded ${ids.length} READY fulfillments with stored labels (${Math.round(labelBytes / ids.length)} bytes each)`,
    );

    for (let index = 0; index < settings.warmup; index += 1) await printBatch(api, merchant, ids);
    const memoryBefore = readMemory(gateway.pid);
    const rss = sampleRss(gateway.pid, 50);
    const cpuBefore = readCpuMs(gateway.pid);
    const batches: Batch[] = [];
    const started = performance.now();
    for (let index = 0; index < settings.iterations; index += 1) {
      const batch = await printBatch(api, merchant, ids);
      batches.push({
        ...batch,
        bytes: index === 0 || index === settings.iterations - 1 ? batch.bytes : new Uint8Array(),
      });
    }
    const seconds = (performance.now() - started) / 1000;
    const peakSampleKb = rss.stop();
    const cpuMs = readCpuMs(gateway.pid) - cpuBefore;
    const memoryAfter = readMemory(gateway.pid);
    if (gateway.exited) throw new Error(`the gateway exited:\n${logTail(gateway)}`);

    const pages = [
      await pdfPageCount(batches[0]!.bytes),
      await pdfPageCount(batches[batches.length - 1]!.bytes),
    ];
    const sorted = batches.map((batch) => batch.ms).sort((a, b) => a - b);
    const result = {
      batches: batches.length,
      labelsPerBatch: ids.length,
      batchBytes: batches[0]!.bytes.byteLength,
      perSecond: round2(batches.length / seconds),
      p50Ms: round2(percentile(sorted, 50)),
      p95Ms: round2(percentile(sorted, 95)),
      p99Ms: round2(percentile(sorted, 99)),
      maxMs: round2(sorted[sorted.length - 1] ?? 0),
      gatewayCpuMsPerBatch: round2(cpuMs / batches.length),
      gatewayRssBeforeMb: round2(memoryBefore.rssKb / 1024),
      gatewayPeakRssDuringMb: round2(peakSampleKb / 1024),
      gatewayPeakRssSinceStartMb: round2(memoryAfter.hwmKb / 1024),
      pages,
    };
    log(
      `labels-pdf: ${result.batches} batches of ${result.labelsPerBatch} labels (${result.batchBytes} bytes each), ` +
        `${result.perSecond}/s; p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms; ` +
        `gateway CPU ${result.gatewayCpuMsPerBatch} ms per batch; RSS ${result.gatewayRssBeforeMb} MB before, ` +
        `peak ${result.gatewayPeakRssDuringMb} MB during, VmHWM ${result.gatewayPeakRssSinceStartMb} MB`,
    );
    const failures = [
      pages.some((count) => count !== ids.length) &&
        `a batch held ${pages.join(' and ')} pages, not ${ids.length}`,
      result.p99Ms > settings.p99BudgetMs &&
        `p99 ${result.p99Ms} ms is over the ${settings.p99BudgetMs} ms budget`,
    ].filter(Boolean);
    writeFileSync(
      settings.output,
      `${JSON.stringify(
        {
          startedAt: new Date().toISOString(),
          machine: {
            cpus: os.availableParallelism(),
            cpuModel: os.cpus()[0]?.model ?? 'unknown',
            node: process.version,
          },
          settings,
          result,
          failures,
        },
        null,
        2,
      )}\n`,
    );
    log(`wrote ${path.relative(ROOT, settings.output)}`);
    if (failures.length > 0) throw new Error(failures.join('; '));
  } finally {
    await database?.close();
    await gateway.stop();
    await dispose();
  }
}

runBench(main);
