import { useQuery } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { z } from 'zod';
import { useTRPC } from './lib/trpc.ts';

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

/** After a navigation, focus moves to the page's main region, so a screen reader announces the new page. */
function useFocusOnNavigation() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [pathname]);
}

function Layout() {
  useFocusOnNavigation();
  const trpc = useTRPC();
  const store = useQuery(trpc.public.organization.get.queryOptions({}, { staleTime: 5 * 60_000 }));
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/account" className="store-name">
          {store.data?.name ?? 'Store'}
        </Link>
        <nav aria-label="Account">
          <ul>
            <li>
              <Link to="/account" activeOptions={{ exact: true }}>
                Account
              </Link>
            </li>
            <li>
              <Link to="/account/orders">Orders</Link>
            </li>
            <li>
              <Link to="/account/bookings">Bookings</Link>
            </li>
            <li>
              <Link to="/account/addresses">Addresses</Link>
            </li>
            <li>
              <Link to="/account/profile">Profile</Link>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Layout,
  notFoundComponent: () => (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        <Link to="/account">Go to your account</Link>
      </p>
    </section>
  ),
});
