/**
 * @commerce/client: the Commerce API's REST surface, typed from its OpenAPI document.
 *
 * Browser-safe: this entry uses only `fetch`, `Request`, `Headers`, `crypto.randomUUID` and
 * timers. Webhook verification for receivers is `@commerce/client/webhooks`.
 */
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { CommerceApiError } from './errors.ts';
import type { paths } from './generated/api.ts';
import { type RetryOptions, retryingFetch, type Sleep } from './retry.ts';

export { type ApiErrorCode, CommerceApiError, type ErrorEnvelope } from './errors.ts';
export type { components, operations, paths } from './generated/api.ts';
export { ERROR_CODES, type ErrorCode } from './generated/error-codes.ts';
export { type RetryOptions, retryAfterMs } from './retry.ts';

export interface CommerceClientOptions {
  /** The API's root, with its `/api/v1`: `https://api.example.com/api/v1`. */
  baseUrl: string;
  /** The tenant's slug, sent as `x-organization-slug` on every request that does not set it. */
  organization?: string;
  /**
   * The bearer credential: a merchant's identity-provider JWT, a customer session token, or for
   * platform routes the platform token. A function is asked before every request (a token that
   * refreshes).
   */
  token?: string | (() => string | undefined | Promise<string | undefined>);
  /** Retries of 429 and 503 answers (and of network failures where replaying is safe). */
  retry?: RetryOptions;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to send requests with; the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** How to wait between attempts; timers by default (tests replace it). */
  sleep?: Sleep;
}

export type CommerceClient = Client<paths>;

export const TENANT_HEADER = 'x-organization-slug';
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A new idempotency key: 32 hex characters from the platform's random generator. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID().replaceAll('-', '');
}

/**
 * A client for the Commerce API: `client.GET('/public/items/{slug}', { params: { path: { slug } } })`
 * and so on, typed by the API's own document (openapi-fetch over generated types).
 *
 * Every request carries the tenant header and the bearer token when given. Every POST, PUT,
 * PATCH and DELETE carries an idempotency key: the caller's `x-idempotency-key` header when it
 * sets one, otherwise a fresh random one; retries of that request send the same key, so the
 * server carries it out once. A 429 or 503 is retried after its `Retry-After`.
 */
export function createCommerceClient(options: CommerceClientOptions): CommerceClient {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: retryingFetch(baseFetch, options.retry, options.sleep),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  const { organization, token } = options;
  const headers: Middleware = {
    async onRequest({ request }) {
      if (organization !== undefined && !request.headers.has(TENANT_HEADER))
        request.headers.set(TENANT_HEADER, organization);
      if (token !== undefined && !request.headers.has('authorization')) {
        const value = typeof token === 'function' ? await token() : token;
        if (value) request.headers.set('authorization', `Bearer ${value}`);
      }
      if (MUTATING_METHODS.has(request.method) && !request.headers.has(IDEMPOTENCY_HEADER))
        request.headers.set(IDEMPOTENCY_HEADER, newIdempotencyKey());
      return request;
    },
  };
  client.use(headers);
  return client;
}

/** What an openapi-fetch call resolves to: its data, or its error, with the response. */
type Result =
  | { data: unknown; error?: never; response: Response }
  | { data?: never; error: unknown; response: Response };
type DataOf<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * The data of a successful call, or a `CommerceApiError` thrown with the envelope's `code`,
 * status, request id and details.
 */
export async function unwrap<R extends Result>(call: Promise<R>): Promise<DataOf<R>> {
  const result = await call;
  if (result.response.ok && result.error === undefined) return result.data as DataOf<R>;
  throw CommerceApiError.fromResponse(result.response, result.error);
}

/** One page of a keyset-paginated list. */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * Every record of a keyset-paginated list, page after page, as an async iterator:
 *
 *   for await (const order of paginate((cursor) =>
 *     client.GET('/merchant/orders', { params: { query: { cursor, limit: 100 } } }))) { … }
 *
 * `page` is asked for the first page with `undefined`, then with each page's `nextCursor` until
 * it is null. A failed page throws `CommerceApiError`.
 */
export async function* paginate<T>(
  page: (
    cursor: string | undefined,
  ) => Promise<
    | { data: Page<T>; error?: never; response: Response }
    | { data?: never; error: unknown; response: Response }
  >,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const { data, nextCursor } = (await unwrap(page(cursor))) as Page<T>;
    yield* data;
    cursor = nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * The hosted checkout page of a checkout session: `<hosted base>/checkout/<checkoutToken>`, where
 * the base is the server's `HOSTED_CHECKOUT_URL` (`{orgSlug}` replaced by the store's slug).
 */
export function hostedCheckoutUrl(hostedBase: string, organization: string, checkoutToken: string): string {
  const base = hostedBase.replaceAll('{orgSlug}', encodeURIComponent(organization)).replace(/\/+$/, '');
  return `${base}/checkout/${encodeURIComponent(checkoutToken)}`;
}
