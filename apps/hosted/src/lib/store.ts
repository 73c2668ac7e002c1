import { useQuery } from '@tanstack/react-query';
import { useLayoutEffect } from 'react';
import { canonicalLocale, useLocale } from '../i18n/index.ts';
import { setStoreLocale } from './format.ts';
import { useTRPC } from './trpc.ts';

/**
 * The store the path names, as shoppers see it (name, display name, logo, website, locale): read
 * once and shared by the header and the pages for five minutes.
 */
export function useStore() {
  const trpc = useTRPC();
  return useQuery(trpc.public.organization.get.queryOptions({}, { staleTime: 5 * 60_000 }));
}

/**
 * The store's locale for the whole page, once the store is known: texts, money, numbers and dates
 * (`setStoreLocale`) and `<html lang>` (screen readers' voice, hyphenation, the browser's own
 * widgets). Until then, and when the store cannot be read, `en-US`. Answers whether the page may
 * be drawn: the store's read has settled and its locale is in force (a read that failed: `en-US`).
 */
export function useStoreLocale(): boolean {
  const store = useStore();
  const locale = store.data?.locale;
  // Before paint, so a store's first render in its own language is the one the shopper sees.
  useLayoutEffect(() => {
    if (locale !== undefined) setStoreLocale(locale);
  }, [locale]);
  const current = useLocale();
  useLayoutEffect(() => {
    document.documentElement.lang = current;
  }, [current]);
  return store.isError || (locale !== undefined && canonicalLocale(locale) === current);
}
