/**
 * The machine's yardstick: the CPU the bare handler (bare-server.ts: Hono + pg, one query) spends on
 * one public organization read on this machine, measured in the bench's own run. A write bench
 * prints its gateway CPU per operation beside it, so figures from machines of different speeds
 * compare: "a checkout costs 120 bare reads" holds across machines where "10 ms" does not.
 */
import path from 'node:path';
import { measure } from './load.ts';
import { RESULTS_DIR } from './paths.ts';
import { readCpuMs, startBareServer } from './processes.ts';

export interface Yardstick {
  /** CPU microseconds of the bare handler per public read. */
  bareReadCpuMicros: number;
  requestsPerSecond: number;
}

/**
 * Starts the bare server on `databaseUrl` (PostgreSQL; without one it opens an in-memory PGlite of
 * its own), reads the `demo` organization with 32 connections for 2 s of warm-up and 5 s measured,
 * and stops it.
 */
export async function measureYardstick(databaseUrl: string | undefined): Promise<Yardstick> {
  const { server } = await startBareServer({
    name: 'bare (yardstick)',
    logFile: path.join(RESULTS_DIR, 'yardstick-bare.log.tmp'),
    env: {
      PATH: process.env.PATH,
      ...(databaseUrl ? { BARE_DATABASE_URL: databaseUrl } : {}),
      BARE_POOL_SIZE: '10',
      BARE_SUBJECT: 'bench|yardstick',
      JWT_SECRET: 'yardstick-secret-not-used-for-reads',
      JWT_ISSUER: 'yardstick',
      JWT_AUDIENCE: 'yardstick',
      RATE_LIMIT_PER_MINUTE: '100000000',
    },
  });
  try {
    const result = await measure(
      {
        url: `${server.url}/api/v1/public/organization`,
        headers: { 'x-organization-slug': 'demo' },
        connections: 32,
        duration: 5,
      },
      2,
      () => readCpuMs(server.pid),
    );
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`yardstick: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return { bareReadCpuMicros: result.cpuMicrosPerRequest, requestsPerSecond: result.requestsPerSecond };
  } finally {
    await server.stop();
  }
}

/** "10.3 ms of gateway CPU = 120 bare reads (86 µs each on this machine)". */
export function inBareReads(cpuMicros: number, yardstick: Yardstick): string {
  const reads = yardstick.bareReadCpuMicros > 0 ? Math.round(cpuMicros / yardstick.bareReadCpuMicros) : 0;
  return `${reads} bare reads (${yardstick.bareReadCpuMicros} µs each on this machine)`;
}
