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

/** Methods that change nothing: sent again after a network failure or a 503 whatever the route. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';

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
 * A 429 that no wait can cure: a checkout bind whose cart alone holds more units than the cap
 * (`details: { reason: 'HELD_UNITS_CAP', maxUnits, requestedUnits }` with requestedUnits above
 * maxUnits).
 */
async function neverPasses(response: Response): Promise<boolean> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const details = (body as { error?: { details?: Record<string, unknown> } } | undefined)?.error?.details;
  return (
    details?.reason === 'HELD_UNITS_CAP' &&
    typeof details.requestedUnits === 'number' &&
    typeof details.maxUnits === 'number' &&
    details.requestedUnits > details.maxUnits
  );
}

/**
 * A fetch that sends a request again, with the same headers (so the same idempotency key):
 *
 * - after a `429`, for any method: the API refuses a rate-limited request before carrying out
 *   anything (but never a 429 that no wait can cure, see `neverPasses`);
 * - after a `503` or a network failure (no answer at all) only when a second send cannot repeat
 *   the work: a GET, HEAD or OPTIONS, or a write `idempotent(request)` says reads the
 *   idempotency key and that carries one. A `503` write of any other route may have been stored.
 *
 * The wait is the answer's `Retry-After` when it gives one, else an exponential backoff with full
 * jitter.
 */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
  wait: Sleep = sleep,
  idempotent: (request: Request) => boolean = () => false,
): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 2;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  return async (request) => {
    const replayable =
      SAFE_METHODS.has(request.method) || (request.headers.has(IDEMPOTENCY_HEADER) && idempotent(request));
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
      if (last) return response;
      if (response.status === 429) {
        if (await neverPasses(response)) return response;
      } else if (response.status !== 503 || !replayable) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > maxDelayMs) return response;
      await response.body?.cancel();
      await wait(asked ?? backoff);
    }
  };
}

/**
 * Whether a request is one of `operations` (method and path template, `{param}` one segment),
 * its URL read relative to `baseUrl`.
 */
export function operationMatcher(
  operations: readonly { method: string; path: string }[],
  baseUrl: string,
): (request: Request) => boolean {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const byMethod = new Map<string, RegExp[]>();
  for (const { method, path } of operations) {
    const pattern = new RegExp(
      `^${path
        .split('/')
        .map((segment) =>
          /^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')}$`,
    );
    byMethod.set(method, [...(byMethod.get(method) ?? []), pattern]);
  }
  return (request) => {
    const path = new URL(request.url).pathname;
    if (!path.startsWith(`${basePath}/`)) return false;
    const rest = path.slice(basePath.length);
    return (byMethod.get(request.method) ?? []).some((pattern) => pattern.test(rest));
  };
}
