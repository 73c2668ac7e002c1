import autocannon, { type Result } from 'autocannon';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface LoadResult {
  /** Mean of autocannon's per-second request counts. */
  requestsPerSecond: number;
  totalRequests: number;
  /** Latencies in milliseconds, from every response's own timing (autocannon's histogram keeps whole ms). */
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Response bytes per second. */
  bytesPerSecond: number;
  /**
   * The server process's own CPU time (user + system) per completed request, in
   * microseconds, over the measured run (a database server's work is not in it).
   * Less sensitive than req/s to the load generator sharing the CPUs.
   */
  cpuMicrosPerRequest: number;
  /** The server process's CPU time over wall time during the measured run (1 = one core busy). */
  cpuCores: number;
}

function run(options: LoadOptions, onResponse?: (statusCode: number, ms: number) => void): Promise<Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.duration,
        pipelining: 1,
        timeout: 10,
        headers: options.headers,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onResponse) {
      instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) =>
        onResponse(statusCode, ms),
      );
    }
  });
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Drives `url` for `warmup` seconds (discarded), then for `duration` seconds,
 * measured; `cpuMs` reads the server process's CPU time.
 */
export async function measure(
  options: LoadOptions,
  warmup: number,
  cpuMs: () => number,
): Promise<LoadResult> {
  if (warmup > 0) await run({ ...options, duration: warmup });
  const cpuBefore = cpuMs();
  const wallBefore = performance.now();
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let non2xx = 0;
  const result = await run(options, (statusCode, ms) => {
    if (statusCode < 200 || statusCode > 299) non2xx += 1;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = ms;
  });
  const cpu = cpuMs() - cpuBefore;
  const wall = performance.now() - wallBefore;
  const sorted = latencies.subarray(0, count).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats)) statusCodes[code] = stats.count;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    totalRequests: result.requests.total,
    latency: {
      mean: round2(count === 0 ? 0 : sum / count),
      p50: round2(percentile(sorted, 50)),
      p90: round2(percentile(sorted, 90)),
      p99: round2(percentile(sorted, 99)),
      max: round2(percentile(sorted, 100)),
    },
    non2xx: Math.max(non2xx, result.non2xx),
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    bytesPerSecond: Math.round(result.throughput.average),
    cpuMicrosPerRequest: result.requests.total > 0 ? Math.round((cpu * 1000) / result.requests.total) : 0,
    cpuCores: round2(cpu / wall),
  };
}
