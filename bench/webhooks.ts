/**
 * `pnpm --filter @commerce/bench bench:webhooks` (or `npx tsx webhooks.ts` in bench/): outbound
 * webhook delivery on PostgreSQL, one in-process webhook worker (the gateway's and the worker
 * process's, with its defaults: 10 deliveries in flight, WORKER_POLL_MS 1000) signing and POSTing
 * to a local receiver.
 *
 * 1. Backlog: BENCH_WEBHOOK_EVENTS events are queued first (one transaction each, as changes
 *    queue them), then the worker starts; events per second from its first receipt to its last.
 * 2. Latency: BENCH_WEBHOOK_LATENCY_EVENTS events are queued one transaction at a time at
 *    BENCH_WEBHOOK_RATE per second while the worker runs; for each, the time from its
 *    transaction's commit to the receiver's receipt, p50 and p95.
 *
 * Each event is on its own object (no per-object waits). Prints the figures and the events the
 * receiver got twice or more (at least once allows them); writes results/webhooks.json.
 * Knobs: BENCH_WEBHOOK_EVENTS (3000), BENCH_WEBHOOK_LATENCY_EVENTS (500), BENCH_WEBHOOK_RATE (100),
 * BENCH_WEBHOOK_POLL_MS (1000), BENCH_WEBHOOK_CONCURRENCY (10), BENCH_POSTGRES_URL,
 * BENCH_WEBHOOK_DATABASE (commerce_bench_webhooks, dropped and recreated), BENCH_OUTPUT.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemClock } from '@commerce/core';
import { migrateToLatest, openDatabase } from '@commerce/db';
import {
  createWebhookEndpoint,
  createWebhookWorker,
  enqueueWebhookEvent,
} from '@commerce/notifications/webhooks';
import { intEnv } from './gateway-env.ts';
import { BENCH_DIR } from './paths.ts';
import { dropBenchDatabase, recreateBenchDatabase } from './postgres.ts';

const ORG_ID = 'org_bench_webhooks';
const SIGNING_KEY = 'bench-webhook-signing-key-0123456789abcdef';
const settings = {
  events: intEnv('BENCH_WEBHOOK_EVENTS', 3000),
  latencyEvents: intEnv('BENCH_WEBHOOK_LATENCY_EVENTS', 500),
  rate: intEnv('BENCH_WEBHOOK_RATE', 100),
  pollMs: intEnv('BENCH_WEBHOOK_POLL_MS', 1000),
  concurrency: intEnv('BENCH_WEBHOOK_CONCURRENCY', 10),
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_WEBHOOK_DATABASE ?? 'commerce_bench_webhooks',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/webhooks.json'),
};
const log = (line: string) => process.stdout.write(`${line}\n`);
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Receipt times (performance.now) per event id, and how many times each arrived. */
const receivedAt = new Map<string, number>();
const receipts = new Map<string, number>();
const receiver = createServer((req, res) => {
  const id = String(req.headers['webhook-id']);
  req.resume();
  req.on('end', () => {
    if (!receivedAt.has(id)) receivedAt.set(id, performance.now());
    receipts.set(id, (receipts.get(id) ?? 0) + 1);
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const bench = await recreateBenchDatabase(settings.postgresAdminUrl, settings.database);
const database = await openDatabase({
  databaseUrl: bench.url,
  poolSize: 10,
  applicationName: 'bench-webhooks',
});
try {
  await migrateToLatest(database.db);
  const db = database.db;
  await db
    .insertInto('organizations')
    .values({ id: ORG_ID, slug: 'bench-webhooks', name: 'Bench' })
    .execute();
  await createWebhookEndpoint(
    db,
    { organizationId: ORG_ID, actor: { userId: null, email: null }, at: new Date() },
    { signingKey: SIGNING_KEY, policy: { requireHttps: false, allowPrivateHosts: true } },
    { url, events: ['order.created'] },
  );
  /** One event in a transaction of its own; resolves to its id and its commit time. */
  const queueOne = async (n: number) => {
    const id = await db.transaction().execute((trx) =>
      enqueueWebhookEvent(trx, {
        organizationId: ORG_ID,
        type: 'order.created',
        objectId: `ord_bench_${n}`,
        data: {
          id: `ord_bench_${n}`,
          orderNumber: n,
          totalInCents: 4200,
          lines: [{ name: 'Kettle', quantity: 1 }],
        },
        at: new Date(),
      }),
    );
    return { id: id!, committedAt: performance.now() };
  };
  const worker = createWebhookWorker({
    db,
    signingKey: SIGNING_KEY,
    allowPrivateHosts: true,
    clock: systemClock,
    concurrency: settings.concurrency,
    pollIntervalMs: settings.pollMs,
  });
  const waitFor = async (ids: string[]) => {
    const deadline = Date.now() + 300_000;
    while (ids.some((id) => !receivedAt.has(id))) {
      if (Date.now() > deadline) throw new Error('events not delivered within 300 s');
      await sleep(20);
    }
  };

  log(`backlog: queueing ${settings.events} events`);
  const backlog = [];
  for (let n = 0; n < settings.events; n++) backlog.push((await queueOne(n)).id);
  const startedAt = performance.now();
  worker.start();
  await waitFor(backlog);
  const times = backlog.map((id) => receivedAt.get(id)!);
  const backlogSeconds = (Math.max(...times) - Math.min(Math.min(...times), startedAt)) / 1000;
  const eventsPerSecond = Math.round(settings.events / backlogSeconds);
  log(
    `backlog: ${settings.events} events in ${backlogSeconds.toFixed(2)} s: ${eventsPerSecond} events/s (1 worker)`,
  );

  log(`latency: ${settings.latencyEvents} events at ${settings.rate}/s`);
  const committed: { id: string; committedAt: number }[] = [];
  const interval = 1000 / settings.rate;
  const begin = performance.now();
  for (let n = 0; n < settings.latencyEvents; n++) {
    const due = begin + n * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    committed.push(await queueOne(settings.events + n));
  }
  await waitFor(committed.map((event) => event.id));
  await worker.stop();
  const latencies = committed
    .map((event) => receivedAt.get(event.id)! - event.committedAt)
    .sort((a, b) => a - b);
  const p50 = Math.round(percentile(latencies, 50));
  const p95 = Math.round(percentile(latencies, 95));
  const duplicates = [...receipts.values()].filter((count) => count > 1).length;
  log(
    `latency: commit to receipt p50 ${p50} ms, p95 ${p95} ms (poll ${settings.pollMs} ms); duplicates ${duplicates}`,
  );

  mkdirSync(path.dirname(settings.output), { recursive: true });
  writeFileSync(
    settings.output,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { cpus: os.cpus().length, node: process.version, database: bench.version },
        settings: { ...settings, output: undefined },
        results: { eventsPerSecond, backlogSeconds, latencyP50Ms: p50, latencyP95Ms: p95, duplicates },
      },
      null,
      2,
    )}\n`,
  );
  log(`wrote ${path.relative(process.cwd(), settings.output)}`);
} finally {
  await database.close();
  await dropBenchDatabase(settings.postgresAdminUrl, settings.database);
  receiver.closeAllConnections();
  receiver.close();
}
