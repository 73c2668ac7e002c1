/** How a client retries a request the server asked it to send again. */
export interface RetryOptions {
  /** Retries after the first attempt; 2 by default, 0 turns retrying off. */
  retries?: number;
  /** The first backoff in milliseconds, doubled on each retry, with full jitter; 250 by default. */
  baseDelayMs?: number;
  /**
   * The longest wait in milliseconds; 10,000 by default. A `Retry-After` longer than this is not
   * waited for: the 429 or 503 is returned to the caller.
   */
  maxDelayMs?: number;
}

/** Statuses that say "the request was not carried out; send it again later". */
const RETRIED_STATUSES = new Set([429, 503]);
/** Methods retried after a network failure without an idempotency key: they change nothing. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type Sleep = (ms: number) => Promise<void>;
const sleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds or an HTTP date
 * (RFC 9110); undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A fetch that sends a request again, with the same headers (so the same idempotency key), when
 * the answer is 429 or 503, after `Retry-After` when the server gives one and otherwise after an
 * exponential backoff with full jitter. A network failure (no answer at all) is retried only for
 * safe methods and for requests that carry an idempotency key, which the server replays rather
 * than carrying out twice.
 */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
  wait: Sleep = sleep,
): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 2;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  return async (request) => {
    const replayable = SAFE_METHODS.has(request.method) || request.headers.has('x-idempotency-key');
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      const backoff = Math.min(maxDelayMs, Math.random() * baseDelayMs * 2 ** attempt);
      let response: Response;
      try {
        response = await fetchImpl(last ? request : request.clone());
      } catch (error) {
        if (last || !replayable || request.signal.aborted) throw error;
        await wait(backoff);
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > maxDelayMs) return response;
      await response.body?.cancel();
      await wait(asked ?? backoff);
    }
  };
}
