import type { AppRouter } from '@commerce/api';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { t } from '../i18n/index.ts';
import { plainMessage } from './messages.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/**
 * The typed client: one call per request (so a refusal's `Retry-After` is its own), the tenant in
 * `x-organization-slug`, and the `__Host-session` cookie sent by the browser (same origin). The
 * app never reads or stores a session token.
 */
export function createClient(slug: string | undefined) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: '/trpc',
        headers: () => (slug === undefined ? {} : { 'x-organization-slug': slug }),
        fetch: (url, init) => fetch(url, { ...(init as RequestInit), credentials: 'same-origin' }),
      }),
    ],
  });
}

export type Client = ReturnType<typeof createClient>;

export interface ApiFailure {
  status: number | undefined;
  /** The API's error code (`RATE_LIMIT_EXCEEDED`, `VERIFICATION_FAILED` …). */
  code: string | undefined;
  /** A sentence for the shopper (never the API's or the browser's own text: see `plainFailure`). */
  message: string;
  retryAfterSeconds: number | undefined;
  /** A `VALIDATION_FAILED`'s issues, each message in plain words (lib/messages.ts). */
  issues: { path: string; message: string }[];
  /** The envelope's `details` (`shortages`, `reason` …), as the API sent them. */
  details: Record<string, unknown> | undefined;
  /** No answer came back (offline, connection reset): whether the request was handled is unknown. */
  network: boolean;
}

interface ErrorData {
  httpStatus?: number;
  appCode?: string;
  details?: { issues?: { path: string; message: string }[] } & Record<string, unknown>;
}

/**
 * The sentence a refusal shows when the page has nothing more specific to say. The API's own
 * `message` is written for developers ("The transition is not allowed from the current state") and
 * a failed fetch's is the browser's ("Failed to fetch"): neither reaches a shopper.
 */
export function plainFailure(code: string | undefined, status: number | undefined): string {
  if (status === undefined) return t('refusal.unreachable');
  switch (code) {
    case 'VALIDATION_FAILED':
      return t('refusal.validation');
    case 'RESOURCE_NOT_FOUND':
      return t('refusal.notFound');
    case 'UNAUTHENTICATED':
      return t('refusal.unauthenticated');
    case 'FORBIDDEN':
      return t('refusal.forbidden');
    case 'STALE_STATE':
    case 'INVALID_STATE_TRANSITION':
      return t('refusal.changed');
    case 'RATE_LIMIT_EXCEEDED':
      return t('refusal.rateLimited');
    case 'PROVIDER_ERROR':
    case 'PROVIDER_UNAVAILABLE':
    case 'SERVICE_UNAVAILABLE':
      return t('refusal.unavailable');
    default:
      return status >= 500 ? t('refusal.serverError') : t('refusal.other');
  }
}

/** What a failed call says, read from tRPC's error (`Retry-After` from the response's header). */
export function readFailure(error: unknown): ApiFailure {
  if (!(error instanceof TRPCClientError))
    return {
      status: undefined,
      code: undefined,
      message: plainFailure(undefined, undefined),
      retryAfterSeconds: undefined,
      issues: [],
      details: undefined,
      network: true,
    };
  const data = (error.data ?? {}) as ErrorData;
  const response = (error.meta as { response?: Response } | undefined)?.response;
  const retryAfter = Number(response?.headers.get('retry-after') ?? Number.NaN);
  const status = data.httpStatus ?? response?.status;
  return {
    status,
    code: data.appCode,
    message: plainFailure(data.appCode, status),
    retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
    issues: (data.details?.issues ?? []).map((issue) => ({
      path: issue.path,
      message: plainMessage(issue.path, issue),
    })),
    details: data.details,
    // A fetch that failed (tRPC wraps the TypeError) has neither a status nor a response.
    network: status === undefined,
  };
}

export const isUnauthenticated = (error: unknown) => readFailure(error).status === 401;
