import { useSyncExternalStore } from 'react';
import { en, type Messages } from './en.ts';

/**
 * The shopper-visible texts: one catalogue per language (`en.ts` is the source and the fallback),
 * chosen by the store's locale (`public.organization.get`'s `locale`), not the browser's. A
 * translation is a file `<language>.ts` exporting a `Translation` (any subset of the English keys,
 * each a string or a function with the same parameters), listed in `CATALOGUES`; a key it lacks
 * reads in English. See docs/hosted-app.md, "Language and formats".
 */
export type MessageKey = keyof Messages;
/** A catalogue of another language: English's keys, each optional, each of English's type. */
export type Translation = { readonly [K in MessageKey]?: Messages[K] };
/** The values a message takes (`t('orders.placed', date)`); none for a plain string. */
export type MessageArgs<K extends MessageKey> = Messages[K] extends (...args: infer A) => string ? A : [];

/** Catalogues by language subtag (`de` for `de-DE` and `de-AT`). English is the fallback. */
export const CATALOGUES: Readonly<Record<string, Translation>> = { en };

/** The locale of a store that has not said (the settings' default). */
export const DEFAULT_LOCALE = 'en-US';

/** The catalogue for a locale: its language's, else English. */
export function catalogueFor(locale: string, catalogues: Readonly<Record<string, Translation>> = CATALOGUES) {
  let language: string;
  try {
    language = new Intl.Locale(locale).language;
  } catch {
    return en;
  }
  return catalogues[language] ?? en;
}

/** One message of a catalogue, with English's where the catalogue has none. */
export function translate<K extends MessageKey>(
  catalogue: Translation,
  key: K,
  ...args: MessageArgs<K>
): string {
  const message = (catalogue[key] ?? en[key]) as string | ((...values: unknown[]) => string);
  return typeof message === 'function' ? message(...args) : message;
}

let locale = DEFAULT_LOCALE;
let catalogue: Translation = en;
const listeners = new Set<() => void>();

/** The store's locale the pages use now (`en-US` until the store is known). */
export function currentLocale(): string {
  return locale;
}

/** The canonical form of a tag (`de-de` → `de-DE`), `en-US` for one that is not well formed. */
export function canonicalLocale(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

/**
 * Sets the store's locale for texts and formats (a well-formed tag; anything else is the default)
 * and tells the components that read it. Called once the store is known.
 */
export function setLocale(next: string): void {
  const canonical = canonicalLocale(next);
  if (canonical === locale) return;
  locale = canonical;
  catalogue = catalogueFor(canonical);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A message of the store's language: `t('account.title')`, `t('orders.placed', date)`. */
export function t<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  return translate(catalogue, key, ...args);
}

/** The store's locale, re-rendering the component when it changes. */
export function useLocale(): string {
  return useSyncExternalStore(subscribe, currentLocale, currentLocale);
}

/** `t`, in a component that re-renders when the store's locale changes. */
export function useText(): typeof t {
  useLocale();
  return t;
}
