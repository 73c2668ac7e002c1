import { useQuery } from '@tanstack/react-query';
import { useTRPC } from './trpc.ts';

/**
 * The store the path names, as shoppers see it (name, display name, logo, website): read once and
 * shared by the header and the pages for five minutes.
 */
export function useStore() {
  const trpc = useTRPC();
  return useQuery(trpc.public.organization.get.queryOptions({}, { staleTime: 5 * 60_000 }));
}
