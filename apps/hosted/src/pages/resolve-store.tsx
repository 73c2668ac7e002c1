import { useQuery } from '@tanstack/react-query';
import { t } from '../i18n/index.ts';
import { signedInStore } from '../lib/tenant.ts';
import { readFailure, useTRPCClient } from '../lib/trpc.ts';
import { FailureNotice } from '../ui.tsx';

/** The token a root link path carries: `?token=…`, or the last segment of `/checkout/…` and `/bookings/manage/…`. */
export function linkToken(pathname: string, search: string): string | undefined {
  const query = new URLSearchParams(search).get('token');
  if (query) return query;
  const match = /^\/(?:checkout|bookings\/manage)\/([^/]+)\/?$/.exec(pathname);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

/**
 * A link path at the root (a HOSTED_CHECKOUT_URL without `{orgSlug}`): the token in the link names
 * the store, so the page asks the server which one (`public.linkTokens.resolve`) and moves to
 * `/hosted/<slug>/…` with the same path and query. A path without a token (an account page) goes to
 * the store this browser last signed in to, when it knows one.
 */
export function StoreResolver() {
  const client = useTRPCClient();
  const { pathname, search, hash } = window.location;
  const token = linkToken(pathname, search);
  const resolved = useQuery({
    queryKey: ['link-store', token],
    queryFn: async () =>
      token === undefined
        ? signedInStore.get()
        : (await client.public.linkTokens.resolve.mutate({ token })).orgSlug,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (resolved.data !== undefined) {
    window.location.replace(`/hosted/${encodeURIComponent(resolved.data)}${pathname}${search}${hash}`);
    return (
      <main id="main" className="page">
        <h1>{t('resolve.opening')}</h1>
      </main>
    );
  }
  const failure = resolved.isError ? readFailure(resolved.error) : undefined;
  if (resolved.isPending)
    return (
      <main id="main" className="page">
        <h1>{t('resolve.opening')}</h1>
      </main>
    );
  return (
    <main id="main" className="page">
      <h1>
        {failure?.status === 404 || token === undefined ? t('resolve.unknownStore') : t('resolve.failed')}
      </h1>
      {failure && failure.status !== 404 ? <FailureNotice failure={failure} /> : <p>{t('resolve.hint')}</p>}
    </main>
  );
}
