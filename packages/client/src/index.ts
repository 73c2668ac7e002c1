/**
 * @commerce/client: the Commerce API's REST surface, typed from its OpenAPI document.
 *
 * Browser-safe: this entry uses only `fetch`, `Request`, `Headers`, `crypto.getRandomValues`
 * (`crypto.randomUUID` where the page is a secure context) and timers. Webhook verification for receivers is `@commerce/client/webhooks`.
 */
import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import { CommerceApiError } from './errors.ts';
import type { paths } from './generated/api.ts';
import { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations.ts';
import {
  IDEMPOTENCY_HEADER,
  operationMatcher,
  type RetryOptions,
  retryingFetch,
  type Sleep,
} from './retry.ts';

export { type ApiErrorCode, CommerceApiError, type ErrorEnvelope } from './errors.ts';
export type { components, operations, paths } from './generated/api.ts';
export { ERROR_CODES, type ErrorCode } from './generated/error-codes.ts';
export { IDEMPOTENT_OPERATIONS } from './generated/idempotent-operations.ts';
export { IDEMPOTENCY_HEADER, type RetryOptions, retryAfterMs } from './retry.ts';

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
  /** Retries of 429 answers, and of 503s and network failures where sending again is safe. */
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

const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A new idempotency key: 32 hex characters (128 bits) from the platform's random generator.
 * `crypto.randomUUID` exists only in secure contexts (https, localhost); on an http:// page or in
 * some webviews the key is 16 bytes of `crypto.getRandomValues` in hex instead.
 */
export function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID().replaceAll('-', '');
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

/**
 * A client for the Commerce API: `client.GET('/public/items/{slug}', { params: { path: { slug } } })`
 * and so on, typed by the API's own document (openapi-fetch over generated types).
 *
 * Every request carries the tenant header and the bearer token when given. A write whose route
 * reads the idempotency key (`IDEMPOTENT_OPERATIONS`, from the document's parameters) carries
 * one: the caller's `x-idempotency-key` header when it sets one, otherwise a fresh random one;
 * retries send the same key, so the server carries it out once. A 429 is retried after its
 * `Retry-After` for any route (the API refuses it before doing anything); a 503 or a network
 * failure only for reads and for keyed writes of those routes, since any other write may have
 * been stored.
 */
export function createCommerceClient(options: CommerceClientOptions): CommerceClient {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const idempotent = operationMatcher(IDEMPOTENT_OPERATIONS, baseUrl);
  const client = createFetchClient<paths>({
    baseUrl,
    fetch: retryingFetch(baseFetch, options.retry, options.sleep, idempotent),
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
      if (
        MUTATING_METHODS.has(request.method) &&
        !request.headers.has(IDEMPOTENCY_HEADER) &&
        idempotent(request)
      )
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
 * status, request id and details. A `304 Not Modified` (the answer to an `If-None-Match` the
 * caller sent) has no data: it throws the client's own code `NOT_MODIFIED`; read such calls with
 * `unwrapConditional`.
 */
export async function unwrap<R extends Result>(call: Promise<R>): Promise<DataOf<R>> {
  const result = await call;
  if (result.response.status === 304) throw CommerceApiError.notModified(result.response);
  if (result.response.ok && result.error === undefined) return result.data as DataOf<R>;
  throw CommerceApiError.fromResponse(result.response, result.error);
}

/** The outcome of a conditional read: fresh data with its `ETag`, or "yours is current". */
export type Conditional<T> =
  | { notModified: false; data: T; etag: string | undefined }
  | { notModified: true; etag: string | undefined };

/**
 * A conditional read (a public catalog GET sent with `If-None-Match: <etag you hold>`): the
 * new data and its `ETag`, or `{ notModified: true }` when the API answered `304` and the copy
 * you hold is current. Any error answer throws `CommerceApiError` as `unwrap` does.
 */
export async function unwrapConditional<R extends Result>(call: Promise<R>): Promise<Conditional<DataOf<R>>> {
  const result = await call;
  const etag = result.response.headers.get('etag') ?? undefined;
  if (result.response.status === 304) return { notModified: true, etag };
  if (result.response.ok && result.error === undefined)
    return { notModified: false, data: result.data as DataOf<R>, etag };
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
