/**
 * The part of autocannon 8's API the bench uses (the package ships no types,
 * and @types/autocannon describes version 7).
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Requests to send in all, then stop once every one is answered (overrides `duration`). */
    amount?: number;
    pipelining?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    /** The sequence each connection sends, in turn. */
    requests?: RequestSpec[];
  }

  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface RequestSpec extends RawRequest {
    /** Changes the request before it is sent (a fresh header or body per request). */
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
    /** Sees each response's status and body. */
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }

  interface Result {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    /** Requests per second sampled each second; `total` is every completed request. */
    requests: Histogram & { sent: number };
    /** Bytes per second. */
    throughput: Histogram;
  }

  /**
   * An instance emits `response` (client, statusCode, bytes, responseTimeMs)
   * for every response.
   */
  type Instance = EventEmitter & { stop(): void };

  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;

  export type { Instance, Options, Result };
  export default autocannon;
}
