/**
 * Where the app runs: `/hosted/<slug>/…` (the tenant named by the path, the default
 * HOSTED_CHECKOUT_URL) or a root link path (`/order-status?token=…` of a base without `{orgSlug}`),
 * where the token names the store and the page moves to `/hosted/<slug>/…`.
 */
const SLUG = /^\/hosted\/([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?=\/|$)/;

export interface Location {
  slug: string | undefined;
  basepath: string;
}

export function readLocation(pathname: string): Location {
  const match = SLUG.exec(pathname);
  if (!match) return { slug: undefined, basepath: '/' };
  return { slug: match[1]!, basepath: `/hosted/${match[1]}` };
}

/**
 * Which store this browser last signed in to on this origin (a slug, never a credential). The
 * session cookie is HttpOnly and one per origin, so a page of another store can only tell
 * "signed in elsewhere" from "signed out" by this note.
 */
const SIGNED_IN_STORE = 'hosted.signedInStore';

export const signedInStore = {
  get: (): string | undefined => localStorage.getItem(SIGNED_IN_STORE) ?? undefined,
  set: (slug: string) => localStorage.setItem(SIGNED_IN_STORE, slug),
  clear: () => localStorage.removeItem(SIGNED_IN_STORE),
};
