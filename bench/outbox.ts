/**
 * `pnpm --filter @commerce/bench bench:outbox` (or `npx tsx outbox.ts` in
 * bench/): outbox delivery throughput on PostgreSQL. For each worker count in
 * BENCH_WORKERS, recreates the database, queues BENCH_EMAILS emails (one
 * recipient each) in the outbox, starts that many worker processes
 * (apps/worker from source, SMTP_URL pointing at a local SMTP sink built on
 * smtp-server in this process), and waits until every row is DONE. Prints
 * emails per second from the first message the sink accepted to the last,
 * the messages the sink received twice or more (at-least-once allows them;
 * they are counted, not hidden), and the rows not DONE; writes
 * results/outbox.json.
 *
 * Knobs (environment): BENCH_EMAILS (5000), BENCH_WORKERS (1,2),
 * BENCH_OUTBOX_CONCURRENCY (the workers' OUTBOX_CONCURRENCY; unset: the default),
 * BENCH_POSTGRES_URL (admin connection, postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_OUTBOX_DATABASE (commerce_bench_outbox, dropped and recreated),
 * BENCH_TIMEOUT (seconds a run may take, 300), BENCH_LOG_LEVEL (the workers', warn),
 * BENCH_OUTPUT (results/outbox.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { migrateToLatest, openDatabase } from '@commerce/db';
import { type EnqueueEmailInput, enqueueEmails } from '@commerce/notifications';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { intEnv } from './gateway-env.ts';
import { BENCH_DIR, ROOT } from './paths.ts';
import { dropBenchDatabase, recreateBenchDatabase } from './postgres.ts';
import { logTail, readCpuMs, type ServerProcess, startServer, stopAll } from './processes.ts';

const WORKER_DIR = path.join(ROOT, 'apps/worker');
const ORG_ID = 'org_bench_outbox';

const settings = {
  emails: intEnv('BENCH_EMAILS', 5000),
  workers: (process.env.BENCH_WORKERS ?? '1,2').split(',').map((value) => {
    const count = Number(value.trim());
    if (!Number.isInteger(count) || count < 1)
      throw new Error('BENCH_WORKERS must list positive whole numbers');
    return count;
  }),
  concurrency: process.env.BENCH_OUTBOX_CONCURRENCY || undefined,
  postgresAdminUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  database: process.env.BENCH_OUTBOX_DATABASE ?? 'commerce_bench_outbox',
  timeoutSeconds: intEnv('BENCH_TIMEOUT', 300),
  workerLogLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/outbox.json'),
};

const log = (line: string) => process.stdout.write(`${line}\n`);
const round1 = (value: number) => Math.round(value * 10) / 10;

/** The sink: accepts every message and counts them per recipient (each queued email has its own). */
interface Sink {
  url: string;
  /** Messages accepted per recipient address. */
  counts: Map<string, number>;
  total(): number;
  firstAt: number | undefined;
  lastAt: number | undefined;
  reset(): void;
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const sink: Sink = {
    url: '',
    counts: new Map(),
    total: () => [...sink.counts.values()].reduce((sum, count) => sum + count, 0),
    firstAt: undefined,
    lastAt: undefined,
    reset() {
      sink.counts.clear();
      sink.firstAt = undefined;
      sink.lastAt = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    maxClients: 1000,
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        const now = performance.now();
        sink.firstAt ??= now;
        sink.lastAt = now;
        for (const recipient of session.envelope.rcptTo) {
          sink.counts.set(recipient.address, (sink.counts.get(recipient.address) ?? 0) + 1);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP sink has no port');
  sink.url = `smtp://127.0.0.1:${address.port}`;
  return sink;
}

interface RunResult {
  workers: number;
  emails: number;
  seconds: number;
  emailsPerSecond: number;
  received: number;
  duplicates: number;
  missing: number;
  notDone: number;
  /** CPU time (user + system) of each worker process over the run; objects, so the JSON stays as Biome formats it. */
  workerCpu: Array<{ worker: number; ms: number }>;
}

async function queueEmails(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    await database.db
      .insertInto('organizations')
      .values({ id: ORG_ID, slug: 'bench-outbox', name: 'Bench outbox' })
      .execute();
    const at = new Date();
    const inputs: EnqueueEmailInput[] = Array.from({ length: settings.emails }, (_, index) => ({
      organizationId: ORG_ID,
      templateType: 'order.confirmation',
      to: `customer${index}@sink.test`,
      subject: `Order #${index} confirmed`,
      text: `Thank you for your order #${index}.\n\nIt ships soon.`,
      html: `<p>Thank you for your order <strong>#${index}</strong>.</p><p>It ships soon.</p>`,
      at,
    }));
    await enqueueEmails(database.db, inputs);
  } finally {
    await database.close();
  }
}

async function countNotDone(databaseUrl: string): Promise<number> {
  const database = await openDatabase({ databaseUrl, poolSize: 1 });
  try {
    const row = await sql<{ count: number }>`select count(*)::int as count from outbox where status <> 'DONE'`
      .execute(database.db)
      .then((result) => result.rows[0]);
    return row?.count ?? -1;
  } finally {
    await database.close();
  }
}

async function runOnce(sink: Sink, workers: number): Promise<RunResult> {
  const { url } = await recreateBenchDatabase(settings.postgresAdminUrl, settings.database);
  try {
    await queueEmails(url);
    sink.reset();
    const processes: ServerProcess[] = [];
    for (let index = 0; index < workers; index++) {
      processes.push(
        startServer({
          name: `worker ${index + 1}`,
          args: ['--import', 'tsx', 'src/main.ts'],
          cwd: WORKER_DIR,
          port: 0,
          logFile: path.join(os.tmpdir(), `commerce-bench-outbox-worker-${index + 1}.log`),
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'production',
            DATABASE_URL: url,
            SMTP_URL: sink.url,
            LOG_LEVEL: settings.workerLogLevel,
            MERCHANT_JWT_SECRET: 'bench-outbox-merchant-secret-not-the-dev-one',
            PAYMENT_WEBHOOK_SECRET: 'whsec_bench_outbox',
            PAYMENT_PROVIDER: 'sandbox',
            ALLOW_SANDBOX_IN_PRODUCTION: 'true',
            ...(settings.concurrency ? { OUTBOX_CONCURRENCY: settings.concurrency } : {}),
          },
        }),
      );
    }
    const deadline = performance.now() + settings.timeoutSeconds * 1000;
    while (new Set(sink.counts.keys()).size < settings.emails) {
      const dead = processes.find((worker) => worker.exited);
      if (dead) throw new Error(`${dead.name} exited (${dead.exitReason}):\n${logTail(dead)}`);
      if (performance.now() > deadline) {
        throw new Error(
          `only ${sink.counts.size} of ${settings.emails} emails arrived in ${settings.timeoutSeconds} s`,
        );
      }
      await sleep(20);
    }
    // The last DONE marks follow the last sends by a round trip; then the workers stop.
    let notDone = await countNotDone(url);
    for (let tries = 0; notDone > 0 && tries < 50; tries++) {
      await sleep(100);
      notDone = await countNotDone(url);
    }
    const workerCpu = processes.map((worker, index) => ({
      worker: index + 1,
      ms: Math.round(readCpuMs(worker.pid)),
    }));
    await Promise.all(processes.map((worker) => worker.stop()));
    const seconds = ((sink.lastAt ?? 0) - (sink.firstAt ?? 0)) / 1000;
    const received = sink.total();
    return {
      workers,
      emails: settings.emails,
      seconds: round1(seconds),
      emailsPerSecond: Math.round(settings.emails / seconds),
      received,
      duplicates: received - sink.counts.size,
      missing: settings.emails - sink.counts.size,
      notDone,
      workerCpu,
    };
  } finally {
    await dropBenchDatabase(settings.postgresAdminUrl, settings.database);
  }
}

async function main(): Promise<void> {
  const sink = await startSink();
  const results: RunResult[] = [];
  try {
    log(`outbox: ${settings.emails} emails, workers ${settings.workers.join(' then ')}, sink ${sink.url}`);
    for (const workers of settings.workers) {
      const result = await runOnce(sink, workers);
      results.push(result);
      log(
        `${workers} worker(s): ${result.emailsPerSecond} emails/s (${result.seconds} s first to last), ` +
          `received ${result.received}, duplicates ${result.duplicates}, missing ${result.missing}, ` +
          `rows not DONE ${result.notDone}, worker CPU ${result.workerCpu.map((cpu) => cpu.ms).join(' + ')} ms`,
      );
    }
  } finally {
    await stopAll();
    await sink.close();
  }
  mkdirSync(path.dirname(settings.output), { recursive: true });
  writeFileSync(
    settings.output,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { cpus: os.cpus().length, node: process.version },
        settings: { ...settings, workers: settings.workers.join(','), output: undefined },
        results,
      },
      null,
      2,
    )}\n`,
  );
  log(`wrote ${path.relative(process.cwd(), settings.output)}`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

await main();
