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

/** What the measured runs of one server add up to, across rounds. */
class Tally {
  latencies = new Float64Array(1 << 16);
  count = 0;
  non2xx = 0;
  errors = 0;
  timeouts = 0;
  totalRequests = 0;
  bytes = 0;
  cpuMs = 0;
  wallMs = 0;
  statusCodes: Record<string, number> = {};

  /** One measured run of `seconds` against `options`. */
  async add(options: LoadOptions, seconds: number, cpuMs: () => number): Promise<void> {
    const cpuBefore = cpuMs();
    const wallBefore = performance.now();
    let non2xx = 0;
    const result = await run({ ...options, duration: seconds }, (statusCode, ms) => {
      if (statusCode < 200 || statusCode > 299) non2xx += 1;
      if (this.count === this.latencies.length) {
        const grown = new Float64Array(this.latencies.length * 2);
        grown.set(this.latencies);
        this.latencies = grown;
      }
      this.latencies[this.count++] = ms;
    });
    this.cpuMs += cpuMs() - cpuBefore;
    this.wallMs += performance.now() - wallBefore;
    this.non2xx += Math.max(non2xx, result.non2xx);
    this.errors += result.errors;
    this.timeouts += result.timeouts;
    this.totalRequests += result.requests.total;
    this.bytes += result.throughput.total;
    for (const [code, stats] of Object.entries(result.statusCodeStats)) {
      this.statusCodes[code] = (this.statusCodes[code] ?? 0) + stats.count;
    }
  }

  result(): LoadResult {
    const sorted = this.latencies.subarray(0, this.count).sort();
    let sum = 0;
    for (const value of sorted) sum += value;
    const seconds = this.wallMs / 1000;
    return {
      requestsPerSecond: seconds > 0 ? Math.round(this.totalRequests / seconds) : 0,
      totalRequests: this.totalRequests,
      latency: {
        mean: round2(this.count === 0 ? 0 : sum / this.count),
        p50: round2(percentile(sorted, 50)),
        p90: round2(percentile(sorted, 90)),
        p99: round2(percentile(sorted, 99)),
        max: round2(percentile(sorted, 100)),
      },
      non2xx: this.non2xx,
      errors: this.errors,
      timeouts: this.timeouts,
      statusCodes: this.statusCodes,
      bytesPerSecond: seconds > 0 ? Math.round(this.bytes / seconds) : 0,
      cpuMicrosPerRequest: this.totalRequests > 0 ? Math.round((this.cpuMs * 1000) / this.totalRequests) : 0,
      cpuCores: round2(this.wallMs > 0 ? this.cpuMs / this.wallMs : 0),
    };
  }
}

/** One server to drive: where, and how to read its process's CPU time (ms). */
export interface LoadTarget {
  options: LoadOptions;
  cpuMs: () => number;
}

/**
 * Drives `url` for `warmup` seconds (discarded), then for `duration` seconds,
 * measured; `cpuMs` reads the server process's CPU time.
 */
export async function measure(
  options: LoadOptions,
  warmup: number,
  cpuMs: () => number,
): Promise<LoadResult> {
  const [result] = await measureAlternating([{ options, cpuMs }], warmup, 1);
  return result!;
}

/**
 * Drives several servers in turn: each warmed up for `warmup` seconds (discarded), then `rounds`
 * rounds in which each is driven for its `duration` split in equal slices, one after the other.
 * Each server's result adds up its slices: requests over the time they took, latency percentiles
 * over every response. Alternating keeps a comparison fair on a machine whose speed drifts within
 * a minute (a shared VM's neighbours): a slow spell falls on both servers instead of one.
 */
export async function measureAlternating(
  targets: LoadTarget[],
  warmup: number,
  rounds: number,
): Promise<LoadResult[]> {
  if (warmup > 0) for (const target of targets) await run({ ...target.options, duration: warmup });
  const tallies = targets.map(() => new Tally());
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) {
      await tallies[index]!.add(target.options, target.options.duration / rounds, target.cpuMs);
    }
  }
  return tallies.map((tally) => tally.result());
}
