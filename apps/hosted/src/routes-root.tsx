import { Skeleton, ToastRegion } from '@commerce/ui';
import { createRootRouteWithContext, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { Suspense, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { type MessageKey, t, useText } from './i18n/index.ts';
import { useStore, useStoreLocale } from './lib/store.ts';
import { Loading } from './ui.tsx';

/**
 * The root of the route tree (the layout every page shares) and what the route files share:
 * router.tsx builds the tree from it and the routes-*.tsx files, which import it and never
 * router.tsx.
 */

/**
 * `?token=` of an emailed link (sign-in, order status, unsubscribe, checkout and payment), read
 * leniently and bounded: a malformed or oversized one is absent, so the page shows its own
 * invalid-link state rather than the router's error.
 */
export const tokenSearch = z.object({ token: z.string().max(200).optional().catch(undefined) });

export interface RouterContext {
  /** The tenant the path names (`/hosted/<slug>/…`). */
  slug: string;
}

/** Each route's part of the document title (`<part> – <store>`), by route id: a catalogue key. */
const TITLES: Record<string, MessageKey> = {
  '/account/sign-in': 'title.signIn',
  '/account/verify': 'title.signIn',
  '/account': 'title.account',
  '/account/profile': 'title.profile',
  '/account/addresses': 'title.addresses',
  '/account/orders': 'title.orders',
  '/account/orders/$orderReference': 'title.order',
  '/account/bookings': 'title.bookings',
  '/account/bookings/$id': 'title.booking',
  '/order-status': 'title.orderStatus',
  '/email/unsubscribe': 'title.emailPreferences',
  '/cart/reminders/unsubscribe': 'title.emailPreferences',
  '/checkout': 'title.checkout',
  '/checkout/$token': 'title.checkout',
  '/checkout/pay': 'title.checkout',
  '/checkout/result': 'title.checkout',
  '/bookings/checkout': 'title.completeBooking',
  '/bookings/manage/$token': 'title.yourBooking',
};

/** Paths where the shopper is paying or booking: the header shows the store alone, no account menu. */
const FOCUSED = /^\/(checkout|bookings)(\/|$)/;
/** Signing in: no account menu yet, and a narrow column for one field. */
const SIGNING_IN = /^\/account\/(sign-in|verify)\/?$/;

/** After a navigation, focus moves to the page's main region, so a screen reader announces the new page. */
function useFocusOnNavigation(pathname: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [pathname]);
}

/** The store's logo (or name), linking back to its website when it has one. */
function StoreBrand({ focused }: { focused: boolean }) {
  const store = useStore();
  const [logoFailed, setLogoFailed] = useState(false);
  if (store.isPending)
    return (
      <span className="store-brand" aria-hidden="true">
        <Skeleton width="9rem" height="1.5rem" />
      </span>
    );
  const name = store.data?.displayName ?? store.data?.name ?? t('shell.storeFallback');
  // The page's policy allows images from https origins only: an http logo would be blocked.
  const logoUrl = store.data?.logoUrl;
  const logo = logoUrl?.startsWith('https:') && !logoFailed ? logoUrl : undefined;
  const content = logo ? (
    <img className="store-logo" src={logo} alt={name} onError={() => setLogoFailed(true)} />
  ) : (
    <span className="store-name">{name}</span>
  );
  const website = store.data?.websiteUrl;
  if (website)
    return (
      <a className="store-brand" href={website} rel="noopener">
        {content}
      </a>
    );
  // Without a website: the account's home outside checkout, no link during it.
  if (focused) return <span className="store-brand">{content}</span>;
  return (
    <Link to="/account" className="store-brand">
      {content}
    </Link>
  );
}

function AccountNav() {
  const t = useText();
  return (
    <nav aria-label={t('shell.accountNav')} className="account-nav">
      <ul>
        <li>
          <Link to="/account" activeOptions={{ exact: true }}>
            {t('nav.account')}
          </Link>
        </li>
        <li>
          <Link to="/account/orders">{t('nav.orders')}</Link>
        </li>
        <li>
          <Link to="/account/bookings">{t('nav.bookings')}</Link>
        </li>
        <li>
          <Link to="/account/addresses">{t('nav.addresses')}</Link>
        </li>
        <li>
          <Link to="/account/profile">{t('nav.profile')}</Link>
        </li>
      </ul>
    </nav>
  );
}

/** `<page> – <store>`, kept as the route and the store's name change. */
function useDocumentTitle(routeId: string | undefined) {
  const store = useStore();
  const t = useText();
  const name = store.data?.displayName ?? store.data?.name;
  const part = routeId === undefined ? undefined : t(TITLES[routeId] ?? 'title.notFound');
  const fallback = t('shell.storeFallback');
  useEffect(() => {
    const title = [part, name].filter(Boolean).join(' – ');
    document.title = title || fallback;
  }, [part, name, fallback]);
}

function Layout() {
  // The store's locale for texts and formats: the page is drawn once it is in force.
  const ready = useStoreLocale();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // A path no route matches ends at the root's match: "Page not found".
  const routeId = useRouterState({ select: (state) => state.matches.at(-1)?.routeId });
  useFocusOnNavigation(pathname);
  useDocumentTitle(routeId);
  const focused = FOCUSED.test(pathname);
  const signingIn = SIGNING_IN.test(pathname);
  const width = focused ? 'wide' : signingIn ? 'narrow' : 'content';
  return (
    <>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="site-header">
        <div className="site-header-inner" data-width={width}>
          <StoreBrand focused={focused} />
          {focused ? (
            <span className="secure-note">
              <LockIcon /> {t('shell.secureCheckout')}
            </span>
          ) : signingIn ? null : (
            <AccountNav />
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1} data-width={width}>
        {/*
          The page waits for the store's read (its skeleton stands in), so its first render is in
          the store's locale and nothing the shopper typed is lost to a redraw; a page's code
          arrives on first visit, its skeleton standing in meanwhile too.
        */}
        {ready ? (
          <Suspense fallback={<Loading what={t('loading.page')} />}>
            <Outlet />
          </Suspense>
        ) : (
          <Loading what={t('loading.page')} />
        )}
      </main>
      <ToastRegion />
    </>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2M3.5 7h9v7h-9z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function NotFound() {
  const t = useText();
  return (
    <section className="page">
      <h1>{t('title.notFound')}</h1>
      <p>
        <Link to="/account">{t('notFound.toAccount')}</Link>
      </p>
    </section>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Layout,
  notFoundComponent: NotFound,
});
