import type { AppRouter } from '@commerce/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate, useRouteContext } from '@tanstack/react-router';
import type { inferRouterInputs } from '@trpc/server';
import type { ReactNode } from 'react';
import { useText } from './i18n/index.ts';
import { signedInStore } from './lib/tenant.ts';
import { createClient, readFailure, useTRPC, useTRPCClient } from './lib/trpc.ts';
import { Button, FailureNotice, Loading, Page } from './ui.tsx';

type VerifyInput = inferRouterInputs<AppRouter>['public']['customerAuth']['verify'];

/**
 * Sign-in verification (a link token, or an email and code). The server sets the HttpOnly session
 * cookie; the answer also holds the token for bearer clients, which is dropped here unread, so it
 * is never kept in a mutation's state, a cache or storage.
 */
export function useVerifySignIn() {
  const client = useTRPCClient();
  return useMutation({
    mutationFn: async (input: VerifyInput): Promise<void> => {
      await client.public.customerAuth.verify.mutate(input);
    },
  });
}

/** The signed-in customer's profile; a 401 means no session of this store. */
export function useProfile() {
  const trpc = useTRPC();
  return useQuery(trpc.customer.account.getProfile.queryOptions({}));
}

/**
 * The account pages' guard. Without a session of this store the page offers to sign in; when this
 * browser last signed in to another store (the origin holds one `__Host-session` cookie, and the
 * server refuses another store's session as it refuses none), it says so and offers to sign out
 * there and sign in here.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const profile = useProfile();
  const { slug } = useRouteContext({ from: '__root__' });
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const t = useText();
  const other = signedInStore.get();
  const switchStore = useMutation({
    mutationFn: async () => {
      // The other store's session is revoked where it lives; a failure (already gone) is fine.
      await createClient(other)
        .customer.auth.logout.mutate({})
        .catch(() => undefined);
      signedInStore.clear();
    },
    onSettled: async () => {
      queryClient.clear();
      await navigate({ to: '/account/sign-in', search: { redirect: location.href } });
    },
  });

  if (profile.isPending) return <Loading what={t('session.loading')} />;
  if (profile.isError) {
    const failure = readFailure(profile.error);
    if (failure.status !== 401) return <FailureNotice failure={failure} />;
    if (other !== undefined && other !== slug)
      return (
        <Page title={t('session.otherStoreTitle')}>
          <p>{t('session.otherStoreText')}</p>
          <Button onPress={() => switchStore.mutate()} isDisabled={switchStore.isPending}>
            {t('session.signInAgain')}
          </Button>
        </Page>
      );
    return (
      <Page title={t('session.signInTitle')}>
        <p>{t('session.signInText')}</p>
        <p>
          <Link to="/account/sign-in" search={{ redirect: location.href }} className="button button-primary">
            {t('session.signIn')}
          </Link>
        </p>
      </Page>
    );
  }
  return <>{children}</>;
}

/** Sign-out: revokes the session, the server clears its cookie. */
export function SignOutButton() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const t = useText();
  const logout = useMutation(trpc.customer.auth.logout.mutationOptions());
  return (
    <>
      <Button
        variant="secondary"
        isDisabled={logout.isPending}
        onPress={async () => {
          try {
            await logout.mutateAsync({});
          } catch (error) {
            // Already signed out (expired or revoked): the outcome is the same.
            if (readFailure(error).status !== 401) return;
          }
          signedInStore.clear();
          queryClient.clear();
          await navigate({ to: '/account/sign-in' });
        }}
      >
        {t('session.signOut')}
      </Button>
      {logout.isError && readFailure(logout.error).status !== 401 ? (
        <FailureNotice failure={readFailure(logout.error)} />
      ) : null}
    </>
  );
}
