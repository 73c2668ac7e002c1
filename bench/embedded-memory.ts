/**
 * `pnpm --filter @commerce/bench bench:memory` (or `npx tsx embedded-memory.ts`
 * in bench/): the resident memory of the built gateway on the embedded
 * database (PGlite). Builds the gateway, starts it as in production on a new
 * data directory (the demo organization seeded), and prints its RSS:
 *
 *   1. idle, BENCH_IDLE seconds after its first 200 on /healthz;
 *   2. the highest sample under BENCH_DURATION seconds of load: BENCH_CONNECTIONS
 *      readers of the public item list and one merchant creating items;
 *   3. idle again, BENCH_IDLE seconds after the load;
 *   4. idle after a restart on the same, now larger, data directory.
 *
 * Knobs (environment): BENCH_IDLE (10 s), BENCH_DURATION (20 s),
 * BENCH_CONNECTIONS (8), BENCH_SKIP_BUILD (1: use the existing dist/),
 * BENCH_NODE_OPTIONS (the gateway's NODE_OPTIONS, e.g. --max-semi-space-size=2),
 * BENCH_LOG_LEVEL (warn), BENCH_OUTPUT (results/embedded-memory.json).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintDevToken } from '@commerce/auth';
import autocannon from 'autocannon';
import { benchJwt, intEnv, productionGatewayEnv } from './gateway-env.ts';
import { BENCH_DIR } from './paths.ts';
import {
  freePort,
  readMemory,
  type ServerProcess,
  sampleRss,
  startServer,
  stopAll,
  waitUntilHealthy,
} from './processes.ts';

const GATEWAY_DIR = path.resolve(BENCH_DIR, '../apps/gateway');

const settings = {
  idleSeconds: intEnv('BENCH_IDLE', 10),
  durationSeconds: intEnv('BENCH_DURATION', 20),
  connections: intEnv('BENCH_CONNECTIONS', 8),
  skipBuild: process.env.BENCH_SKIP_BUILD === '1',
  nodeOptions: process.env.BENCH_NODE_OPTIONS || undefined,
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn',
  output: path.resolve(BENCH_DIR, process.env.BENCH_OUTPUT ?? 'results/embedded-memory.json'),
};

const jwt = benchJwt();
const log = (line: string) => process.stdout.write(`${line}\n`);
const mib = (kb: number) => Math.round(kb / 1024);

async function start(dataDir: string, label: string): Promise<ServerProcess> {
  const port = await freePort();
  const server = startServer({
    name: `gateway (${label})`,
    args: ['dist/main.js'],
    cwd: GATEWAY_DIR,
    port,
    logFile: path.join(os.tmpdir(), `commerce-bench-memory-${label}.log`),
    env: {
      PATH: process.env.PATH,
      ...productionGatewayEnv({ port, connection: { dataDir }, jwt, logLevel: settings.logLevel }),
      // The readers share one address; the limit is not what this measures.
      RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '100000000',
      ...(settings.nodeOptions ? { NODE_OPTIONS: settings.nodeOptions } : {}),
    },
  });
  await waitUntilHealthy(server);
  return server;
}

/** One merchant creating items one after another until `until`; returns how many. */
async function createItems(server: ServerProcess, until: number): Promise<number> {
  const token = await mintDevToken({
    secret: jwt.secret,
    issuer: jwt.issuer,
    audience: jwt.audience,
    subject: 'bench|demo-owner',
    email: 'owner@demo.test',
    expiresInSeconds: 3600,
  });
  let created = 0;
  while (performance.now() < until) {
    const response = await fetch(`${server.url}/api/v1/merchant/items`, {
      method: 'POST',
      headers: {
        'x-organization-slug': 'demo',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        slug: `memory-${created}-${Date.now()}`,
        name: `Memory item ${created}`,
        description: 'An item the memory bench wrote. '.repeat(20),
        type: 'SALE',
        status: 'ACTIVE',
        priceInCents: 1000 + created,
      }),
    });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`item: ${response.status}`);
    created += 1;
  }
  return created;
}

async function load(server: ServerProcess): Promise<{ maxKb: number; reads: number; writes: number }> {
  const sampler = sampleRss(server.pid, 200);
  const until = performance.now() + settings.durationSeconds * 1000;
  const [reads, writes] = await Promise.all([
    new Promise<number>((resolve, reject) => {
      autocannon(
        {
          url: `${server.url}/api/v1/public/items?limit=50`,
          connections: settings.connections,
          duration: settings.durationSeconds,
          headers: { 'x-organization-slug': 'demo' },
        },
        (error, result) => (error ? reject(error) : resolve(result.requests.total)),
      );
    }),
    createItems(server, until),
  ]);
  return { maxKb: sampler.stop(), reads, writes };
}

async function main(): Promise<void> {
  if (!settings.skipBuild) {
    log('building the gateway');
    execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'commerce-bench-memory-'));
  try {
    const first = await start(dataDir, 'first-start');
    await sleep(settings.idleSeconds * 1000);
    const idle = readMemory(first.pid);
    log(`idle after start: RSS ${mib(idle.rssKb)} MiB (peak so far ${mib(idle.hwmKb)} MiB)`);
    const loaded = await load(first);
    log(
      `under load (${settings.durationSeconds} s, ${loaded.reads} reads, ${loaded.writes} items written): ` +
        `RSS at most ${mib(loaded.maxKb)} MiB`,
    );
    await sleep(settings.idleSeconds * 1000);
    const after = readMemory(first.pid);
    log(`idle after load: RSS ${mib(after.rssKb)} MiB (peak ${mib(after.hwmKb)} MiB)`);
    await first.stop();

    const second = await start(dataDir, 'restart');
    await sleep(settings.idleSeconds * 1000);
    const restarted = readMemory(second.pid);
    log(`idle after a restart on the same data: RSS ${mib(restarted.rssKb)} MiB`);
    await second.stop();

    mkdirSync(path.dirname(settings.output), { recursive: true });
    writeFileSync(
      settings.output,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: { cpus: os.cpus().length, node: process.version },
          settings: { ...settings, output: undefined },
          mib: {
            idleAfterStart: mib(idle.rssKb),
            underLoadMax: mib(loaded.maxKb),
            idleAfterLoad: mib(after.rssKb),
            peak: mib(after.hwmKb),
            idleAfterRestart: mib(restarted.rssKb),
          },
          load: { reads: loaded.reads, itemsWritten: loaded.writes },
        },
        null,
        2,
      )}\n`,
    );
    log(`wrote ${path.relative(process.cwd(), settings.output)}`);
  } finally {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

await main();
