import type { AppRouter } from '@commerce/api';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';

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
  message: string;
  retryAfterSeconds: number | undefined;
  issues: { path: string; message: string }[];
}

interface ErrorData {
  httpStatus?: number;
  appCode?: string;
  details?: { issues?: { path: string; message: string }[] };
}

/** What a failed call says, read from tRPC's error (`Retry-After` from the response's header). */
export function readFailure(error: unknown): ApiFailure {
  if (!(error instanceof TRPCClientError))
    return {
      status: undefined,
      code: undefined,
      message: String(error),
      retryAfterSeconds: undefined,
      issues: [],
    };
  const data = (error.data ?? {}) as ErrorData;
  const response = (error.meta as { response?: Response } | undefined)?.response;
  const retryAfter = Number(response?.headers.get('retry-after') ?? Number.NaN);
  return {
    status: data.httpStatus ?? response?.status,
    code: data.appCode,
    message: error.message,
    retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
    issues: data.details?.issues ?? [],
  };
}

export const isUnauthenticated = (error: unknown) => readFailure(error).status === 401;
