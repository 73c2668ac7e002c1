import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readLocation } from './lib/tenant.ts';
import { createClient, readFailure, TRPCProvider } from './lib/trpc.ts';
import { StoreResolver } from './pages/resolve-store.tsx';
import { createAppRouter } from './router.tsx';
import '@commerce/ui/styles.css';
import './styles.css';

const location = readLocation(window.location.pathname);
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) is an answer, not a hiccup: only network and server failures are retried.
      retry: (count, error) => (readFailure(error).status ?? 500) >= 500 && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
const trpcClient = createClient(location.slug);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {location.slug === undefined ? (
          <StoreResolver />
        ) : (
          <RouterProvider router={createAppRouter(location.basepath, location.slug)} />
        )}
      </TRPCProvider>
    </QueryClientProvider>
  </StrictMode>,
);
